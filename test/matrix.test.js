// The test runner (`npm test`, `npm run test:matrix`): which files each set runs, the
// runtime cache's layout, and the closing summary it reads from each run (CI reads
// the totals it prints last).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { testFiles, parseTotals, nodePath, runsAlone, loadOf, nextToStart, fileSummary, failureText } from './matrix.js';
import { RUNTIMES, runtimesDir } from './helpers/runtimes.js';

test('the full set is every test file but test/smoke; smoke is test/smoke; runtimes is every file that uses the runtime cache', () => {
  const full = testFiles('full');
  assert.ok(full.includes('test/matrix.test.js') && full.includes('test/probe/spawn-timing.test.js'));
  assert.ok(!full.includes('test/smoke/smoke.test.js'));
  assert.ok(full.every((file) => file.endsWith('.test.js')));
  assert.deepEqual(testFiles('smoke'), ['test/smoke/smoke.test.js']);
  const runtimes = testFiles('runtimes');
  for (const file of ['test/probe/bun.test.js', 'test/probe/spawn-timing.test.js', 'test/strategies/posix-spawn.test.js', 'test/strategies/runtimes.test.js', 'test/runner/temp-dir.test.js']) {
    assert.ok(runtimes.includes(file), file);
  }
  assert.ok(runtimes.every((file) => full.includes(file)));
  assert.ok(!runtimes.includes('test/smoke/smoke.test.js') && !runtimes.includes('test/matrix.test.js'));
  assert.equal(nodePath('this'), process.execPath);
  assert.equal(runsAlone('test/matrix.test.js'), false);
});

test('runtimes are pinned, and cached in $SPAWNBENCH_RUNTIMES, else node_modules/.cache (other users can run them there)', () => {
  assert.deepEqual(Object.keys(RUNTIMES), ['node22', 'node24', 'node26', 'bun', 'deno']);
  for (const { spec } of Object.values(RUNTIMES)) assert.match(spec, /@\d+\.\d+\.\d+$/);
  assert.equal(runtimesDir({ SPAWNBENCH_RUNTIMES: '/x/rt' }), '/x/rt');
  assert.equal(runtimesDir({}), join(process.cwd(), 'node_modules', '.cache', 'spawnbench', 'runtimes'));
});

