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
 * 2 × the resolution: the next monitor has fired twice by then (its first fire
 * only sets its clock), unless the loop is blocked, in which case the handover waits.
 */
const HANDOVER_MS = 2 * LOOP_DELAY_RESOLUTION_MS + 1;

/** A handover still waiting after this many retries (a loop blocked for ~half a second) goes ahead anyway. */
const MAX_HANDOVER_RETRIES = 50;

/**
 * Starts measuring the current thread.
 *
 * Loop delay per interval without losing a block: `histogram.reset()` on a
 * monitorEventLoopDelay also forgets when it last fired (Node 20 src/histogram:
 * Reset sets prev_ = 0), so the span in progress at each reset is dropped, and a
 * 100 ms block that overlaps it vanished in ~40% of intervals. Instead each
 * interval gets a fresh monitor, and the outgoing one keeps running until the new
 * one has recorded a sample, so every span is seen by at least one of them (a sample in
 * the ~20 ms overlap may count in both intervals).
 *
 * @param {{ withRss?: boolean, onError?: (error: Error) => void }} [options] `withRss`: report the
 *   process RSS (main thread only: RSS belongs to the process, not to a thread); `onError`: a
 *   reading failed (it runs in a timer of its own, so it must never throw into the host)
 * @returns {{ take: (done: (figures: object) => void) => void, stop: () => void }} `take` calls
 *   `done` ~20 ms later with the figures since the previous take:
 *   `{ intervalMs, elu, loopDelay, gcMs, rssBytes, heapUsedBytes }`; a take while one is pending is ignored
 */
export function startMeter({ withRss = true, onError = () => {} } = {}) {
  // A fresh monitor per interval, not two reused in turn: reset() writes the whole
  // 440 KB histogram, so two reused monitors kept ~0.5 MB more resident (measured),
  // and every resident MB of the server makes each of its forks slower (~10 µs per
  // MB at ~620 µs of CPU per spawn on this machine). A fresh one costs ~30 µs more
  // per take, 0.01% of a core at 4 Hz.
  let delay = startDelayMonitor();
  let next = null;
  let handover = null;
  let gcMs = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  // Bun (1.4) answers eventLoopUtilization() with zeros: no figure beats a false one.
  const hasElu = !process.versions.bun;
  let previousElu = performance.eventLoopUtilization();
  let previousAt = performance.now();

  const read = () => {
    const now = performance.now();
    const elu = performance.eventLoopUtilization();
    const figures = {
      intervalMs: now - previousAt,
      elu: hasElu ? performance.eventLoopUtilization(elu, previousElu).utilization : null,
      loopDelay: readLoopDelay(delay),
      gcMs,
      rssBytes: withRss ? process.memoryUsage.rss() : null,
      heapUsedBytes: v8.getHeapStatistics().used_heap_size,
    };
    delay.disable();
    delay = next;
    next = null;
    gcMs = 0;
    previousElu = elu;
    previousAt = now;
    return figures;
  };

  return {
    take(done) {
      if (handover) return;
      next = startDelayMonitor();
      let retries = 0;
      const finish = () => {
        if (next.count === 0 && retries < MAX_HANDOVER_RETRIES) {
          retries += 1;
          handover = setTimeout(finish, LOOP_DELAY_RESOLUTION_MS).unref();
          return;
        }
        handover = null;
        let figures;
        try {
          figures = read();
        } catch (error) {
          onError(error);
          return;
        }
        done(figures);
      };
      handover = setTimeout(finish, HANDOVER_MS).unref();
    },
    stop() {
      clearTimeout(handover);
      handover = null;
      delay.disable();
      next?.disable();
      gcObserver.disconnect();
    },
  };
}

function startDelayMonitor() {
  const monitor = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  monitor.enable();
  return monitor;
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
  // Number(): Bun's histogram hands out BigInts where Node's gives numbers.
  const ms = (ns) => Math.max(0, Number(ns) / NS_PER_MS - LOOP_DELAY_RESOLUTION_MS);
  const percentiles = [];
  for (const [pct, ns] of histogram.percentiles) percentiles.push([pct, round(ms(ns))]);
  return {
    count: Number(histogram.count),
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
