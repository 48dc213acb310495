/**
 * Whether a pool's work was spread evenly, judged against chance rather than a
 * fixed percentage: if each of R requests went to one of N workers with p = 1/N,
 * a worker's count is binomial with mean R/N and σ = √(R·p·(1−p)); a count
 * outside ±BALANCE_NOISE_Z σ is not luck. The same band is put around the mean
 * number in flight (the L requests in flight spread over N workers). Pure.
 */
import { BALANCE_NOISE_Z } from '../thresholds.js';

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
 * @returns {{ requests: Spread|null, inFlight: Spread|null, lopsided: boolean }}
 */
export function poolBalance(workers) {
  const requests = spreadOf(workers, 'requests', (w) => w.requests);
  const inFlight = spreadOf(workers, 'in-flight', (w) => w.inFlight);
  return { requests, inFlight, lopsided: Boolean(requests?.lopsided || inFlight?.lopsided) };
}

function spreadOf(workers, measure, pick) {
  const rows = workers.map((w) => ({ label: w.label, value: pick(w) })).filter((r) => Number.isFinite(r.value));
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
