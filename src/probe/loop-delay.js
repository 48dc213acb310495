/**
 * Event-loop delay per interval from one `monitorEventLoopDelay`, reset at each
 * take, without losing the blocks a reset would hide.
 *
 * Why one monitor: its histogram is ~440 KB and `reset()` writes all of it, so
 * each monitor in use keeps 0.44 MB of the host resident, and every resident MB
 * of a server makes each of its forks slower (~30 µs per MB at ~0.8 ms per
 * spawn, `npm run bench:probe-overhead` on this project's machine): two monitors
 * taking turns cost a spawn-heavy server ~1.5% of its spawn time more than one.
 *
 * What a reset hides, and how it is recovered:
 * - `reset()` also forgets when the monitor last fired (Node 20 src/histogram:
 *   prev_ = 0), so the first span after it is not recorded. A timer started with
 *   the monitor and due at its first fire measures that span instead: libuv runs
 *   timers due at the same millisecond in the order they were started, so it
 *   runs right after that fire, late by what blocked the loop in between. A gap
 *   over PUNCTUAL_MS is added to the interval as one more sample.
 * - The span in progress at the reset is dropped too. A block in it that ended
 *   after the take was due made the take late (this module knows when it was
 *   due): then, unless the monitor already holds a span that long, the reset
 *   waits one resolution, until the monitor has fired and recorded the block.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';

/**
 * 10 ms: the coarsest resolution that still catches the blocks worth reporting
 * (Clinic Doctor flags a median ≥ 10 ms). Its 100 wake-ups a second are most of
 * the probe's idle cost (bench/probe-overhead.js prints it next to the probe's).
 * Every sample includes the resolution, so it is subtracted.
 */
export const LOOP_DELAY_RESOLUTION_MS = 10;

/**
 * 2 ms: idle, a timer due with the monitor's fire runs 0.5 ms late at the median
 * and 1.7 ms at most (measured, 160 takes). Lateness beyond that is a block.
 */
const PUNCTUAL_MS = 2;

/** A take still held up after this many waits resets anyway: the report is due. */
const MAX_WAITS = 3;

const NS_PER_MS = 1e6;

/**
 * Starts the monitor.
 * @param {{ intervalMs: number }} options how often `take` is called (to tell when a take is late)
 * @returns {{ take: (done: (loopDelay: object|null) => void) => void, stop: () => void }} `take`
 *   calls `done` with the interval's `{ count, p50Ms, p99Ms, maxMs, percentiles }` (null without
 *   samples): at once, or a few resolutions later when the take was late; a take while one waits
 *   is ignored
 */
export function startLoopDelay({ intervalMs }) {
  const monitor = monitorEventLoopDelay({ resolution: LOOP_DELAY_RESOLUTION_MS });
  let restartedAt = 0;
  let gapMs = null;
  let gapTimer = null;
  let waitTimer = null;
  let lastTakeAt = null;

  const restart = () => {
    clearTimeout(gapTimer); // still pending only if the loop was held since the last restart
    monitor.disable();
    monitor.reset();
    monitor.enable();
    restartedAt = performance.now();
    gapMs = null;
    // Started after enable(): due at the same millisecond as the monitor's first fire, it runs after it.
    gapTimer = setTimeout(() => {
      gapTimer = null;
      gapMs = Math.max(0, performance.now() - restartedAt - LOOP_DELAY_RESOLUTION_MS);
    }, LOOP_DELAY_RESOLUTION_MS).unref();
  };
  restart();

  // A reset is safe when nothing held this timer up, or when the monitor has
  // already recorded a span at least as long as the hold-up (a server that blocks
  // all the time: its blocks are in the figures, and waiting would only delay them).
  const settled = (lateMs) => lateMs <= PUNCTUAL_MS || Number(monitor.max) / NS_PER_MS >= lateMs;

  const readAndRestart = () => {
    const loopDelay = readLoopDelay(monitor, gapMs !== null && gapMs > PUNCTUAL_MS ? gapMs : null);
    restart();
    return loopDelay;
  };

  return {
    take(done) {
      if (waitTimer) return;
      const now = performance.now();
      const lateMs = lastTakeAt === null ? 0 : now - lastTakeAt - intervalMs;
      lastTakeAt = now;
      if (settled(lateMs)) {
        done(readAndRestart());
        return;
      }
      let waits = 0;
      const wait = () => {
        const dueAt = performance.now() + LOOP_DELAY_RESOLUTION_MS;
        waitTimer = setTimeout(() => {
          waitTimer = null;
          waits += 1;
          if (!settled(performance.now() - dueAt) && waits < MAX_WAITS) wait();
          else done(readAndRestart());
        }, LOOP_DELAY_RESOLUTION_MS).unref();
      };
      wait();
    },
    stop() {
      clearTimeout(gapTimer);
      clearTimeout(waitTimer);
      waitTimer = null;
      monitor.disable();
    },
  };
}

