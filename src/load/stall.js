/**
 * Whether the server stopped answering before the run ended, having answered some: measured requests still in flight at
 * the end, one of them waiting longer than UNANSWERED_STALL_MS and UNANSWERED_STALL_FACTOR × any answered request. The
 * figures leave in-flight requests out (as wrk), so such a run's latency and throughput are not the
 * server's. Read by the load's notes, the run's advice and the gates, from a LoadResult (`unanswered`
 * is absent from files written before it was recorded: no stall known).
 */
import { UNANSWERED_STALL_MS, UNANSWERED_STALL_FACTOR, PAUSE_MIN_RPS, PAUSE_MAX_P50_MS } from '../base/thresholds.js';

/**
 * A server that stops answering in the warm-up leaves nothing measured: its warm-up requests hold every
 * connection through the measured phase, and no measured request is even sent. The same test then
 * reads the warm-up's: requests still unanswered at the end, one of them waiting far longer than any
 * request answered in the warm-up (`inWarmup`, with how many it answered and the longest, `answeredMaxMs`).
 * @param {{ unanswered?: { count: number, oldestMs: number, quietMs?: number|null, warmup?: { count: number, oldestMs: number, answered: number, answeredMaxMs: number|null } }|null, latency?: { maxMs?: number|null }|null }} load
 * @returns {{ count: number, oldestMs: number, inWarmup?: boolean, warmupAnswered?: number, answeredMaxMs?: number }|null}
 */
export function stalledAtEnd(load) {
  const u = load?.unanswered;
  // Answered up to the end (to anyone): the requests left waiting were lost (a worker that died with them, a
  // connection it stopped reading), not a server that stopped answering (lostAtEnd). Files without quietMs: the rule alone.
  if (!u || answeredToTheEnd(u)) return null;
  const answeredMax = load.latency?.maxMs ?? null;
  if (isFinite(answeredMax ?? NaN)) return waitedTooLong(u, /** @type {number} */ (answeredMax)) ? { count: u.count, oldestMs: u.oldestMs } : null;
  // Nothing measured was answered, nor anything in the warm-up: the load's own failure ('no request got a response', host-check.js), not a stall.
  const w = u.warmup;
  if (!w || !(w.answered > 0) || !isFinite(w.answeredMaxMs ?? NaN) || !waitedTooLong(w, /** @type {number} */ (w.answeredMaxMs))) return null;
  return { count: u.count + w.count, oldestMs: Math.max(u.oldestMs, w.oldestMs), answeredMaxMs: /** @type {number} */ (w.answeredMaxMs), inWarmup: true, warmupAnswered: w.answered };
}

/**
 * Requests left waiting as a stall's are: one at least UNANSWERED_STALL_MS and UNANSWERED_STALL_FACTOR × the longest answered.
 * @param {{ count: number, oldestMs: number }} waiting
 * @param {number} answeredMaxMs
 */
function waitedTooLong({ count, oldestMs }, answeredMaxMs) {
  return count > 0 && oldestMs >= UNANSWERED_STALL_MS && oldestMs > answeredMaxMs * UNANSWERED_STALL_FACTOR;
}

/**
 * Whether an answer (to any request) came within the last UNANSWERED_STALL_MS of the run; false where not recorded.
 * @param {{ quietMs?: number|null }} u
 */
const answeredToTheEnd = (u) => typeof u.quietMs === 'number' && u.quietMs < UNANSWERED_STALL_MS;

/**
 * Measured requests the server never answered though it kept answering others to the end: left waiting
 * as long as a stall's (UNANSWERED_STALL_MS, and UNANSWERED_STALL_FACTOR × any answered request) while
 * answers still came within the last UNANSWERED_STALL_MS. A node:cluster worker SIGKILLed with a request,
 * or one that hung, leaves these: lost, and left out of the figures, but the server did not stop answering.
 * Its count: those waiting at least UNANSWERED_STALL_MS (`lateCount`; the rest were merely in flight at the end).
 * @param {{ unanswered?: { count: number, oldestMs: number, quietMs?: number|null, lateCount?: number }|null, latency?: { maxMs?: number|null }|null }} load
 * @returns {{ count: number, oldestMs: number }|null}
 */
export function lostAtEnd(load) {
  const u = load?.unanswered;
  const answeredMax = load?.latency?.maxMs ?? null;
  if (!u || !answeredToTheEnd(u) || !isFinite(answeredMax ?? NaN) || !waitedTooLong(u, /** @type {number} */ (answeredMax))) return null;
  return { count: u.lateCount ?? u.count, oldestMs: u.oldestMs };
}

/**
 * Seconds of the measured phase in which the server answered nothing, between seconds in which it
 * answered (a pause: see PAUSE_MIN_RPS), or null. Its figures then hold the pause: the throughput
 * averaged over it, the busy time of a stopped thread; it answered again, so it is no stall at the end.
 * Seconds at the start with no answer count too (`atStart`): a server still getting ready when the
 * warm-up ended (a handler that awaits a first database connection) answered nothing for 1.6 s of a
 * 3 s run, and was sized and gated on a throughput half its own (12,921 req/s, then 44,761 a second).
 * @param {{ series?: Array<{ second: number, requests: number }>|null, latency?: { p50Ms?: number|null }|null }} load a LoadResult
 * @returns {{ seconds: number, from: number, to: number, measuredSeconds: number, medianRps: number, atStart: boolean }|null} `from`, `to`:
 *   the first and last second without a response (from 1); `atStart`: every such second came before the first answer
 */
export function pausedMidRun(load) {
  const series = load?.series ?? [];
  const p50 = load?.latency?.p50Ms ?? null;
  if (series.length < 3 || p50 === null || !(p50 < PAUSE_MAX_P50_MS)) return null;
  const answered = series.map((s) => s.requests > 0);
  const first = answered.indexOf(true);
  const last = answered.lastIndexOf(true);
  if (first < 0) return null;
  const silent = series.filter((s, i) => i < last && !answered[i]);
  if (silent.length === 0) return null;
  const counts = series.filter((s, i) => answered[i] && i < series.length - 1).map((s) => s.requests).sort((a, b) => a - b);
  const medianRps = counts.length > 0 ? counts[Math.floor(counts.length / 2)] : 0;
  if (medianRps < PAUSE_MIN_RPS) return null;
  return { seconds: silent.length, from: silent[0].second, to: silent.at(-1).second, measuredSeconds: series.length, medianRps, atStart: silent.length === first };
}
