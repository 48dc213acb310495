/**
 * Whether a tune step has enough responses to rank sizes: at least TUNE_MIN_RESPONSES,
 * over at least TUNE_P99_MULTIPLE × its own p99 of wall time (#37: 3 s steps on a 1–2 s
 * endpoint measured 18 req/s where wrk measured 23, and some got 0 responses). And the
 * step length that fits a latency seen, for the tune command a run prints. Pure.
 */
import { TUNE_MIN_RESPONSES, TUNE_P99_MULTIPLE, TUNE_STEP_MAX_MS, TUNE_DEFAULTS, OPEN_LOOP_BEYOND_SHARE } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';

/**
 * @param {{ requests: number, durationMs: number, p99Ms: number|null, rate?: number|null }} step measured so far, or in
 *   all; `rate`: an open loop's --rate
 * @returns {boolean}
 */
export function hasEnoughResponses({ requests, durationMs, p99Ms, rate = null }) {
  if (!(requests >= TUNE_MIN_RESPONSES)) return false;
  // An open loop far beyond what was answered: its p99 is the wait for the schedule, which grows with the step's own
  // length, so no length is 5 × it. `tune --rate 200 -c 2` on a 20 ms server ran every step to the 60 s cap and then
  // called 5,799 responses "too few to rank".
  if (isFiniteNumber(rate) && durationMs > 0 && (requests * 1000) / durationMs < rate * OPEN_LOOP_BEYOND_SHARE) return true;
  return !isFiniteNumber(p99Ms) || durationMs >= p99Ms * TUNE_P99_MULTIPLE;
}

/**
 * The measured time (ms) a tune step needs at a latency and throughput seen: TUNE_MIN_RESPONSES
 * responses and TUNE_P99_MULTIPLE × p99, in whole seconds, never below tune's default step nor
 * above TUNE_STEP_MAX_MS.
 * @param {{ rps: number|null, p99Ms: number|null }} seen
 * @returns {number}
 */
export function stepMsFor({ rps, p99Ms }) {
  const forResponses = rps !== null && rps > 0 ? (TUNE_MIN_RESPONSES / rps) * 1000 : 0;
  const forLatency = isFiniteNumber(p99Ms) ? p99Ms * TUNE_P99_MULTIPLE : 0;
  const needed = Math.ceil(Math.max(forResponses, forLatency) / 1000) * 1000;
  return Math.min(TUNE_STEP_MAX_MS, Math.max(TUNE_DEFAULTS.durationMs, needed));
}
