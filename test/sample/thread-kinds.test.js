// The kinds of a Node process's other threads: by name where the runtime names them
// (Node 26), by when they started where it does not (Node 20 calls every thread `node`),
// and live: a pbkdf2 server's pool threads are seen as libuv's threadpool, with their CPU.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { threadKinds, kindByName, threadpoolSize, mapsLibvips } from '../../src/sample/thread-kinds.js';
import { startSampler } from '../../src/sample/index.js';
import { startFixtureServer } from '../helpers/harness.js';

/** Threads as /proc showed them on Node 20.20.2 (ESM entry: the pool already started) after a pbkdf2. */
const node20 = (pool = 4, extra = 0) => Array.from({ length: 6 + pool + extra }, (_, i) => ({ tid: 101 + i, comm: 'node', startTime: i < 6 ? 500 : i < 6 + pool ? 520 : 900 }));

const kindsOf = (map) => [...map.values()].reduce((n, k) => ({ ...n, [k]: (n[k] ?? 0) + 1 }), {});

test('Node 20, every thread unnamed: V8 platform and Node\'s signal thread first, then the pool, then an addon\'s', () => {
  assert.deepEqual(kindsOf(threadKinds(node20(), { processComm: 'node' })), { v8: 5, node: 1, threadpool: 4 });
  assert.deepEqual(kindsOf(threadKinds(node20(1), { processComm: 'node', poolSize: 1 })), { v8: 5, node: 1, threadpool: 1 });
  assert.deepEqual(kindsOf(threadKinds(node20(4, 2), { processComm: 'node', poolSize: 4 })), { v8: 5, node: 1, threadpool: 4, native: 2 });
  // With libvips loaded (sharp), those are libvips's.
  assert.deepEqual(kindsOf(threadKinds(node20(4, 2), { processComm: 'node', poolSize: 4, libvips: true })), { v8: 5, node: 1, threadpool: 4, libvips: 2 });
  assert.equal(mapsLibvips('7f00-7f01 r-xp 0 08:01 12 /app/node_modules/@img/sharp-libvips-linux-x64/lib/libvips-cpp.so.42\n'), true);
  assert.equal(mapsLibvips('7f00-7f01 r-xp 0 08:01 12 /usr/lib/x86_64-linux-gnu/libc.so.6\n'), false);
  // Before the pool starts (a CommonJS server that has not used it yet): no thread is taken for it.
  const beforePool = threadKinds(node20(0), { processComm: 'node' });
  assert.deepEqual(kindsOf(beforePool), { v8: 5, node: 1 });
  // Started in the same clock tick: the tid decides, and the pool's tids come after V8's.
  const sameTick = node20().map((t) => ({ ...t, startTime: 500 }));
  assert.equal(threadKinds(sameTick, { processComm: 'node' }).get(110), 'threadpool');
  assert.equal(threadKinds(sameTick, { processComm: 'node' }).get(102), 'v8');
});

test('Node 22 names some: the pool and the scheduler by name, the unnamed V8 workers and signal thread by order', () => {
  // As /proc showed them on Node 22.23.3 (libuv 1.51.0) after a pbkdf2.
  const comms = ['DelayedTaskSche', 'node', 'node', 'node', 'node', 'node', 'libuv-worker', 'libuv-worker', 'libuv-worker', 'libuv-worker'];
  const threads = comms.map((comm, i) => ({ tid: 301 + i, comm, startTime: 700 + i }));
  const kinds = threadKinds(threads, { processComm: 'node' });
  assert.deepEqual(threads.map((t) => kinds.get(t.tid)), ['v8', 'v8', 'v8', 'v8', 'v8', 'node', 'threadpool', 'threadpool', 'threadpool', 'threadpool']);
});

test('Node 26 names its threads: the names decide, whatever the order', () => {
  const threads = [
    ['DelayedTaskSche', 'v8'], ['node-V8Worker', 'v8'], ['SignalInspector', 'node'], ['libuv-worker', 'threadpool'], ['vips-worker', 'libvips'], ['my-addon', 'native'],
  ].map(([comm], i) => ({ tid: 200 - i, comm, startTime: 1000 - i }));
  const kinds = threadKinds(threads, { processComm: 'node-MainThread' });
  assert.deepEqual([...threads].map((t) => kinds.get(t.tid)), ['v8', 'v8', 'node', 'threadpool', 'libvips', 'native']);
  // Node 24.21.0 drops the prefix: MainThread, V8Worker.
  assert.equal(kindByName('V8Worker', 'MainThread'), 'v8');
  assert.equal(kindByName('libuv-worker', 'MainThread'), 'threadpool');
  assert.equal(kindByName('node', 'node'), null);
  assert.equal(kindByName('api-server', 'api-server'), null, 'a thread named as its process (process.title) says nothing');
  assert.equal(threadpoolSize(undefined), 4);
  assert.equal(threadpoolSize('1'), 1);
  assert.equal(threadpoolSize('zero'), 4);
});

test('live: a pbkdf2 server with UV_THREADPOOL_SIZE=2 shows 2 libuv threadpool threads doing its work, V8\'s beside them', async (t) => {
  process.env.ITERATIONS = '20000';
  process.env.UV_THREADPOOL_SIZE = '2';
  let server;
  try {
    server = await startFixtureServer('pbkdf2');
  } finally {
    delete process.env.ITERATIONS;
    delete process.env.UV_THREADPOOL_SIZE;
  }
  // Two clients, each pausing as long as a hash takes (~17 ms) between requests: both pool threads
  // hash about half the time; 4 back to back kept both cores busy for the same shares.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
  let loading = true;
  const client = async () => {
    while (loading) {
      await new Promise((resolve, reject) => {
        http.get(server.url, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
      });
      await new Promise((resolve) => setTimeout(resolve, 17));
    }
  };
  try {
    const load = Array.from({ length: 2 }, client);
    const sampler = startSampler({ rootPid: server.child.pid, intervalMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    sampler.reset();
    // Other threads are read once a second: 2.2 s holds at least two readings after the reset.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const summary = await sampler.stop();
    loading = false;
    await Promise.all(load);
    const other = summary.processes.find((p) => p.role === 'main').summary.otherThreads;
    t.diagnostic(JSON.stringify(other));
    assert.equal(other.poolSize, 2, 'the pool size from the server\'s environment');
    assert.equal(other.kinds.threadpool.count, 2);
    assert.ok(other.kinds.v8.count >= 1);
    // The pool does the hashing: its CPU is most of the other threads' (a share: the machine's load sets how much there is).
    assert.ok(other.kinds.threadpool.cpuPct > other.kinds.v8.cpuPct, JSON.stringify(other));
    assert.ok(other.kinds.threadpool.cpuPct >= 0.8 * other.cpuPct, JSON.stringify(other));
  } finally {
    loading = false;
    agent.destroy();
    await server.stop();
  }
  assert.ok(server.child.exitCode !== null || server.child.signalCode !== null, 'the server is gone');
});
