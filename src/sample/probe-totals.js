/**
 * Folds a thread's probe reports into run-wide figures: ELU and time blocked in
 * spawn weighted by interval length, loop-delay percentiles merged from each
 * interval's compact percentile list, GC time summed.
 */
import { createHistogram } from 'node:perf_hooks';

const US_PER_MS = 1000;

/**
 * @returns {{ add: (report: object) => void, result: () => object }} `result()` returns
 *   `{ wallMs, elu, blockedFraction, msPerSpawn, spawnsPerSec, spawns, loopDelayP50Ms,
 *   loopDelayP99Ms, loopDelayMaxMs, gcMs, heapUsedBytes, spawnTiming }` (null where nothing was reported;
 *   `spawnTiming`: how the thread's spawns were timed, from its latest report that says;
 *   `runtime`: `{ kind, version, libuv }` the thread reported; `routes`: see routeFigures, null
 *   when the thread's probe attributed no route; `spawnFailures`: its spawns that failed, by command
 *   and errno, `[{ command, code, count }]`, null when none did)
 */
export function createProbeTotals() {
  let wallMs = 0;
  let eluWallMs = 0;
  let activeMs = 0;
  let spawnWallMs = 0;
  let spawns = 0;
  let blockedMs = 0;
  let spawnTiming = null;
  /** command and errno → failed spawns; null until a report carries one */
  let failures = null;
  let runtime = null;
  let gcMs = null;
  let heapUsedBytes = null;
  let maxDelayMs = null;
  /** route → summed { requests, loopMs, spawns, blockedMs }; null until a report carries routes */
  let routes = null;
  // Requests the thread started, and those the route timer timed (its sample).
  let routeSeen = 0;
  let routeSampled = 0;
  // Histogram of loop-delay samples in µs (a RecordableHistogram records integers ≥ 1).
  const delay = createHistogram();

  return {
    add(report) {
      const ms = report.intervalMs ?? 0;
      wallMs += ms;
      if (report.elu != null) {
        eluWallMs += ms;
        activeMs += report.elu * ms;
      }
      if (report.spawn) {
        spawnWallMs += ms;
        spawns += report.spawn.count;
        blockedMs += report.spawn.blockedMs;
        spawnTiming = report.spawn.timing ?? spawnTiming;
        if (Array.isArray(report.spawn.failures)) failures = addFailures(failures ?? new Map(), report.spawn.failures);
      }
      if (report.runtime) runtime = report.runtime;
      if (Array.isArray(report.routes)) {
        routes ??= new Map();
        routeSeen += report.routeSampling?.seen ?? 0;
        routeSampled += report.routeSampling?.sampled ?? 0;
        for (const r of report.routes) {
          const into = routes.get(r.route) ?? { requests: 0, loopMs: 0, spawns: 0, blockedMs: 0 };
          into.requests += r.requests ?? 0;
          into.loopMs += r.loopMs ?? 0;
          into.spawns += r.spawns ?? 0;
          into.blockedMs += r.blockedMs ?? 0;
          routes.set(r.route, into);
        }
      }
      if (report.gcMs != null) gcMs = (gcMs ?? 0) + report.gcMs;
      if (report.heapUsedBytes != null) heapUsedBytes = Math.max(heapUsedBytes ?? 0, report.heapUsedBytes);
      if (report.loopDelay) {
        recordPercentiles(delay, report.loopDelay);
        maxDelayMs = Math.max(maxDelayMs ?? 0, report.loopDelay.maxMs);
      }
    },
    result() {
      const hasDelay = delay.count > 0;
      return {
        wallMs,
        elu: eluWallMs > 0 ? activeMs / eluWallMs : null,
        blockedFraction: spawnWallMs > 0 ? blockedMs / spawnWallMs : null,
        msPerSpawn: spawns > 0 ? blockedMs / spawns : null,
        spawnsPerSec: spawnWallMs > 0 ? spawns / (spawnWallMs / 1000) : null,
        spawns: spawnWallMs > 0 ? spawns : null,
        loopDelayP50Ms: hasDelay ? delay.percentile(50) / US_PER_MS : null,
        loopDelayP99Ms: hasDelay ? delay.percentile(99) / US_PER_MS : null,
        loopDelayMaxMs: maxDelayMs,
        gcMs,
        heapUsedBytes,
        spawnTiming,
        runtime,
        spawnFailures: failures ? [...failures.values()].map((f) => ({ ...f })) : null,
        routes: routes ? routeFigures(routes, eluWallMs > 0 ? activeMs : null, routeSampled > 0 ? routeSeen / routeSampled : 1) : null,
      };
    },
  };
}

