// Runtimes: which strategy runs where, the one-line refusal when it cannot, and
// Node main processes driving Bun workers for real.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readlinkSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { boot, hammer, groupMembers, WORKLOADS } from './helpers.js';
import { getStrategy, listStrategies } from '../../src/strategies/registry.js';
import { checkRuntimeSupport, resolveRuntime, workerForkConfig } from '../../src/strategies/runtimes.js';
import { UsageError } from '../../src/base/errors.js';
import { runtimePath, missingRuntime } from '../helpers/runtimes.js';

const NODE = resolveRuntime('node');
/** bun or deno from the runtime cache (test/helpers/runtimes.js), null when not fetched. */
const installed = (name) => runtimePath(name) && resolveRuntime(runtimePath(name));
const bun = installed('bun');
const deno = installed('deno');
const started = [];
after(async () => {
  for (const s of started) await s.stop();
  for (const s of started) assert.deepEqual(groupMembers(s.pid), []);
});

test('every strategy is in the registry with its pool flag', () => {
  const pools = Object.fromEntries(listStrategies().map((s) => [s.name, s.pool]));
  assert.deepEqual(pools, {
    baseline: false, cluster: true, 'comm-channel': true, 'fork-pool': true, 'reuse-port': true, 'send-advanced': true, 'worker-threads': true,
  });
});