/**
 * The percentiles each interval lists, besides the max. Read one by one: the
 * histogram's own `percentiles` map costs ~64 µs to build cold (as the probe runs
 * it, four times a second) against ~7 µs a percentile.
 */
const LISTED_PERCENTILES = [50, 75, 90, 99];

/**
 * The interval's loop delay in ms, resolution subtracted, with one extra sample
 * (the span the monitor could not see after its reset) merged in when given.
 * The compact percentile list lets spawnbench merge intervals into run-wide
 * percentiles without shipping every sample.
 * @param {{ count: number, max: number, percentile: (p: number) => number }} histogram
 *   in ns, as monitorEventLoopDelay and createHistogram give it (Bun: BigInts)
 * @param {number|null} extraMs one more sample in ms, already without the resolution
 * @returns {{ count: number, p50Ms: number, p99Ms: number, maxMs: number, percentiles: number[][] } | null}
 *   `percentiles`: `[pct, ms]` pairs ascending, ending with `[100, max]`
 */
export function readLoopDelay(histogram, extraMs = null) {
  const count = Number(histogram.count);
  if (count === 0 && extraMs === null) return null;
  const ms = (ns) => Math.max(0, Number(ns) / NS_PER_MS - LOOP_DELAY_RESOLUTION_MS);
  const listed = [];
  if (count > 0) {
    for (const pct of LISTED_PERCENTILES) listed.push([pct, ms(histogram.percentile(pct))]);
    listed.push([100, ms(histogram.max)]);
  }
  const at = (pct) => listed.find(([listedPct]) => listedPct === pct)[1];
  if (extraMs === null) {
    return {
      count,
      p50Ms: round(at(50)),
      p99Ms: round(at(99)),
      maxMs: round(at(100)),
      percentiles: listed.map(([pct, value]) => [pct, round(value)]),
    };
  }
  // The j-th smallest sample (1-based): HdrHistogram's percentile(p) is the value
  // whose cumulative count reaches round(p% × count).
  const nth = (j) => ms(histogram.percentile((100 * j) / count));
  const merged = (pct) => {
    const rank = Math.max(1, Math.floor((pct / 100) * (count + 1) + 0.5));
    if (rank <= count && extraMs >= nth(rank)) return nth(rank);
    if (rank === 1 || extraMs >= nth(rank - 1)) return extraMs;
    return nth(rank - 1);
  };
  return {
    count: count + 1,
    p50Ms: round(merged(50)),
    p99Ms: round(merged(99)),
    maxMs: round(count > 0 ? Math.max(at(100), extraMs) : extraMs),
    percentiles: mergeIntoList(listed, count, extraMs).map(([pct, value]) => [pct, round(value)]),
  };
}

/**
 * Adds one sample to a percentile list of `count` samples: every entry's share is
 * recounted over count + 1, and the sample gets an entry of its own at its rank.
 * @param {number[][]} listed `[pct, ms]` pairs, ascending
 * @param {number} count samples behind the list
 * @param {number} extraMs
 * @returns {number[][]}
 */
function mergeIntoList(listed, count, extraMs) {
  let atOrBelow = 0;
  const entries = listed.map(([pct, value]) => {
    const samples = (pct / 100) * count;
    if (value <= extraMs) atOrBelow = samples;
    return [(100 * (samples + (value >= extraMs ? 1 : 0))) / (count + 1), value];
  });
  entries.push([(100 * (atOrBelow + 1)) / (count + 1), extraMs]);
  return entries.sort((a, b) => a[1] - b[1] || a[0] - b[0]);
}

/** Three decimals (µs) are all a ms figure needs, and keep the report line short. */
function round(value) {
  return Math.round(value * 1000) / 1000;
}
