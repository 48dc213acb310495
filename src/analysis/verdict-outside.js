/**
 * Rule for a server seen only from outside (--url with --pid, no probe): slow
 * responses while its process keeps a core busy. Without the probe, JavaScript,
 * spawn and GC cannot be told apart.
 */
import { num, outsideBusy, serverP50 } from './verdict-common.js';
import { BUSY_FRACTION, SLOW_P99_MS, SLOW_P50_MS } from '../base/thresholds.js';
export { BUSY_FRACTION, SLOW_P99_MS, LONG_TAIL_RATIO } from '../base/thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function cpuBoundFromOutside(evidence) {
  if (evidence.probe) return null;
  const seen = outsideBusy(evidence);
  if (!seen || seen.busy < BUSY_FRACTION) return null;
  const { load } = evidence;
  const slow = (num(load.p99Ms) ?? 0) >= SLOW_P99_MS || (num(load.p50Ms) ?? 0) >= SLOW_P50_MS;
  if (!slow) return null;
  return {
    id: 'cpu-bound',
    kind: 'problem',
    where: seen.where,
    figures: { busy: seen.busy, p50Ms: num(load.p50Ms), p99Ms: num(load.p99Ms), ...seen.figures },
  };
}

/**
 * Fires when responses are slow and nothing inside or around the server was
 * measured (--url without --pid): the symptom, and how to see its cause.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function slowUnexplained(evidence) {
  if (evidence.probe || outsideBusy(evidence)) return null;
  const { load } = evidence;
  // An open loop far beyond what was answered: its latency is the wait for the schedule, each request's own time at most
  // its connections over the throughput. Hello-world at --rate 30000 on 1 connection (p50 259 ms from when each was due,
  // 0.1 ms each) read "responses are slow, and the cause cannot be seen from outside".
  const own = serverP50(load);
  const beyond = own !== load.p50Ms;
  const slow = beyond ? (own ?? 0) >= SLOW_P50_MS : (num(load.p99Ms) ?? 0) >= SLOW_P99_MS || (num(load.p50Ms) ?? 0) >= SLOW_P50_MS;
  if (!slow) return null;
  return {
    id: 'slow-unexplained',
    kind: 'problem',
    where: null,
    figures: { p50Ms: num(load.p50Ms), p99Ms: num(load.p99Ms) },
  };
}
