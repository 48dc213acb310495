// Texts from outside spawnbench never reach a terminal or a browser raw: a result file edited
// so that its command, paths, method, CPU model and process labels hold terminal escapes
// (clear the screen, set the window title), bidirectional controls (U+202E turns what
// follows around) and HTML, and a process whose name (comm) holds escapes. The result file
// is cleaned once where it is read (src/report/result-file.js), /proc names where they are
// read (src/sample/proc.js), and the HTML escapes what it shows.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli } from '../helpers/harness.js';
import { readStat } from '../../src/sample/proc.js';
import { cleanText, plainText } from '../../src/base/untrusted-text.js';

const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-test-untrusted-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const HOSTILE = '\u001b[2J\u001b]0;X\u0007<script>alert(1)</script>\u202Eevil\u2066\u200f\u061c';
// ESC, CSI (C1), BEL, and every bidirectional control the views must not pass on.
const UNSAFE = /[\u001b\u009b\u0007\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
/** Fields whose values a view must keep as they are (the header, enums, times). */
const KEPT = new Set(['tool', 'kind', 'format', 'createdAt', 'mode', 'role', 'key']);

/** A copy of a fixture result with HOSTILE appended to every free text in it. */
function hostileCopy(kind) {
  const walk = (value) => {
    if (Array.isArray(value)) return value.map(walk);
    if (value && typeof value === 'object') {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, typeof v === 'string' && !KEPT.has(k) ? v + HOSTILE : walk(v)]));
    }
    return value;
  };
  const source = fileURLToPath(new URL(`../gates/fixtures/${kind}.json`, import.meta.url));
  const file = path.join(dir, `${kind}.json`);
  writeFileSync(file, JSON.stringify(walk(JSON.parse(readFileSync(source, 'utf8')))));
  return file;
}

for (const kind of ['run', 'diagnose', 'compare']) {
  test(`report of a hostile ${kind} file: no escape, bidi control or raw HTML in the text, --markdown, --json and --html`, async () => {
    const file = hostileCopy(kind);
    const html = path.join(dir, `${kind}.html`);
    for (const args of [[], ['--markdown'], ['--json'], ['--html', html]]) {
      const { code, out, err } = await cli('report', file, ...args);
      assert.equal(code, 0, err);
      assert.doesNotMatch(out + err, UNSAFE, `report ${args.join(' ')}`);
      if (args[0] === '--json') assert.match(out, /<script>alert\(1\)<\/script>evil/, 'JSON keeps the text, cleaned');
      if (args[0] === '--markdown' && kind === 'compare') assert.doesNotMatch(out, /<script/, 'Markdown shows no raw HTML');
    }
    const page = readFileSync(html, 'utf8');
    assert.doesNotMatch(page, UNSAFE);
    assert.doesNotMatch(page, /<script>alert/);
    assert.match(page, /&lt;script&gt;alert\(1\)&lt;\/script&gt;evil/, 'the text is shown, escaped');
  });
}

test('a process named with terminal escapes (its comm) is read without them', async (t) => {
  // comm is the executable's file name (15 bytes at most): links to sleep named with ESC [2J and ESC ] 0;X BEL.
  for (const [name, expected] of [['\u001b[2J\u001b]0;X\u0007', '?'], ['\u001b[2Jup\u202eX', 'upX']]) {
    const link = path.join(dir, name);
    symlinkSync('/bin/sleep', link);
    const child = spawn(link, ['30'], { stdio: 'ignore' });
    t.after(async () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGKILL');
        await once(child, 'exit');
      }
    });
    await once(child, 'spawn');
    assert.match(readFileSync(`/proc/${child.pid}/comm`, 'latin1'), /\u001b/, 'the kernel keeps the escapes in comm');
    const stat = readStat(child.pid);
    assert.ok(stat);
    assert.equal(stat.name, expected);
  }
});

test('cleanText and plainText remove every bidirectional control', () => {
  const bidi = '\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069';
  assert.equal(cleanText(`a${bidi}b`), 'ab');
  assert.equal(plainText(`a${bidi}\u001b[31mb\nc\td`), 'ab\nc d');
});
