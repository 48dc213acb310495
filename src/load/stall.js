/**
 * Whether the server stopped answering before the run ended, having answered some: measured requests still in flight at
 * the end, one of them waiting longer than UNANSWERED_STALL_MS and UNANSWERED_STALL_FACTOR × any answered request. The
 * figures leave in-flight requests out (as wrk), so such a run's latency and throughput are not the
 * server's. Read by the load's notes, the run's advice and the gates, from a LoadResult (`unanswered`
 * is absent from files written before it was recorded: no stall known).
 */
import { UNANSWERED_STALL_MS, UNANSWERED_STALL_FACTOR } from '../base/thresholds.js';

/**
 * A server that stops answering in the warm-up leaves nothing measured: its warm-up requests hold every
 * connection through the measured phase, and no measured request is even sent. The same test then
 * reads the warm-up's: requests still unanswered at the end, one of them waiting far longer than any
 * request answered in the warm-up (`inWarmup`, with how many it answered and the longest, `answeredMaxMs`).
 * @param {{ unanswered?: { count: number, oldestMs: number, warmup?: { count: number, oldestMs: number, answered: number, answeredMaxMs: number|null } }|null, latency?: { maxMs?: number|null }|null }} load
 * @returns {{ count: number, oldestMs: number, inWarmup?: boolean, warmupAnswered?: number, answeredMaxMs?: number }|null}
 */
export function stalledAtEnd(load) {
  const u = load?.unanswered;
  if (!u) return null;
  const answeredMax = load.latency?.maxMs ?? null;
  if (isFinite(answeredMax ?? NaN)) {
    if (!(u.count > 0) || !(u.oldestMs >= UNANSWERED_STALL_MS)) return null;
    return u.oldestMs > /** @type {number} */ (answeredMax) * UNANSWERED_STALL_FACTOR ? { count: u.count, oldestMs: u.oldestMs } : null;
  }
  // Nothing measured was answered, nor anything in the warm-up: the load's own failure ('no request got a response', host-check.js), not a stall.
  const w = u.warmup;
  if (!w || !(w.count > 0) || !(w.answered > 0) || !(w.oldestMs >= UNANSWERED_STALL_MS) || !isFinite(w.answeredMaxMs ?? NaN)) return null;
  if (!(w.oldestMs > /** @type {number} */ (w.answeredMaxMs) * UNANSWERED_STALL_FACTOR)) return null;
  return { count: u.count + w.count, oldestMs: Math.max(u.oldestMs, w.oldestMs), answeredMaxMs: /** @type {number} */ (w.answeredMaxMs), inWarmup: true, warmupAnswered: w.answered };
}
