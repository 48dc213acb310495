// reuse-port: workers on Node, Bun and Deno serve the shared port themselves, byte-exact;
// the Node main replaces a worker that dies or stops answering its probe, in the same
// slot and on the same port; stopping takes every process along.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readlinkSync } from 'node:fs';
import http from 'node:http';
import { boot, hammer, groupMembers, WORKLOADS } from './helpers.js';
import { waitFor } from '../helpers/harness.js';
import { resolveRuntime, workerForkConfig } from '../../src/strategies/runtimes.js';
import { runtimePath, missingRuntime } from '../helpers/runtimes.js';

const NODE = resolveRuntime('node');
/** bun or deno from the runtime cache (test/helpers/runtimes.js), null when not fetched. */
const installed = (name) => runtimePath(name) && resolveRuntime(runtimePath(name));
const RUNTIMES = { node: NODE, bun: installed('bun'), deno: installed('deno') };
/** Requests of each byte-exact run: 6 on each of 10 keep-alive connections. */
const REQUESTS = 60;
const started = [];
after(async () => {
  for (const s of started) await s.stop();
  for (const s of started) assert.deepEqual(groupMembers(s.pid), []);
});

/** Boots reuse-port with its workers on `kind`. */
async function bootOn(kind, config = {}) {
  const strategy = await boot('reuse-port', { ...workerForkConfig(RUNTIMES[kind], NODE), workerRuntimeKind: kind, ...config });
  started.push(strategy);
  return strategy;
}

for (const kind of ['node', 'bun', 'deno']) {
  const skip = kind !== 'node' && missingRuntime(kind);
  for (const workload of ['echo', 'large']) {
    test(`reuse-port: ${kind} workers serve ${workload} byte-exact and count it`, { skip }, async () => {
      const strategy = await bootOn(kind, { workload });
      const result = await hammer({ port: strategy.port, requests: REQUESTS, connections: 10, expected: WORKLOADS[workload].expected });
      assert.deepEqual(result.errors, []);
      assert.equal(result.mismatches, 0);
      assert.deepEqual(result.statuses, { 200: REQUESTS });
      // Every request was served by a worker, and the main process learnt it from its probes.
      const workers = await waitFor(() => {
        const w = strategy.workers();
        return w.length === 2 && w.reduce((sum, x) => sum + x.completed, 0) === REQUESTS && w;
      }, { what: 'workers lines adding up to every request' });
      for (const w of workers) {
        assert.equal(w.failed, 0);
        assert.equal(w.inFlight, 0);
        assert.equal(readlinkSync(`/proc/${w.pid}/exe`), RUNTIMES[kind].path);
      }
      await strategy.stop();
      assert.deepEqual(groupMembers(strategy.pid), []);
    });
  }

  test(`reuse-port: ${kind} workers answer 500 with the error when the command cannot start`, { skip }, async () => {
    // One worker is enough to fail to start a command (a worker less to boot).
    const strategy = await bootOn(kind, { command: 'nosuchcmd-spawnbench', args: [], poolSize: 1 });
    const result = await hammer({ port: strategy.port, requests: 4, connections: 2, expected: null });
    assert.deepEqual(result.statuses, { 500: 4 });
    assert.match(result.bodies[500], /spawn nosuchcmd-spawnbench ENOENT/);
    await waitFor(() => strategy.workers().reduce((sum, w) => sum + w.failed, 0) === 4, { what: 'four failed requests counted' });
    await strategy.stop();
  });
}

