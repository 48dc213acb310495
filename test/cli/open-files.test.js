// A low open-files limit: every command used to die with a raw EMFILE stack while its modules
// loaded (even --version). Now: one line saying what `ulimit -n` to set, exit 2; and a limit
// spawnbench can live with changes nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BIN } from '../helpers/spawnbench-process.js';

/** A script of this package that does nothing: where Node starts it, Node itself is not what fails. */
const NOOP = fileURLToPath(new URL('../helpers/noop.js', import.meta.url));
import { readOpenFilesLimit, openFilesRefusal } from '../../src/runner/open-files-limit.js';
import { MIN_OPEN_FILES } from '../../src/base/thresholds.js';

const withLimit = (limit, args) => spawnSync('/bin/sh', ['-c', `ulimit -n ${limit} && exec "$@"`, 'sh', process.execPath, BIN, ...args], { encoding: 'utf8' });

for (const args of [['--version'], ['list'], ['run', '-d', '200ms'], ['diagnose', '--url', 'http://127.0.0.1:1/']]) {
  test(`ulimit -n 256: spawnbench ${args.join(' ')} says what to set, in one line, exit 2`, () => {
    const result = withLimit(256, args);
    assert.equal(result.status, 2, result.stderr);
    assert.equal(result.stdout, '');
    assert.match(result.stderr, new RegExp(`^spawnbench: the open-files limit is 256 \\(hard limit 256\\) and spawnbench needs ${MIN_OPEN_FILES}; run \`ulimit -n ${MIN_OPEN_FILES}\` in this shell first .*\\n$`));
    assert.doesNotMatch(result.stderr, /EMFILE|at /);
  });
}

/** The lowest two open-files limits from 18 at which this Node itself starts (Node 20: 18; Node 26 segfaults below 21). */
function lowestStarting() {
  const starts = (limit) => spawnSync('/bin/sh', ['-c', `ulimit -n ${limit} && exec "$@"`, 'sh', process.execPath, NOOP]).status === 0;
  const first = [18, 19, 20, 21, 22, 23, 24, 28, 32].find(starts);
  assert.ok(first, 'this Node starts under some ulimit -n up to 32');
  return [first, first + 1];
}

test('ulimit -n at the lowest this Node starts with (18 and 19 on Node 20): the same one line, not an EMFILE stack from loading the clean-up modules', () => {
  // bin's clean-up modules loaded before the check; at 18 or 19 files their loading died with an EMFILE stack.
  for (const limit of lowestStarting()) {
    const result = withLimit(limit, ['--version']);
    assert.equal(result.status, 2, result.stderr);
    assert.match(result.stderr, new RegExp(`^spawnbench: the open-files limit is ${limit} \\(hard limit ${limit}\\) and spawnbench needs ${MIN_OPEN_FILES}; run \`ulimit -n ${MIN_OPEN_FILES}\` in this shell first .*\\n$`));
    assert.doesNotMatch(result.stderr, /EMFILE|at /);
  }
});

test(`ulimit -n ${MIN_OPEN_FILES}: commands run`, () => {
  const result = withLimit(MIN_OPEN_FILES, ['list']);
  assert.equal(result.status, 0, result.stderr);
  assert.match(result.stdout, /comm-channel/);
});

test('the limit is read from /proc/self/limits; a soft limit below a high enough hard one says ulimit -Sn', () => {
  const text = 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            256                  unlimited            files\n';
  assert.deepEqual(readOpenFilesLimit(text), { soft: 256, hard: Infinity });
  assert.match(openFilesRefusal({ soft: 256, hard: 4096 }, 1024), /run `ulimit -Sn 1024`/);
  assert.equal(openFilesRefusal({ soft: 1024, hard: 1024 }, 1024), null);
  assert.equal(openFilesRefusal(null), null);
  assert.ok(readOpenFilesLimit().soft >= MIN_OPEN_FILES, 'this test runs with enough files');
});

test(`ulimit -n ${MIN_OPEN_FILES}: more --connections than the limit leaves room for is refused before anything starts, in one line, exit 2`, () => {
  // -c 1500 used to run: 3,549 of its connects failed with spawnbench's own EMFILE, counted as the server's errors.
  const url = ['--url', 'http://127.0.0.1:1/'];
  const own = ['--size-env', 'WORKERS', '--', 'node', 'no-such-server.js'];
  for (const args of [['run', '-c', '1500', ...url], ['diagnose', '-c', '1500', ...url], ['tune', '--sizes', '1,2', '-c', '1500', ...own]]) {
    const result = withLimit(MIN_OPEN_FILES, [args[0], '-d', '1s', ...args.slice(1)]);
    assert.equal(result.status, 2, `${args.join(' ')}: ${result.stderr}`);
    assert.match(result.stderr, /^spawnbench: --connections 1500 needs about 1,564 open files and the limit is 1024; run `ulimit -n 4096` in this shell first, or give at most --connections 960\n$/, args.join(' '));
  }
  // 960 connections ran clean under this limit (1,000 did not): they are let through to the load.
  const fits = withLimit(MIN_OPEN_FILES, ['run', '-c', '960', '-n', '1', '-w', '0', '--no-dashboard', '--url', 'http://127.0.0.1:1/']);
  assert.notEqual(fits.status, 2, fits.stderr);
  assert.doesNotMatch(fits.stderr, /open files/);
});
