// A low address-space limit (ulimit -v): run died with a V8 "Fatal process OOM" trap (exit 133) or a
// segmentation fault (139) and no word of why. Now: one line saying what `ulimit -v` to set, exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BIN } from '../helpers/spawnbench-process.js';

/** A script of this package that does nothing: where Node starts it, Node itself is not what fails. */
const NOOP = fileURLToPath(new URL('../helpers/noop.js', import.meta.url));
import { readAddressSpaceLimit, addressSpaceRefusal } from '../../src/runner/address-space-limit.js';
import { MIN_ADDRESS_SPACE_BYTES } from '../../src/base/thresholds.js';

const withLimit = (kb, args) => spawnSync('/bin/sh', ['-c', `ulimit -v ${kb} && exec "$@"`, 'sh', process.execPath, BIN, ...args], { encoding: 'utf8' });

/** The lowest of these address-space limits (kB) at which this Node itself starts: 1,000,000 on Node 20, 1,200,000 on Node 26 (below, V8's own OOM trap). */
function lowestStarting() {
  const starts = (kb) => spawnSync('/bin/sh', ['-c', `ulimit -v ${kb} && exec "$@"`, 'sh', process.execPath, NOOP]).status === 0;
  const kb = [1_000_000, 1_200_000, 1_500_000, 1_800_000].find(starts);
  assert.ok(kb, 'this Node starts under some ulimit -v below 2 GiB');
  return kb;
}

test('ulimit -v at the lowest this Node starts with (1000000 on Node 20): spawnbench run says what to set, in one line, exit 2', () => {
  const kb = lowestStarting();
  const result = withLimit(kb, ['run', '-d', '1s', '--url', 'http://127.0.0.1:1/']);
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, new RegExp(`^spawnbench: the address-space limit is ${kb} kB \\(ulimit -v\\) and spawnbench and the server it starts need at least 2097152 kB; run \`ulimit -v unlimited\` .*\n$`));
});

test(`ulimit -v ${MIN_ADDRESS_SPACE_BYTES / 1024}: commands run`, () => {
  const result = withLimit(MIN_ADDRESS_SPACE_BYTES / 1024, ['list']);
  assert.equal(result.status, 0, result.stderr);
});

test('the limit is read from /proc/self/limits, in bytes; unlimited or unreadable is no refusal', () => {
  const text = 'Limit                     Soft Limit           Hard Limit           Units\nMax address space         1024000000           unlimited            bytes\n';
  assert.equal(readAddressSpaceLimit(text), 1_024_000_000);
  assert.equal(readAddressSpaceLimit('Max address space         unlimited            unlimited            bytes\n'), Infinity);
  assert.equal(addressSpaceRefusal(Infinity), null);
  assert.equal(addressSpaceRefusal(null), null);
  assert.equal(addressSpaceRefusal(MIN_ADDRESS_SPACE_BYTES), null);
  assert.match(addressSpaceRefusal(1024 ** 3), /limit is 1048576 kB/);
});

const withStack = (kb, args) => spawnSync('/bin/sh', ['-c', `ulimit -s ${kb} && exec "$@"`, 'sh', process.execPath, BIN, ...args], { encoding: 'utf8' });