test("a file's totals are counted from the runner's events as node's own summary counts them", () => {
  // Every kind of outcome node's summary tells apart: a suite, a pass, a skip, a todo, a subtest
  // cancelled by its parent's timeout, that timeout itself, a failure.
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-totals-test-'));
  try {
    const file = join(dir, 'kinds.test.mjs');
    writeFileSync(file, [
      "import { test, describe } from 'node:test';",
      "describe('s', () => { test('a', () => {}); test('b', { skip: true }, () => {}); test('c', { todo: true }, () => { throw new Error('x'); }); });",
      "test('d', async (t) => { await t.test('e', () => {}); });",
      "test('f', { timeout: 100 }, async (t) => { t.test('g', () => new Promise((r) => setTimeout(r, 2000))); await new Promise((r) => setTimeout(r, 2000)); });",
      "test('h', () => { throw new Error('boom'); });",
    ].join('\n'));
    const totalsFile = join(dir, 'totals.jsonl');
    const run = spawnSync(process.execPath, [
      '--test-reporter=spec', '--test-reporter-destination=stdout',
      `--test-reporter=${fileURLToPath(new URL('./helpers/totals-reporter.js', import.meta.url))}`,
      `--test-reporter-destination=${totalsFile}`, file,
    // Run as a top-level test run even under `node --test`, whose NODE_TEST_CONTEXT would send the fixture's events to it.
    ], { encoding: 'utf8', env: Object.fromEntries(Object.entries(process.env).filter(([name]) => name !== 'NODE_TEST_CONTEXT')) });
    const spec = Object.fromEntries([...run.stdout.matchAll(/^ℹ (\w+) ([\d.]+)$/gm)].map((m) => [m[1], Number(m[2])]));
    const totals = parseTotals(readFileSync(totalsFile, 'utf8'));
    assert.ok(totals, `no totals line; stdout:\n${run.stdout}`);
    for (const key of ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo']) assert.equal(totals[key], spec[key], key);
    assert.deepEqual([totals.tests, totals.suites, totals.pass, totals.fail, totals.cancelled, totals.skipped, totals.todo], [8, 1, 3, 1, 2, 1, 1]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('no totals from a file that wrote none or a cut-off line', () => {
  assert.equal(parseTotals(''), null);
  assert.equal(parseTotals('{"tests":3,"pass":3'), null);
  assert.equal(parseTotals('{"tests":3,"pass":3,"fail":0}'), null, 'counters missing');
  assert.deepEqual(parseTotals('{"tests":1,"suites":0,"pass":1,"fail":0,"cancelled":0,"skipped":0,"todo":0,"duration_ms":4}\n').pass, 1);
});

test('parallel files start longest first (test/durations.json), an untimed file as a 10 s one', async () => {
  const { longestFirst } = await import('./matrix.js');
  assert.deepEqual(longestFirst(['a', 'b', 'c', 'd'], { a: 1, b: 30, c: 12 }), ['b', 'c', 'd', 'a']);
  assert.deepEqual(longestFirst(['y', 'x'], {}), ['x', 'y']);
});

test("a file's load is its CPU-seconds over its wall seconds; an untimed one counts as one core", () => {
  const times = { seconds: { a: 10, b: 4 }, cpu: { a: 3, b: 6 } };
  assert.equal(loadOf('a', times), 0.3);
  assert.equal(loadOf('b', times), 1.5);
  assert.equal(loadOf('c', times), 1, 'not measured');
  assert.equal(loadOf('a', { seconds: { a: 10 }, cpu: {} }), 1, 'wall time only');
});

test('files start in order while their loads fit in the budget; a lighter one further down fills the room', () => {
  const loads = { heavy: 1.5, mid: 1, light: 0.3 };
  const limits = { budget: 3, maxFiles: 4, load: (file) => loads[file] };
  assert.equal(nextToStart(['heavy', 'mid', 'light'], [], limits), 'heavy', 'nothing running: the first, whatever its load');
  assert.equal(nextToStart(['heavy', 'mid', 'light'], [1.5, 1], limits), 'light', 'heavy and mid do not fit in the 0.5 left');
  assert.equal(nextToStart(['heavy', 'mid'], [1.5, 1], limits), null, 'nothing fits');
  assert.equal(nextToStart(['light'], [0.3, 0.3, 0.3, 0.3], limits), null, 'maxFiles reached');
  assert.equal(nextToStart([], [], limits), null);
  assert.equal(nextToStart(['heavy', 'mid'], [], { budget: 0, maxFiles: 1, load: (file) => loads[file] }), 'heavy', 'the alone files: one at a time');
  assert.equal(nextToStart(['mid'], [1.5], { budget: 0, maxFiles: 1, load: (file) => loads[file] }), null);
});

test('a file that ends non-zero without a failed test in its summary counts as one failure; a clean one as it is', () => {
  const summary = { tests: 3, suites: 0, pass: 3, fail: 0, cancelled: 0, skipped: 0, todo: 0, duration_ms: 5 };
  assert.deepEqual(fileSummary({ code: 0, summary }), summary);
  assert.deepEqual(fileSummary({ code: 1, summary: { ...summary, pass: 2, fail: 1 } }), { ...summary, pass: 2, fail: 1 });
  assert.equal(fileSummary({ code: 1, summary }).fail, 1, 'crashed after its tests passed');
  assert.equal(fileSummary({ code: 1, summary }).tests, 4);
  assert.deepEqual(fileSummary({ code: 1, summary: null }), { tests: 1, suites: 0, pass: 0, fail: 1, cancelled: 0, skipped: 0, todo: 0, duration_ms: 0 }, 'no summary at all');
});

test('a failed file\'s failures are said again at the end: node\'s "failing tests" section, or the last lines of a crash, at most 40 of its lines', () => {
  const passed = Array.from({ length: 60 }, (_, i) => `✔ case ${i}`).join('\n');
  const failing = '✖ failing tests:\n\ntest at a.test.js:3:1\n✖ it fails (2ms)\n  AssertionError: 1 == 2';
  assert.equal(failureText(`${passed}\n${failing}\n`), failing);
  const crash = failureText(`${passed}\nTypeError: boom\n`);
  assert.deepEqual([crash.split('\n').length, crash.split('\n')[0], crash.split('\n').at(-1)], [41, '… 21 more lines in the file\'s section above', 'TypeError: boom']);
  const long = failureText(`✖ failing tests:\n${Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n')}`);
  assert.deepEqual([long.split('\n').length, long.split('\n').at(-1)], [41, '… 11 more lines in the file\'s section above']);
});