for (const kind of ['node', 'bun']) {
  test(`reuse-port: a killed ${kind} worker is replaced in its slot, on the same port`, { skip: kind !== 'node' && missingRuntime(kind) }, async () => {
    const strategy = await bootOn(kind);
    await hammer({ port: strategy.port, requests: 20, connections: 4, expected: WORKLOADS.echo.expected });
    const victim = await waitFor(() => strategy.workers().find((w) => w.id === 0), { what: 'worker 0' });
    process.kill(victim.pid, 'SIGKILL');
    const slot = await waitFor(() => strategy.workers().find((w) => w.id === 0 && w.pid !== victim.pid), { what: 'a new worker 0' });
    assert.equal(slot.restarts, 1);
    if (kind === 'node') {
      // One shared listening socket: with the other worker stopped, the replacement takes every connection.
      const other = strategy.workers().find((w) => w.id === 1).pid;
      process.kill(other, 'SIGSTOP');
      const result = await hammer({ port: strategy.port, requests: 20, connections: 2, expected: WORKLOADS.echo.expected });
      process.kill(other, 'SIGCONT');
      assert.equal(result.ok, 20, JSON.stringify(result));
    } else {
      // A socket per worker, connections spread by a hash of their addresses: once the replacement
      // listens, a batch over 16 connections reaches it (none with odds 2^-16). It is in the table
      // before it listens (a busy machine starts bun slowly), so batches go on until it has served,
      // each one checked whole.
      await waitFor(async () => {
        const result = await hammer({ port: strategy.port, requests: 48, connections: 16, expected: WORKLOADS.echo.expected });
        assert.equal(result.ok, 48, JSON.stringify(result));
        return strategy.workers().find((w) => w.id === 0 && w.pid === slot.pid && w.completed > 0);
      }, { what: 'the new worker 0 to serve', timeoutMs: 30_000, intervalMs: 200 });
    }
    await strategy.stop();
    assert.deepEqual(groupMembers(strategy.pid), []);
  });
}

test('reuse-port: a worker that stops answering the probe is killed and replaced', async () => {
  const strategy = await bootOn('node');
  const victim = await waitFor(() => strategy.workers().find((w) => w.id === 1), { what: 'worker 1' });
  process.kill(victim.pid, 'SIGSTOP'); // alive, but its event loop answers nothing
  const slot = await waitFor(() => strategy.workers().find((w) => w.id === 1 && w.pid !== victim.pid), { what: 'a new worker 1', timeoutMs: 15_000 });
  assert.equal(slot.restarts, 1);
  assert.match(strategy.stderrTail(), new RegExp(`worker 1 \\(pid ${victim.pid}\\) did not answer the probe`));
  await strategy.stop();
  assert.deepEqual(groupMembers(strategy.pid), []);
});

test('reuse-port: SIGTERM to the main process alone ends every process it started', { skip: missingRuntime('bun') }, async () => {
  const strategy = await bootOn('bun');
  process.kill(strategy.pid, 'SIGTERM');
  const { code } = await strategy.exited;
  assert.equal(code, 0);
  await waitFor(() => groupMembers(strategy.pid).length === 0, { what: 'the workers to exit' });
});

test('reuse-port: when stdin closes the strategy and its workers exit', async () => {
  const strategy = await bootOn('node');
  strategy.child.stdin.end();
  await strategy.exited;
  await waitFor(() => groupMembers(strategy.pid).length === 0, { what: 'the workers to exit' });
});

// Node workers answer an output that comes in one read in one write with its length;
// a longer one streams (chunked) from its second read on; an empty one has length 0.
for (const kind of ['node', 'node26']) {
  const skip = kind === 'node26' && missingRuntime('node26');
  test(`reuse-port: ${kind} workers answer a one-read output with its length, stream a longer one`, { skip }, async () => {
    const runtime = kind === 'node' ? NODE : resolveRuntime(runtimePath('node26'));
    const head = async (config, expected) => {
      // Node workers are cluster workers of the main's own Node: the main runs on that Node.
      // One worker answers the one request: a worker less to boot for each of the three.
      const strategy = await boot('reuse-port', { ...workerForkConfig(runtime, runtime), workerRuntimeKind: 'node', poolSize: 1, ...config }, { command: runtime.path });
      started.push(strategy);
      const res = await new Promise((resolve, reject) => http.get({ host: '127.0.0.1', port: strategy.port }, resolve).on('error', reject));
      const chunks = [];
      for await (const c of res) chunks.push(c);
      assert.equal(res.statusCode, 200);
      assert.ok(Buffer.concat(chunks).equals(expected), 'body differs');
      await strategy.stop();
      return res.headers;
    };
    const echo = await head({ workload: 'echo' }, WORKLOADS.echo.expected);
    assert.equal(echo['content-length'], String(WORKLOADS.echo.expected.length));
    assert.equal(echo['transfer-encoding'], undefined);
    const large = await head({ workload: 'large' }, WORKLOADS.large.expected);
    assert.equal(large['transfer-encoding'], 'chunked');
    const empty = await head({ command: 'true', args: [] }, Buffer.alloc(0));
    assert.equal(empty['content-length'], '0');
  });
}
