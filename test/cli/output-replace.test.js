// What a write of --out, --html or --log-file (src/output/atomic-file.js) leaves behind when the
// path is a link to a file not made yet, a long file name, or a file someone else owns:
// - a link to a file not made yet used to be replaced by a regular file, and the check before
//   the run left an empty file where it pointed; it is followed, as a shell's `>` follows it;
// - a name of 250 bytes, which the file system takes, failed after the run: the temporary
//   file next to it, named after it, was too long (ENAMETOOLONG);
// - root writing over a user's file left it root's (the user's next run could not write it).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, chownSync, lstatSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../../src/output/atomic-file.js';
import { checkFileDestination } from '../../src/output/output-destinations.js';

const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-test-replace-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a link to a file not made yet stays a link: the check makes nothing, the write lands where it points', () => {
  const sub = mkdtempSync(path.join(dir, 'link-'));
  const link = path.join(sub, 'latest.json');
  const pointed = path.join(sub, 'runs-1.json');
  symlinkSync('runs-1.json', link);
  checkFileDestination(link, '--out');
  assert.deepEqual(readdirSync(sub), ['latest.json'], 'the check leaves no file behind');
  assert.ok(lstatSync(link).isSymbolicLink());
  writeFileAtomic(link, '{"kind":"run"}\n');
  assert.ok(lstatSync(link).isSymbolicLink(), 'the link is still a link');
  assert.equal(readlinkSync(link), 'runs-1.json');
  assert.equal(readFileSync(pointed, 'utf8'), '{"kind":"run"}\n');
  assert.deepEqual(readdirSync(sub).sort(), ['latest.json', 'runs-1.json']);
});

test('a file name the file system takes is written, whatever its length: the temporary name is cut to fit', () => {
  const sub = mkdtempSync(path.join(dir, 'long-'));
  // 250 bytes: ASCII, and UTF-8 of two bytes a character (the cut must not split one).
  for (const name of [`${'r'.repeat(245)}.json`, `${'é'.repeat(122)}.json`]) {
    const file = path.join(sub, name);
    assert.ok(Buffer.byteLength(name) >= 248 && Buffer.byteLength(name) <= 255, name);
    checkFileDestination(file, '--out');
    writeFileAtomic(file, 'first\n');
    writeFileAtomic(file, 'second\n');
    assert.equal(readFileSync(file, 'utf8'), 'second\n');
  }
  assert.equal(readdirSync(sub).filter((n) => n.endsWith('.tmp')).length, 0, 'no temporary file is left');
});

test("root writing over another user's file keeps its owner and mode", { skip: process.getuid?.() === 0 ? false : 'needs root (chown)' }, () => {
  const file = path.join(dir, 'owned.json');
  writeFileSync(file, 'previous\n');
  chmodSync(file, 0o664);
  chownSync(file, 65534, 65534);
  writeFileAtomic(file, 'new\n');
  const stat = statSync(file);
  assert.equal(readFileSync(file, 'utf8'), 'new\n');
  assert.deepEqual([stat.uid, stat.gid, stat.mode & 0o777], [65534, 65534, 0o664]);
});

test('--html through a link to a file in a folder that does not exist is refused before the run, as --out is', async () => {
  const { prepareExtras } = await import('../../src/commands/extras.js');
  const sub = mkdtempSync(path.join(dir, 'html-link-'));
  const link = path.join(sub, 'report.html');
  symlinkSync(path.join(sub, 'missing', 'report.html'), link);
  assert.throws(() => prepareExtras({ html: link }, 'report', 'run'), /^UsageError: --html .*report\.html: the folder .*missing does not exist; give a file in a folder you can write to$/);
  const fine = path.join(sub, 'fine.html');
  symlinkSync('made-later.html', fine);
  assert.equal(prepareExtras({ html: fine }, 'report', 'run').html, fine, 'a link into a folder that exists is taken');
});

test('an empty output path (--out "", an unset shell variable) is refused as empty, not as "a directory"', () => {
  for (const [flag, example] of [['--out', 'result.json'], ['--html', 'report.html'], ['--log-file', 'spawnbench.log']]) {
    assert.throws(() => checkFileDestination('', flag), { name: 'UsageError', message: `${flag} was given an empty path; give a file path, like ${flag} ${example}` }, flag);
  }
});
