// As root, `--out /tmp/r.json` over a link another user put in /tmp, pointing at a file of root's:
// spawnbench followed it and replaced that file, where the kernel (fs.protected_symlinks) refuses
// such a link to a shell's `>`.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, lchownSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { foreignLink, writeFileAtomic } from '../../src/output/atomic-file.js';
import { checkFileDestination } from '../../src/output/output-destinations.js';

const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-test-link-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const root = process.geteuid?.() === 0;

test('another user\'s link in a shared (sticky) directory is not followed: refused before the run, and at the write', { skip: root ? false : 'needs root to make a link of another user' }, () => {
  const shared = path.join(dir, 'shared');
  mkdirSync(shared);
  chmodSync(shared, 0o1777);
  const precious = path.join(dir, 'precious.txt');
  writeFileSync(precious, 'precious\n');
  const link = path.join(shared, 'r.json');
  symlinkSync(precious, link);
  lchownSync(link, 65534, 65534);
  assert.match(foreignLink(link) ?? '', /a link of uid 65534 in a directory every user can write/);
  assert.throws(() => checkFileDestination(link, '--out'), /--out .*r\.json is a link of uid 65534 .*: spawnbench does not follow it/);
  assert.throws(() => writeFileAtomic(link, '{}'), { code: 'EACCES' });
  assert.equal(readFileSync(precious, 'utf8'), 'precious\n');
  // One's own link there, or another user's in a directory that is not shared, is followed as before.
  const own = path.join(shared, 'own.json');
  symlinkSync(path.join(dir, 'own-target.json'), own);
  assert.equal(foreignLink(own), null);
  const plain = path.join(dir, 'plain.json');
  symlinkSync(path.join(dir, 'plain-target.json'), plain);
  lchownSync(plain, 65534, 65534);
  assert.equal(foreignLink(plain), null);
});
