import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { openProbeChannel } from '../../src/probe/channel.js';
import { startSampler } from '../../src/sample/index.js';
import { threadBusy } from '../../src/sample/thread-busy.js';
import { ELU_CPU_DISAGREE } from '../../src/base/thresholds.js';
import http from 'node:http';
import { stopGroup } from '../probe/helpers/servers.js';
import { startFixtureServer } from '../helpers/harness.js';

test('threadBusy: a thread\'s ELU unless its time on a CPU, waiting for one and in spawn leave ELU_CPU_DISAGREE unexplained', () => {
  // Waiting in Atomics.wait: ELU 1, almost no CPU.
  assert.deepEqual(threadBusy({ role: 'thread', elu: 1, loopCpuPct: 3, waitPct: 1 }), { busy: 0.04, busyFrom: 'cpu' });
  // Working on a crowded machine: ELU counts the run-queue wait, and so does the CPU figure.
  assert.deepEqual(threadBusy({ role: 'thread', elu: 1, loopCpuPct: 45, waitPct: 50 }), { busy: 1, busyFrom: 'elu' });
  // Blocked in spawn is busy too.
  assert.deepEqual(threadBusy({ role: 'thread', elu: 0.9, loopCpuPct: 20, waitPct: 0, blockedFraction: 0.6 }), { busy: 0.9, busyFrom: 'elu' });
  // The edge: exactly ELU_CPU_DISAGREE unexplained goes to CPU, a hair less stays ELU.
  assert.equal(threadBusy({ role: 'thread', elu: 0.7, loopCpuPct: (0.7 - ELU_CPU_DISAGREE) * 100 }).busyFrom, 'cpu');
  assert.equal(threadBusy({ role: 'thread', elu: 0.7, loopCpuPct: (0.71 - ELU_CPU_DISAGREE) * 100 }).busyFrom, 'elu');
  // Without schedstat, the thread's own CPU from its stat.
  assert.deepEqual(threadBusy({ role: 'thread', elu: 1, cpuPct: 10 }), { busy: 0.1, busyFrom: 'cpu' });
  // No ELU at all: CPU; nothing measured: null.
  assert.deepEqual(threadBusy({ role: 'thread', loopCpuPct: 30, waitPct: 5 }), { busy: 0.35, busyFrom: 'cpu' });
  assert.deepEqual(threadBusy({ role: 'thread' }), { busy: null, busyFrom: null });
  // A main thread that waits synchronously is blocked, not idle: its ELU stands.
  assert.deepEqual(threadBusy({ role: 'main', elu: 1, loopCpuPct: 2, waitPct: 0 }), { busy: 1, busyFrom: 'elu' });
  assert.deepEqual(threadBusy({ role: 'worker', loopCpuPct: 50 }), { busy: null, busyFrom: null });
});

test('a thread waiting in Atomics.wait is seen, reads busy to ELU, and is not counted busy; a spinning thread is', async (t) => {
  const channel = await openProbeChannel({ intervalMs: 100 });
  const child = spawn(process.execPath, [new URL('./fixtures/waiting-threads.js', import.meta.url).pathname], {
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...channel.env },
  });
  try {
    child.stdout.setEncoding('utf8');
    const [line] = await Promise.race([
      once(child.stdout, 'data'),
      once(child, 'exit').then(() => { throw new Error('the fixture exited before its threads ran'); }),
    ]);
    const { threadIds: [fileId, evalId, spinId] } = JSON.parse(line);
    const sampler = startSampler({ rootPid: child.pid, channel, intervalMs: 100 });
    // The threads are seen once their parent has reported each (every 100 ms); then measure afresh.
    await new Promise((resolve) => {
      sampler.on('sample', (s) => {
        if (s.processes.filter((p) => p.role === 'thread' && Number.isFinite(p.cpuPct)).length === 3) resolve();
      });
    });
    sampler.reset();
    // Ten readings at 100 ms: each figure asserted is an average of them (the spinning thread keeps a core busy meanwhile).
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const summary = await sampler.stop();
    const thread = (id) => summary.processes.find((p) => p.role === 'thread' && p.threadId === id)?.summary;
    for (const [name, id] of [['file', fileId], ['eval', evalId], ['spin', spinId]]) {
      const s = thread(id);
      t.diagnostic(`${name}: ELU ${s?.elu?.toFixed(2)}, CPU ${s?.cpuPct?.toFixed(0)}%, wait ${s?.waitPct?.toFixed(0)}%, busy ${s?.busy?.toFixed(2)} (${s?.busyFrom})`);
      assert.ok(s, `thread ${name} (${id}) is in the summary`);
    }
    for (const id of [fileId, evalId]) {
      const s = thread(id);
      assert.ok(s.elu >= 0.8, `ELU reads a thread in Atomics.wait as busy (${s.elu})`);
      assert.equal(s.busyFrom, 'cpu');
      assert.ok(s.busy < 0.2, `not counted busy (${s.busy})`);
    }
    const spin = thread(spinId);
    assert.equal(spin.busyFrom, 'elu');
    assert.ok(spin.busy >= 0.8, `the spinning thread is busy (${spin.busy})`);
  } finally {
    await stopGroup(child);
    await channel.close();
  }
});

test('libuv\'s pool at work (crypto.pbkdf2): the main process\'s other threads are counted, with their CPU', async (t) => {
  // 20,000 iterations (~17 ms a request on the pool): the pool's work outweighs the main
  // thread's HTTP handling by far, however little CPU the machine leaves the process.
  process.env.ITERATIONS = '20000';
  let server;
  try {
    server = await startFixtureServer('pbkdf2');
  } finally {
    delete process.env.ITERATIONS;
  }
  // One request in flight, then a pause as long: the pool's ~17 ms of hashing against the main
  // thread's ~1 ms of HTTP is the share asserted, and needs no more (8 in flight filled both cores
  // for the same share; back to back, one core).
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let loading = true;
  const worker = async () => {
    while (loading) {
      await new Promise((resolve, reject) => {
        http.get(server.url, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
      });
      await new Promise((resolve) => setTimeout(resolve, 17));
    }
  };
  try {
    const load = Array.from({ length: 1 }, worker);
    const sampler = startSampler({ rootPid: server.child.pid, intervalMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    sampler.reset();
    // Other threads are read once a second: 2.2 s holds at least two readings after the reset.
    await new Promise((resolve) => setTimeout(resolve, 2200));
    const summary = await sampler.stop();
    loading = false;
    await Promise.all(load);
    const main = summary.processes.find((p) => p.role === 'main').summary;
    const other = main.otherThreads;
    t.diagnostic(`${JSON.stringify(other)}, process CPU ${main.cpuPct}%, main thread on a CPU ${main.loopCpuPct}%`);
    // libuv's 4 pool threads and V8's at least; a request always in flight keeps the pool hashing, so
    // most of the process's CPU is theirs, not the main thread's (a share: the machine's load
    // sets how much CPU there is, not who in the process gets it).
    assert.ok(other.count >= 4, `${other.count} other threads`);
    assert.ok(other.cpuPct > main.loopCpuPct, `the pool's ${other.cpuPct}% against the main thread's ${main.loopCpuPct}%`);
    assert.ok(other.maxCpuPct > 0 && other.maxCpuPct <= other.cpuPct);
  } finally {
    loading = false;
    agent.destroy();
    await server.stop();
  }
  assert.ok(server.child.exitCode !== null || server.child.signalCode !== null, 'the server is gone');
});
