// The other threads' readings (libuv's pool, V8's) restart with the measured phase: a reading
// that reached back into the boot and the warm-up read a saturated pool thread 81% busy over a
// 1.5 s diagnose, below the pool-full threshold. After restartOtherThreads() the samples carry
// no other-thread figures until the first reading, OTHER_THREADS_FIRST_MS later, which covers
// only the time since the restart; the readings after it come every OTHER_THREADS_EVERY_MS again.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { createProcSampler } from '../../src/sample/proc-sampler.js';
import { OTHER_THREADS_FIRST_MS, OTHER_THREADS_EVERY_MS } from '../../src/base/thresholds.js';

test('the other threads are read again from the restart: none carried over, the first reading OTHER_THREADS_FIRST_MS later', { skip: process.platform !== 'linux' && 'Linux /proc only' }, async () => {
  const sampler = createProcSampler({ rootPid: process.pid });
  const query = { isTracked: () => false, forkingThreads: () => undefined, threads: [], pids: [process.pid] };
  sampler.read(query);
  await sleep(OTHER_THREADS_EVERY_MS + 50);
  const before = sampler.read(query).otherThreads.get(process.pid);
  assert.ok(before && before.cpuPct !== null, `a reading before the restart: ${JSON.stringify(before)}`);

  sampler.restartOtherThreads();
  assert.equal(sampler.read(query).otherThreads.get(process.pid), undefined, 'the reading from before the restart is not carried into the phase');
  await sleep(OTHER_THREADS_FIRST_MS + 50);
  const first = sampler.read(query).otherThreads.get(process.pid);
  assert.ok(first && first.cpuPct !== null, `the first reading after the restart: ${JSON.stringify(first)}`);
  // Then the usual interval: a read soon after repeats that reading.
  assert.equal(sampler.read(query).otherThreads.get(process.pid), first);
});
