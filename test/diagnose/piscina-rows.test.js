// Shares the machine with other test files: diagnose sees both threads of a piscina pool (default
// options: idle threads wait in Atomics.wait), each with its own CPU and busy figure, under an open
// loop at a low rate; it checks rows and figures, not a verdict, so crowded cores change nothing it
// asserts. The saturated pool's verdict, which reads the whole machine, is in thread-pools.test.js
// (run alone). The server's process group is proven gone afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseThreads } from './helpers.js';

/** For the open loop at a low rate, which checks rows and figures, not a verdict: 1 s measured. */
const LIGHT = ['--duration', '1s', '--warmup', '300ms', '--json'];

test('piscina, default options: both threads seen, each with its own CPU and a busy figure; capacity within the CPU bound', async (t) => {
  // An open loop at a low rate: the rows and figures of each thread are checked, not a verdict (an
  // idle piscina thread waiting in Atomics.wait must be a row all the same).
  const { result, threads } = await diagnoseThreads(t, 'piscina-sha', LIGHT, '--rate', '20');
  assert.equal(threads.length, 2, 'both piscina threads are rows');
  // piscina hands a task to its first idle thread, so under a crowded machine one may get little: each has
  // its own CPU figure, and the two together did the work.
  assert.ok(threads.some((thread) => thread.summary.cpuPct > 0), 'the threads used CPU');
  for (const thread of threads) {
    assert.ok(Number.isFinite(thread.summary.cpuPct) && thread.summary.cpuPct >= 0, `thread CPU ${thread.summary.cpuPct}`);
    assert.ok(Number.isFinite(thread.summary.busy), 'a busy figure');
    assert.ok(['elu', 'cpu'].includes(thread.summary.busyFrom));
  }
  const c = result.diagnosis.capacity;
  assert.equal(c.workers, 2);
  assert.equal(c.workerKind, 'thread');
  assert.ok(Number.isFinite(c.bounds.cpu), 'the CPU budget bounds the estimate');
  assert.ok(c.capacityRps <= c.bounds.cpu, `capacity ${c.capacityRps} ≤ CPU bound ${c.bounds.cpu}`);
  const verdict = result.diagnosis.verdict;
  if (verdict.id === 'healthy') assert.ok(verdict.figures.capacityRps === null || verdict.figures.capacityRps <= c.bounds.cpu);
});