/**
 * Adds failed spawns (`[{ command, code, count }]`, a probe report's or a thread's) into a map by command and errno.
 * @param {Map<string, { command: string, code: string, count: number }>} into
 * @param {Array<{ command: string, code: string, count: number }>} failures
 */
export function addFailures(into, failures) {
  for (const f of failures) {
    if (typeof f?.command !== 'string' || typeof f.code !== 'string' || !(f.count > 0)) continue;
    const key = `${f.command}\u0000${f.code}`;
    const known = into.get(key) ?? { command: f.command, code: f.code, count: 0 };
    known.count += f.count;
    into.set(key, known);
  }
  return into;
}

/**
 * A thread's routes, the costliest first: per request, the event-loop time its
 * callbacks and continuations ran, its spawns and the time blocked in them (over the
 * requests timed); and, scaled up from the sample to every request, its requests, its
 * loop time and its share of the thread's busy time (ELU's active time; null without
 * it). Routes with no request timed (work left over from before the window) are dropped.
 *
 * A timed request runs with the async hook on, which costs it a few µs per callback, and a
 * sample taken while the thread waits for a core is stretched: scaled up, the routes' loop
 * time can exceed the time the thread was busy at all. Then the busy time is what is known,
 * and each route's loop time (in all and per request) is its share of it: measured on a
 * 3-line handler at 36,000 req/s, ELU 0.86, the sample scaled to 143% of the busy time, and
 * at 14,000 req/s on a loaded machine the route read 0.26 ms per request where the thread
 * was busy 0.05 ms per request; two routes each read "100% of busy".
 * @param {Map<string, { requests: number, loopMs: number, spawns: number, blockedMs: number }>} routes the timed requests' sums
 * @param {number|null} busyMs
 * @param {number} [scale] requests started per request timed (1: every one was timed)
 * @returns {{ route: string, requests: number, sampledRequests: number, loopMs: number, loopMsPerRequest: number,
 *   spawnsPerRequest: number, blockedMsPerRequest: number, busyShare: number|null }[]}
 */
export function routeFigures(routes, busyMs, scale = 1) {
  const timed = [...routes].filter(([, r]) => r.requests > 0);
  const totalMs = timed.reduce((sum, [, r]) => sum + r.loopMs * scale, 0);
  // Above 1 the sample overstates: every route's loop time is scaled down to the busy time, their ratios kept.
  const fit = busyMs > 0 && totalMs > busyMs ? busyMs / totalMs : 1;
  return timed
    .map(([route, r]) => ({
      route,
      requests: Math.round(r.requests * scale),
      sampledRequests: r.requests,
      loopMs: r.loopMs * scale * fit,
      loopMsPerRequest: (r.loopMs / r.requests) * fit,
      spawnsPerRequest: r.spawns / r.requests,
      blockedMsPerRequest: r.blockedMs / r.requests,
      busyShare: busyMs > 0 ? Math.min(1, (r.loopMs * scale * fit) / busyMs) : null,
    }))
    .sort((a, b) => b.loopMs - a.loopMs);
}

/**
 * Re-creates an interval's samples from its percentile list: the share of samples
 * between two listed percentiles is recorded at the upper one's value. The list is
 * HdrHistogram's percentile iteration (steps halve towards 100%), so merged
 * percentiles are at worst one step high, never low, and the max is exact.
 * @param {import('node:perf_hooks').RecordableHistogram} histogram
 * @param {{ count: number, percentiles: number[][] }} loopDelay
 */
function recordPercentiles(histogram, { count, percentiles }) {
  let recorded = 0;
  for (const [pct, ms] of percentiles) {
    const upTo = Math.round((pct / 100) * count);
    const value = Math.max(1, Math.round(ms * US_PER_MS));
    for (; recorded < upTo; recorded += 1) histogram.record(value);
  }
}
