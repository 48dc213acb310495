// The successes' latency kept apart from every response's (issue 36): a run of fast
// 500s and slow 200s has its gates read the 200s, and a phase with no response has
// null figures, never zeros that pass `--assert p99<1ms`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { IntervalStats } from '../../src/load/counters.js';
import { Aggregator } from '../../src/load/aggregate.js';

/** One generator thread's measured phase: `responses` as [status, latencyMs, mismatch?]. */
function measured(responses) {
  const stats = new IntervalStats();
  for (const [status, ms, mismatch = false] of responses) stats.response(status, ms, mismatch);
  const aggregator = new Aggregator(1);
  aggregator.add(0, { index: 0, phase: 'measure', intervalMs: 1000, phaseElapsedMs: 1000, cpuMs: null, final: true, eluActiveMs: 0, eluIdleMs: 1, ...stats.take() });
  return aggregator.measured();
}

test('failed responses (non-2xx, body mismatch) are left out of the successes\' latency, kept in every response\'s', () => {
  const responses = [];
  for (let i = 0; i < 900; i++) responses.push([500, 0.5]);
  for (let i = 0; i < 50; i++) responses.push([200, 40, true]);
  for (let i = 0; i < 100; i++) responses.push([200, 20]);
  const m = measured(responses);
  assert.equal(m.requests, 1050);
  assert.ok(Math.abs(m.succeededLatency.p50Ms - 20) < 0.1, `successes' p50 ${m.succeededLatency.p50Ms}`);
  assert.ok(Math.abs(m.succeededLatency.maxMs - 20) < 0.1, `successes' max ${m.succeededLatency.maxMs}`);
  assert.ok(Math.abs(m.succeededLatency.minMs - 20) < 0.1, `successes' min ${m.succeededLatency.minMs}`);
  assert.equal(m.latency.p50Ms, 0.5, 'every response\'s latency still counts the 500s');
  assert.ok(Math.abs(m.latency.maxMs - 40) < 0.1);
});

test('no success: the successes\' latency is null throughout; no response at all: so is every response\'s', () => {
  const failed = measured([[500, 1], [503, 2]]);
  assert.ok(Object.values(failed.succeededLatency).every((v) => v === null), JSON.stringify(failed.succeededLatency));
  assert.equal(failed.latency.p99Ms, 2);
  const none = measured([]);
  assert.ok(Object.values(none.latency).every((v) => v === null), JSON.stringify(none.latency));
  assert.ok(Object.values(none.succeededLatency).every((v) => v === null));
});

test('every response a success: both blocks are the same', () => {
  const m = measured([[200, 1], [204, 3], [200, 7]]);
  assert.deepEqual(m.succeededLatency, m.latency);
});
