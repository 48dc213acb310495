/**
 * Rule: JavaScript holds the event loop (long synchronous work), seen from inside
 * with the probe: the loop is late, and the busy time is not spawn or GC.
 */
import { where, worst, num } from './verdict-common.js';
import { cpuStarved } from './verdict-starved.js';
import { heaviestRoute } from './route-costs.js';
import { LOOP_DELAY_P50_MS, LOOP_DELAY_P99_MS, LOOP_DELAY_MAX_MS, JS_SHARE_FOR_TAIL, SHORT_REQUEST_MS, ROUTES_BUSY_SHARE } from '../base/thresholds.js';
export { LOOP_DELAY_P50_MS, LOOP_DELAY_P99_MS, LOOP_DELAY_MAX_MS, JS_SHARE_FOR_TAIL } from '../base/thresholds.js';

/**
 * The share of wall time the loop spends in JavaScript: busy time (ELU) minus
 * what the spawn and GC figures account for.
 * @param {import('./verdict-common.js').ProcessEvidence} p
 */
export function jsShare(p) {
  const elu = num(p.elu);
  if (elu === null) return null;
  return Math.max(0, elu - (num(p.blockedFraction) ?? 0) - (num(p.gcFraction) ?? 0));
}

/**
 * Whether the loop is late most of the time: the median delay over the threshold,
 * counted over samples or over intervals (a blocked loop takes few samples, so
 * idle moments can outvote it in the run-wide p50; the per-interval median is
 * weighted by time).
 * @param {import('./verdict-common.js').ProcessEvidence} p
 */
export function loopStalledMostly(p) {
  return Math.max(num(p.loopDelayP50Ms) ?? 0, num(p.loopDelayTypicalMs) ?? 0) >= LOOP_DELAY_P50_MS;
}

/**
 * Whether the loop's tail (p99 or max delay) passes its threshold.
 * @param {import('./verdict-common.js').ProcessEvidence} p
 */
export function loopStalledAtTimes(p) {
  return (num(p.loopDelayP99Ms) ?? 0) >= LOOP_DELAY_P99_MS || (num(p.loopDelayMaxMs) ?? 0) >= LOOP_DELAY_MAX_MS;
}

/**
 * Fires when a thread's loop is stalled and JavaScript is the largest share of its
 * busy time (more than spawn and more than GC), so the stalls are the code's own
 * work. A late median always counts; a late tail counts when JavaScript fills at
 * least JS_SHARE_FOR_TAIL of the time, and not at all on a machine short of CPU
 * (verdict-starved.js), where preemption alone stretches p99 and max.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function jsBlocking(evidence) {
  const starved = cpuStarved(evidence);
  const candidates = evidence.processes.filter((p) => {
    const js = jsShare(p);
    if (js === null || js <= 0 || js < (num(p.blockedFraction) ?? 0) || js < (num(p.gcFraction) ?? 0)) return false;
    return loopStalledMostly(p) || (!starved && js >= JS_SHARE_FOR_TAIL && loopStalledAtTimes(p));
  });
  const p = worst(candidates, (x) => num(x.loopDelayP99Ms) ?? num(x.loopDelayMaxMs));
  if (!p) return null;
  return {
    id: 'js-blocking',
    kind: 'problem',
    where: where(p),
    figures: {
      loopDelayP50Ms: num(p.loopDelayP50Ms),
      loopDelayTypicalMs: num(p.loopDelayTypicalMs),
      loopDelayP99Ms: num(p.loopDelayP99Ms),
      loopDelayMaxMs: num(p.loopDelayMaxMs),
      elu: num(p.elu),
      jsShare: jsShare(p),
      cpuPct: num(p.cpuPct),
      // The route whose callbacks hold this loop the longest (probe; null without routes).
      route: heaviestRoute(p),
      // Every route short and most of the busy time theirs: the loop is late from many requests queued, not a long one.
      shortRequests: shortRequests(p),
    },
  };
}

/**
 * Whether the probe's routes show no long request: each takes under SHORT_REQUEST_MS of the main thread, and together
 * they account for ROUTES_BUSY_SHARE of its busy time (else something outside them, a timer, may hold it).
 * @param {{ routes?: import('./route-costs.js').RouteCost[]|null }} p
 */
export function shortRequests(p) {
  const routes = (p.routes ?? []).filter((r) => r.requests > 0 && num(r.loopMsPerRequest) !== null);
  if (routes.length === 0) return false;
  const share = routes.reduce((sum, r) => sum + (num(r.busyShare) ?? 0), 0);
  return share >= ROUTES_BUSY_SHARE && routes.every((r) => r.loopMsPerRequest < SHORT_REQUEST_MS);
}
