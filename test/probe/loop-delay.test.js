// test: run alone (it asserts on event-loop delay: another test file's processes on the
// same cores show up in it as blocks)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHistogram } from 'node:perf_hooks';
import { readLoopDelay, startLoopDelay, LOOP_DELAY_RESOLUTION_MS } from '../../src/probe/loop-delay.js';

/** A histogram in ns holding these delays (ms over the resolution), as the monitor records them. */
function histogramOf(delaysMs) {
  const histogram = createHistogram();
  for (const ms of delaysMs) histogram.record(Math.round((ms + LOOP_DELAY_RESOLUTION_MS) * 1e6));
  return histogram;
}

/** The exact percentile of a list of ms values (nearest rank, as HdrHistogram rounds it). */
function exact(values, pct) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.max(1, Math.floor((pct / 100) * sorted.length + 0.5)) - 1];
}

/** Takes the figures; the meter's timers are unref()d (they never keep a host alive), so the test keeps the loop up. */
function take(loopDelay) {
  const keepAlive = setInterval(() => {}, 1000);
  return new Promise((resolve) => {
    loopDelay.take((figures) => {
      clearInterval(keepAlive);
      resolve(figures);
    });
  });
}

const block = (ms) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

const near = (actual, expected, message) => assert.ok(Math.abs(actual - expected) <= Math.max(0.01, expected * 0.002), `${message}: ${actual} vs ${expected}`);

test('without an extra sample: count, p50, p99, max and a percentile list ending at the max', () => {
  const delays = Array.from({ length: 25 }, (_, i) => 0.1 * i);
  const figures = readLoopDelay(histogramOf(delays));
  assert.equal(figures.count, 25);
  near(figures.p50Ms, exact(delays, 50), 'p50');
  near(figures.p99Ms, exact(delays, 99), 'p99');
  near(figures.maxMs, 2.4, 'max');
  assert.deepEqual(figures.percentiles.map(([pct]) => pct), [50, 75, 90, 99, 100]);
  assert.equal(readLoopDelay(histogramOf([])), null, 'no samples, no figures');
});

test('an extra sample (a block the reset hid) is merged exactly into p50, p99, max and the list', () => {
  const cases = [
    { delays: Array.from({ length: 24 }, () => 0.3), extra: 95 }, // a block in the gap: the new max and p99
    { delays: Array.from({ length: 24 }, (_, i) => i), extra: 11.5 }, // lands in the middle
    { delays: Array.from({ length: 299 }, (_, i) => i % 50), extra: 0.2 }, // below nearly everything
    { delays: [], extra: 40 }, // the loop was blocked the whole interval
  ];
  for (const { delays, extra } of cases) {
    const all = [...delays, extra];
    const figures = readLoopDelay(histogramOf(delays), extra);
    assert.equal(figures.count, all.length);
    near(figures.p50Ms, exact(all, 50), `p50 of ${all.length}`);
    near(figures.p99Ms, exact(all, 99), `p99 of ${all.length}`);
    near(figures.maxMs, Math.max(...all), `max of ${all.length}`);
    const pcts = figures.percentiles.map(([pct]) => pct);
    const values = figures.percentiles.map(([, ms]) => ms);
    assert.deepEqual(pcts, [...pcts].sort((a, b) => a - b), 'percentiles ascend');
    assert.deepEqual(values, [...values].sort((a, b) => a - b), 'values ascend');
    assert.equal(pcts.at(-1), 100);
    near(values.at(-1), Math.max(...all), 'the list ends at the max');
    assert.ok(figures.percentiles.some(([, ms]) => Math.abs(ms - extra) < 0.01), 'the extra sample has an entry');
  }
});

test('a block right after a take, before the monitor first fires, is still reported', async () => {
  const loopDelay = startLoopDelay({ intervalMs: 200 });
  try {
    await new Promise((resolve) => setTimeout(resolve, 60));
    const first = await take(loopDelay);
    assert.ok(first === null || first.maxMs < 50, 'nothing blocked before');
    // The reset has just happened: block inside the span the monitor cannot see,
    // then take on time (no later than the interval after the first take).
    block(80);
    await new Promise((resolve) => setTimeout(resolve, 110));
    const second = await take(loopDelay);
    assert.ok(second.maxMs >= 60, `the 80 ms block is in the next interval: max ${second.maxMs} ms`);
  } finally {
    loopDelay.stop();
  }
});

test('a block that holds up a take is recorded before the reset, not lost', async () => {
  const loopDelay = startLoopDelay({ intervalMs: 100 });
  try {
    await new Promise((resolve) => setTimeout(resolve, 100));
    await take(loopDelay);
    await new Promise((resolve) => setTimeout(resolve, 50));
    // Block past the moment the next take is due: the take runs late.
    block(120);
    const figures = await take(loopDelay);
    assert.ok(figures.maxMs >= 60, `max ${figures.maxMs} ms`);
  } finally {
    loopDelay.stop();
  }
});