test('runtimes a strategy cannot use are refused in one line that says what to use', () => {
  const refuse = (name, choice, pattern) => {
    assert.throws(() => checkRuntimeSupport(getStrategy(name), choice), (error) => {
      assert.ok(error instanceof UsageError);
      assert.doesNotMatch(error.message, /\n/);
      assert.match(error.message, pattern);
      return true;
    });
  };
  const fake = (kind) => ({ name: kind, kind, path: `/opt/${kind}` });
  refuse('cluster', { runtime: fake('bun') }, /^strategy 'cluster' cannot run on bun: Bun's node:cluster .*; use --runtime node or deno$/);
  refuse('worker-threads', { workerRuntime: fake('bun') }, /forks no worker processes, so --worker-runtime does not apply/);
  refuse('baseline', { workerRuntime: fake('deno') }, /forks no worker processes/);
  refuse('send-advanced', { workerRuntime: fake('bun') }, /cannot run its workers on bun under a node main process: 'advanced' IPC .*; use --worker-runtime node or --runtime bun$/);
  refuse('fork-pool', { runtime: fake('deno'), workerRuntime: fake('bun') }, /Deno's fork\(\) always starts deno; use --worker-runtime deno or --runtime node$/);
  refuse('reuse-port', { runtime: fake('bun') }, /^strategy 'reuse-port' cannot run on bun: its point is a Node main process .*; use --runtime node$/);
});

test('supported pairings pass and come back resolved', () => {
  const fake = (kind) => ({ name: kind, kind, path: `/opt/${kind}` });
  for (const name of ['fork-pool', 'comm-channel']) {
    for (const kind of ['node', 'bun', 'deno']) {
      const { workerRuntime } = checkRuntimeSupport(getStrategy(name), { runtime: NODE, workerRuntime: fake(kind) });
      assert.equal(workerRuntime.kind, kind);
    }
  }
  assert.deepEqual(checkRuntimeSupport(getStrategy('cluster'), { runtime: fake('deno') }).workerRuntime, null);
  // A default (not given) worker runtime is never an error: workers run on the main's runtime.
  const bunMain = fake('bun');
  const defaults = { runtime: bunMain, workerRuntime: NODE, workerRuntimeGiven: false };
  assert.equal(checkRuntimeSupport(getStrategy('send-advanced'), defaults).workerRuntime, bunMain);
  assert.equal(checkRuntimeSupport(getStrategy('baseline'), defaults).workerRuntime, null);
  assert.equal(checkRuntimeSupport(getStrategy('worker-threads'), defaults).workerRuntime, null);
  assert.deepEqual(checkRuntimeSupport(getStrategy('send-advanced'), { runtime: fake('bun'), workerRuntime: fake('bun') }).runtime.kind, 'bun');
});

test('workerForkConfig: deno needs run --allow-all unless the main is deno; node under node inherits flags', () => {
  const fake = (kind) => ({ kind, path: `/opt/${kind}` });
  assert.deepEqual(workerForkConfig(fake('deno'), fake('node')), { workerRuntime: '/opt/deno', workerExecArgv: ['run', '--allow-all'] });
  assert.deepEqual(workerForkConfig(fake('deno'), fake('deno')), { workerRuntime: '/opt/deno', workerExecArgv: [] });
  assert.deepEqual(workerForkConfig(fake('bun'), fake('node')), { workerRuntime: '/opt/bun', workerExecArgv: [] });
  assert.deepEqual(workerForkConfig(fake('node'), fake('node')), { workerRuntime: '/opt/node', workerExecArgv: null });
});

for (const [name, workload] of [['fork-pool', 'echo'], ['comm-channel', 'large']]) {
  test(`${name}: a node main process drives bun workers (${workload})`, { skip: missingRuntime('bun') }, async () => {
    const strategy = await boot(name, { workload, ...workerForkConfig(bun, NODE) });
    started.push(strategy);
    // 6 requests on each of 10 keep-alive connections, 5 in flight on each worker.
    const result = await hammer({ port: strategy.port, requests: 60, connections: 10, expected: WORKLOADS[workload].expected });
    assert.deepEqual(result.statuses, { 200: 60 });
    assert.equal(result.ok, 60);
    const workers = strategy.workers();
    assert.equal(workers.length, 2);
    for (const w of workers) assert.equal(readlinkSync(`/proc/${w.pid}/exe`), bun.path);
    await strategy.stop();
  });
}

test('fork-pool: a node main process drives deno workers (large, and a command that cannot start)', { skip: missingRuntime('deno') }, async () => {
  const strategy = await boot('fork-pool', { workload: 'large', ...workerForkConfig(deno, NODE) });
  started.push(strategy);
  const result = await hammer({ port: strategy.port, requests: 50, connections: 5, expected: WORKLOADS.large.expected });
  assert.deepEqual(result.statuses, { 200: 50 });
  assert.equal(result.ok, 50);
  for (const w of strategy.workers()) assert.equal(readlinkSync(`/proc/${w.pid}/exe`), deno.path);
  await strategy.stop();
  const missing = await boot('fork-pool', { command: 'nosuchcmd-spawnbench', args: [], ...workerForkConfig(deno, NODE) });
  started.push(missing);
  const failed = await hammer({ port: missing.port, requests: 4, connections: 2, expected: null });
  assert.deepEqual(failed.statuses, { 500: 4 });
  assert.match(failed.bodies[500], /spawn nosuchcmd-spawnbench ENOENT/);
  await missing.stop();
});

test('send-advanced refuses bun workers itself too, with the reason on stderr', { skip: missingRuntime('bun') }, async () => {
  await assert.rejects(boot('send-advanced', workerForkConfig(bun, NODE)), /bun workers cannot talk 'advanced' IPC to a node main process/);
});

test('comm-channel: node main + deno workers meet on the padded abstract name', { skip: missingRuntime('deno') }, async () => {
  const strategy = await boot('comm-channel', { workload: 'large', ...workerForkConfig(deno, NODE) });
  started.push(strategy);
  const result = await hammer({ port: strategy.port, requests: 50, connections: 5, expected: WORKLOADS.large.expected });
  assert.deepEqual(result.statuses, { 200: 50 });
  assert.equal(result.ok, 50);
  await strategy.stop();
});

test('comm-channel: bun main + node workers use a socket file, removed on stop', { skip: missingRuntime('bun') }, async () => {
  const strategy = await boot('comm-channel', { workerRuntime: process.execPath, workerRuntimeKind: 'node' }, { command: bun.path });
  started.push(strategy);
  const dirs = () => readdirSync(tmpdir()).filter((d) => d.startsWith(`spawnbench-comm-${strategy.pid}-`));
  assert.equal(dirs().length, 1);
  const result = await hammer({ port: strategy.port, requests: 50, connections: 5, expected: WORKLOADS.echo.expected });
  assert.equal(result.ok, 50);
  await strategy.stop();
  assert.deepEqual(dirs(), []);
});

test('comm-channel is refused off Linux', () => {
  const platform = Object.getOwnPropertyDescriptor(process, 'platform');
  Object.defineProperty(process, 'platform', { value: 'darwin' });
  try {
    assert.throws(() => getStrategy('comm-channel'), /strategy 'comm-channel' is not supported on this platform \(darwin\); it runs on linux/);
  } finally {
    Object.defineProperty(process, 'platform', platform);
  }
});
