// test: run alone (its saturated-pool verdict reads the whole machine's CPU: beside other files a pool
// 83% busy on a machine short of CPU read healthy in a fresh-clone CI run)
// Thread pools end to end: diagnose sees the threads of a hand-made pool of eval workers
// and calls a saturated pool what it is (the fixture hashes 16 × 64 KB per request on 2
// threads, THREADS unset). A piscina pool's rows, which hold on shared cores, are in
// piscina-rows.test.js. The server's process group is proven gone afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { figuresOf } from './fault.js';
import { diagnoseThreads } from './helpers.js';
import { POOL_BUSY_FRACTION } from '../../src/base/thresholds.js';

const SHORT = ['--duration', '2s', '--warmup', '500ms', '--json'];

test('a hand-made pool of eval workers, kept saturated by 30 connections: "the pool is at capacity", not healthy', async (t) => {
  // 4 MB a request: the threads' work outweighs the main thread's hand-off by far, so
  // they stay saturated even while other programs crowd the main thread off its core.
  process.env.CHUNKS = '64';
  let seen;
  try {
    seen = await diagnoseThreads(t, 'thread-pool', SHORT);
  } finally {
    delete process.env.CHUNKS;
  }
  const { result, threads } = seen;
  assert.equal(threads.length, 2, 'the eval workers are seen from their parent');
  const verdict = result.diagnosis.verdict;
  assert.equal(verdict.id, 'pool-saturated', figuresOf(result));
  assert.ok(verdict.figures.workersBusy >= POOL_BUSY_FRACTION);
  assert.match(verdict.title, verdict.figures.coresFull ? /^the pool is at capacity: 2 threads \d+% busy, \d+(\.\d+)? cores \d+%$/ : /^the pool is the limit/);
});
