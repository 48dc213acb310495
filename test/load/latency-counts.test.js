/**
 * Latency recording without a floating-point logarithm per value (issue 28):
 * LatencyCounts' integer bucket index, folded into the HDR histogram once per
 * report, must give the same histogram as hdr-histogram-js's recordValue on the
 * same values: every index, the encoded histogram, percentiles, mean, min, max.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  createHistogram, encodeHistogram, fullSummary, meanOf, shortSummary, recordMs, LatencyCounts, HISTOGRAM_MAX_US,
} from '../../src/load/histogram.js';
import { IntervalStats } from '../../src/load/counters.js';
import { seededRandom as random } from '../../strategies/lib/random.js';

/** Latencies in ms: sub-µs, loopback-fast, spawn-slow, long tails, huge, and every bucket edge. */
function latencies(seed, n) {
  const rnd = random(seed);
  const out = [];
  for (let i = 0; i < n; i++) {
    const kind = i % 4;
    if (kind === 0) out.push(rnd() * 0.05); // 0–50 µs, some below 1 µs
    else if (kind === 1) out.push(0.1 + rnd() * 3); // loopback
    else if (kind === 2) out.push(Math.exp(rnd() * 12)); // 1 ms … 160 s, log-spread
    else out.push(rnd() * 5_000_000); // up to the clamp and beyond
  }
  for (let k = 0; k < 32; k++) for (const d of [-1, 0, 1]) out.push((2 ** k + d) / 1000);
  out.push(HISTOGRAM_MAX_US / 1000, HISTOGRAM_MAX_US / 1000 + 1, 0, -1);
  return out;
}

function assertSame(reference, folded, what) {
  assert.equal(folded.totalCount, reference.totalCount, `${what}: total`);
  assert.deepEqual(fullSummary(folded), fullSummary(reference), `${what}: percentiles, mean, min, max`);
  assert.deepEqual(shortSummary(folded), shortSummary(reference), `${what}: short summary`);
  assert.equal(encodeHistogram(folded), encodeHistogram(reference), `${what}: encoded histogram`);
}

test('the integer index is the HDR histogram\'s own, at every value that decides a bucket', () => {
  const h = createHistogram();
  for (let k = 0; k < 32; k++) {
    for (const v of [2 ** k - 1, 2 ** k, 2 ** k + 1, 3 * 2 ** k]) {
      if (v < 1 || v > HISTOGRAM_MAX_US) continue;
      assert.equal(LatencyCounts.indexOf(v), h.countsArrayIndex(v), `index of ${v} µs`);
    }
  }
  const rnd = random(7);
  for (let i = 0; i < 20_000; i++) {
    const v = 1 + Math.floor(rnd() * HISTOGRAM_MAX_US);
    assert.equal(LatencyCounts.indexOf(v), h.countsArrayIndex(v), `index of ${v} µs`);
  }
});

for (const seed of [1, 42, 2026]) {
  test(`seed ${seed}: folded counts equal recordValue on the same values`, () => {
    const values = latencies(seed, 50_000);
    const reference = createHistogram();
    for (const ms of values) recordMs(reference, ms);
    const counts = new LatencyCounts();
    const folded = createHistogram();
    // Folded in several reports, as a thread does once a second.
    values.forEach((ms, i) => {
      counts.recordMs(ms);
      if (i % 9_999 === 0) counts.foldInto(folded);
    });
    counts.foldInto(folded);
    assertSame(reference, folded, `seed ${seed}`);
    assert.ok(counts.counts.every((c) => c === 0), 'a fold leaves counts behind');
  });
}

test('a generator thread\'s report (IntervalStats.take) equals recordValue, interval after interval', () => {
  const stats = new IntervalStats();
  const values = latencies(99, 30_000);
  for (const [start, end] of [[0, 10_000], [10_000, 10_000], [10_000, values.length]]) {
    const reference = createHistogram();
    for (const ms of values.slice(start, end)) {
      recordMs(reference, ms);
      stats.response(200, ms, false);
    }
    const report = stats.take();
    assert.equal(report.requests, end - start);
    assert.equal(report.histogram, end > start ? encodeHistogram(reference) : null, `interval ${start}–${end}`);
  }
});

test('meanOf() is the HDR histogram\'s own mean, bucket for bucket (empty, one value, a spread with a long tail)', () => {
  const empty = createHistogram();
  assert.equal(meanOf(empty), empty.mean);
  let seed = 7;
  const next = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
  for (const n of [1, 10, 1000, 20000]) {
    const histogram = createHistogram();
    for (let i = 0; i < n; i++) recordMs(histogram, next() < 0.01 ? next() * 60_000 : next() * next() * 50);
    assert.equal(meanOf(histogram), histogram.mean, `${n} values`);
  }
});
