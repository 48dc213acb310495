/**
 * Whether a pool's work was spread evenly, judged against chance rather than a
 * fixed percentage: if each of R requests went to one of N workers with p = 1/N,
 * a worker's count is binomial with mean R/N and σ = √(R·p·(1−p)); a count
 * outside ±BALANCE_NOISE_Z σ is not luck. The same band is put around the mean
 * number in flight (the L requests in flight spread over N workers). Pure.
 */
import { BALANCE_NOISE_Z } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';

/** @typedef {import('./advice-input.js').ThreadFigures} ThreadFigures */

/**
 * @typedef {object} Spread
 * @property {'requests'|'in-flight'} measure
 * @property {number} expected   per worker
 * @property {number} band       ± this much is noise
 * @property {number} min
 * @property {number} max
 * @property {string} minLabel
 * @property {string} maxLabel
 * @property {number} z          the largest |count − expected| / σ
 * @property {boolean} lopsided
 */

/**
 * @param {import('./advice-input.js').ThreadFigures[]} workers
 * @param {number|null} [durationMs] measured time, for each worker's time per request
 * @returns {{ requests: Spread|null, inFlight: Spread|null, latency: { minMs: number, maxMs: number, minLabel: string, maxLabel: string }|null,
 *   lopsided: boolean }} latency: each worker's mean time a request spends with it, by Little's law
 *   (mean in flight ÷ requests per second), the slowest and the fastest
 */
export function poolBalance(workers, durationMs = null) {
  const requests = spreadOf(workers, 'requests', (w) => w.requests);
  const inFlight = spreadOf(workers, 'in-flight', (w) => w.inFlight);
  return { requests, inFlight, latency: latencySpread(workers, durationMs), lopsided: Boolean(requests?.lopsided || inFlight?.lopsided) };
}

/**
 * @param {ThreadFigures[]} workers
 * @param {number|null} durationMs
 */
function latencySpread(workers, durationMs) {
  if (durationMs === null || !(durationMs > 0) || workers.length < 2) return null;
  const rows = workers
    .filter((w) => Number.isFinite(w.inFlight) && (w.requests ?? 0) > 0)
    // kept above: a finite in-flight mean and requests
    .map((w) => ({ label: w.label, ms: (/** @type {number} */ (w.inFlight) / (/** @type {number} */ (w.requests) / (durationMs / 1000))) * 1000 }));
  if (rows.length !== workers.length) return null;
  const lo = rows.reduce((a, b) => (b.ms < a.ms ? b : a));
  const hi = rows.reduce((a, b) => (b.ms > a.ms ? b : a));
  return { minMs: lo.ms, maxMs: hi.ms, minLabel: lo.label, maxLabel: hi.label };
}

/**
 * @param {ThreadFigures[]} workers
 * @param {Spread['measure']} measure
 * @param {(w: ThreadFigures) => number|null} pick
 * @returns {Spread|null}
 */
function spreadOf(workers, measure, pick) {
  // kept: the rows whose value is a finite number
  const rows = /** @type {Array<{ label: string, value: number }>} */ (workers.map((w) => ({ label: w.label, value: pick(w) })).filter((r) => isFiniteNumber(r.value)));
  if (workers.length < 2 || rows.length !== workers.length) return null;
  const total = rows.reduce((sum, r) => sum + r.value, 0);
  if (!(total > 0)) return null;
  const n = rows.length;
  const expected = total / n;
  const sigma = Math.sqrt(total * (1 / n) * (1 - 1 / n));
  const lo = rows.reduce((a, b) => (b.value < a.value ? b : a));
  const hi = rows.reduce((a, b) => (b.value > a.value ? b : a));
  const z = sigma > 0 ? Math.max(...rows.map((r) => Math.abs(r.value - expected))) / sigma : 0;
  return {
    measure,
    expected,
    band: BALANCE_NOISE_Z * sigma,
    min: lo.value,
    max: hi.value,
    minLabel: lo.label,
    maxLabel: hi.label,
    z,
    lopsided: z > BALANCE_NOISE_Z,
  };
}