test('ulimit -s below the 984 kB V8 assumes (at the lowest this Node starts a script with): one line saying what to set, exit 2, not a segfault', async () => {
  const { stackRefusal, readStackLimit } = await import('../../src/runner/address-space-limit.js');
  // Below ~64 kB Node itself dies before any script; spawnbench --help died by SIGSEGV (139, no word) at 64 and 70.
  // At 64 kB Node's own module loading sometimes overran the stack before spawnbench's first line (1 run in 6 under
  // node --test): twice the lowest limit a script starts at leaves it room, still far below what V8 assumes.
  const starts = (kb) => spawnSync('/bin/sh', ['-c', `ulimit -s ${kb} && exec "$@"`, 'sh', process.execPath, NOOP]).status === 0;
  const lowest = [64, 96, 128, 256].find(starts);
  assert.ok(lowest, 'this Node starts a script under some ulimit -s below 1 MiB');
  const kb = Math.min(lowest * 2, 512);
  for (const args of [['--help'], ['run', '-d', '1s', '--url', 'http://127.0.0.1:1/']]) {
    const result = withStack(kb, args);
    assert.equal(result.status, 2, `${args[0]}: status ${result.status} signal ${result.signal} ${result.stderr}`);
    assert.equal(result.stdout, '');
    assert.equal(result.stderr, `spawnbench: the stack limit is ${kb} kB (ulimit -s) and Node needs at least 1024 kB; run \`ulimit -s 8192\` in this shell first\n`);
  }
  assert.equal(withStack(1024, ['list']).status, 0, 'at 1 MiB commands run');
  assert.equal(readStackLimit('Max stack size            8388608              unlimited            bytes\n'), 8388608);
  assert.equal(stackRefusal(Infinity), null);
  assert.equal(stackRefusal(null), null);
});

test('--generator-threads 2 under a ulimit -v that fits one thread: one line saying what to set, exit 2, not a V8 OOM trap', async () => {
  const { parseGeneratorThreads } = await import('../../src/plan/option-declarations.js');
  const cpu = { budget: 2, source: 'host', hostThreads: 2, physicalCores: 2, cpus: [0, 1], limits: {}, smt: null, unreadable: null };
  const kb = 2_202_009;
  assert.throws(() => parseGeneratorThreads('2', cpu, kb * 1024), new RegExp(`^UsageError: --generator-threads 2 needs at least 2621440 kB of address space and the limit is ${kb} kB \\(ulimit -v\\); run \`ulimit -v unlimited\` in this shell first, or give --generator-threads 1$`));
  assert.equal(parseGeneratorThreads('1', cpu, kb * 1024), 1, 'one thread fits');
  assert.equal(parseGeneratorThreads('2', cpu, 2621440 * 1024), 2);
  assert.equal(parseGeneratorThreads('2', cpu, null), 2, 'no limit');
  // End to end it died with exit 133 (Fatal process OOM); on a 1-CPU budget the CPUs refuse it first, in one line too.
  const result = withLimit(kb, ['run', '-d', '1s', '--url', 'http://127.0.0.1:1/', '--generator-threads', '2']);
  assert.equal(result.status, 2, `status ${result.status} signal ${result.signal}: ${result.stderr}`);
  assert.match(result.stderr, /^spawnbench: --generator-threads 2 [^\n]*\n$/);
});

test("a server that dies at start under its own low ulimit -v: the limit is named, not only V8's trap", async () => {
  // run -- sh -c 'ulimit -v 400000; exec node server.js' read "was killed by SIGTRAP before it was ready; its stderr
  // ends: # Fatal process OOM in Failed to reserve virtual memory for CodeRange".
  const { startLimitFailureMessage } = await import('../../src/runner/start-limits.js');
  const tail = '\n#\n# Fatal process OOM in Failed to reserve virtual memory for CodeRange\n#\n';
  assert.equal(startLimitFailureMessage("'node server.js'", 'was killed by SIGTRAP', tail),
    "'node server.js' was killed by SIGTRAP before it was ready: Node could not reserve its memory ('Failed to reserve virtual memory' in its stderr), which an address-space limit (ulimit -v) below what Node reserves does; raise it where the server starts (ulimit -v unlimited)");
  assert.equal(startLimitFailureMessage("'node server.js'", 'exited with code 1', 'Error: listen EADDRINUSE'), null);
  // sh -c 'ulimit -n 12; exec node server.js': a native stack, "Assertion failed: (0) == (uv_loop_init(&loop_))".
  assert.match(startLimitFailureMessage("'node server.js'", 'was killed by SIGABRT', '  #  Assertion failed: (0) == (uv_loop_init(&loop_))\n'),
    /^'node server\.js' was killed by SIGABRT before it was ready: Node could not open the files it starts with .*; raise it where the server starts \(ulimit -n 1024 or more\)$/);
});
