/**
 * The per-interval measurements of one thread: event-loop delay and utilization,
 * GC pause time and memory. Everything here is cheap enough to run four times a
 * second inside the server being measured.
 */
import { monitorEventLoopDelay, performance, PerformanceObserver } from 'node:perf_hooks';
import v8 from 'node:v8';

/**
 * 10 ms: the coarsest resolution that still catches the blocks worth reporting
 * (Clinic Doctor flags a median ≥ 10 ms). Its 100 wake-ups a second are most of
 * the probe's cost: measured on this project's machine, an idle Node process
 * spends 0.43% of a core on them (0.22% at 20 ms), the whole probe ~0.65%
 * (bench/probe-overhead.js). Every sample includes the resolution, so it is subtracted.
 */
export const LOOP_DELAY_RESOLUTION_MS = 10;

const NS_PER_MS = 1e6;

/**
 * Starts measuring the current thread.
 * @param {{ withRss?: boolean }} [options] `withRss`: report the process RSS (main thread only:
 *   RSS belongs to the process, not to a thread)
 * @returns {{ take: () => object, stop: () => void }} `take()` returns the figures since the
 *   previous call: `{ intervalMs, elu, loopDelay, gcMs, rssBytes, heapUsedBytes }`
 */
export function startMeter({ withRss = true } = {}) {
  const delay = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  delay.enable();
  let gcMs = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  let previousElu = performance.eventLoopUtilization();
  let previousAt = performance.now();

  return {
    take() {
      const now = performance.now();
      const elu = performance.eventLoopUtilization();
      const report = {
        intervalMs: now - previousAt,
        elu: performance.eventLoopUtilization(elu, previousElu).utilization,
        loopDelay: readLoopDelay(delay),
        gcMs,
        rssBytes: withRss ? process.memoryUsage.rss() : null,
        heapUsedBytes: v8.getHeapStatistics().used_heap_size,
      };
      delay.reset();
      gcMs = 0;
      previousElu = elu;
      previousAt = now;
      return report;
    },
    stop() {
      delay.disable();
      gcObserver.disconnect();
    },
  };
}

/**
 * Reads the interval's loop-delay histogram in ms with the resolution subtracted.
 * The compact percentile list lets spawnbench merge intervals into run-wide
 * percentiles without shipping every sample.
 * @param {import('node:perf_hooks').IntervalHistogram} histogram
 * @returns {{ count: number, p50Ms: number, p99Ms: number, maxMs: number, percentiles: number[][] } | null}
 */
function readLoopDelay(histogram) {
  if (histogram.count === 0) return null;
  const ms = (ns) => Math.max(0, ns / NS_PER_MS - LOOP_DELAY_RESOLUTION_MS);
  const percentiles = [];
  for (const [pct, ns] of histogram.percentiles) percentiles.push([pct, round(ms(ns))]);
  return {
    count: histogram.count,
    p50Ms: round(ms(histogram.percentile(50))),
    p99Ms: round(ms(histogram.percentile(99))),
    maxMs: round(ms(histogram.max)),
    percentiles,
  };
}

/** Three decimals (µs) are all a ms figure needs, and keep the report line short. */
function round(value) {
  return Math.round(value * 1000) / 1000;
}
