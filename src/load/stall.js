/**
 * Whether the server stopped answering before the run ended, having answered some: measured requests still in flight at
 * the end, one of them waiting longer than UNANSWERED_STALL_MS and UNANSWERED_STALL_FACTOR × any answered request. The
 * figures leave in-flight requests out (as wrk), so such a run's latency and throughput are not the
 * server's. Read by the load's notes, the run's advice and the gates, from a LoadResult (`unanswered`
 * is absent from files written before it was recorded: no stall known).
 */
import { UNANSWERED_STALL_MS, UNANSWERED_STALL_FACTOR } from '../base/thresholds.js';

/**
 * @param {{ unanswered?: { count: number, oldestMs: number }|null, latency?: { maxMs?: number|null }|null }} load
 * @returns {{ count: number, oldestMs: number }|null}
 */
export function stalledAtEnd(load) {
  const u = load?.unanswered;
  if (!u || !(u.count > 0) || !(u.oldestMs >= UNANSWERED_STALL_MS)) return null;
  const answeredMax = load.latency?.maxMs ?? null;
  // Nothing answered at all is the load's own failure ('no request got a response', host-check.js), not a stall.
  return isFinite(answeredMax ?? NaN) && u.oldestMs > /** @type {number} */ (answeredMax) * UNANSWERED_STALL_FACTOR ? { count: u.count, oldestMs: u.oldestMs } : null;
}
