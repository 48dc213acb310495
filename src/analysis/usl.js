/**
 * The Universal Scalability Law (Gunther): throughput at concurrency N is
 *   X(N) = λN / (1 + σ(N−1) + κN(N−1))
 * λ: throughput of one worker; σ: contention (the serial share, Amdahl's law);
 * κ: coherency (cross-talk that makes throughput fall past a peak).
 *
 * Fitted by weighted linear least squares on N/X = a + b(N−1) + cN(N−1)
 * (a = 1/λ, b = σ/λ, c = κ/λ), weighted by 1/(N/X)² so that every point counts
 * by its relative error, like a fit on X itself would, with no iteration.
 *
 * A fit is only shown where it agrees with the curve it was fitted to
 * (`uslDisagreement`): a peak below the sizes measured, far from the measured best,
 * or a curve that falls where the data rise is a bad fit, not a finding.
 */
import { RPS_BAND, USL_DIRECTION_MIN } from '../base/thresholds.js';

/**
 * Throughput the law predicts.
 * @param {{ lambda: number, sigma: number, kappa: number }} model
 * @param {number} n
 */
export function uslThroughput({ lambda, sigma, kappa }, n) {
  return (lambda * n) / (1 + sigma * (n - 1) + kappa * n * (n - 1));
}

/**
 * The concurrency of peak throughput: √((1−σ)/κ), Infinity when κ = 0.
 * @param {{ sigma: number, kappa: number }} model
 */
export function uslPeak({ sigma, kappa }) {
  if (!(kappa > 0)) return Infinity;
  return Math.sqrt(Math.max(0, 1 - sigma) / kappa);
}

/**
 * Fits the law to measured points. Needs three distinct sizes with throughput > 0;
 * returns null otherwise. σ and κ are kept ≥ 0 (a negative value means the data
 * did not show that effect; it is refitted without it).
 *
 * @param {{ n: number, x: number }[]} points size and throughput (repeats may share a size)
 * @returns {{ lambda: number, sigma: number, kappa: number, peak: number, r2: number, points: number }|null}
 */
export function fitUsl(points) {
  const usable = points.filter((p) => p.n >= 1 && p.x > 0 && Number.isFinite(p.x));
  if (new Set(usable.map((p) => p.n)).size < 3) return null;
  const rows = usable.map(({ n, x }) => ({ features: [1, n - 1, n * (n - 1)], y: n / x }));
  // Drop a term whose coefficient comes out negative and fit again: κ first (no
  // retrograde region seen), then σ (no contention seen).
  let terms = [0, 1, 2];
  let coef = weightedLeastSquares(rows, terms);
  for (const drop of [2, 1]) {
    if (coef && coef[terms.indexOf(drop)] < 0) {
      terms = terms.filter((t) => t !== drop);
      coef = weightedLeastSquares(rows, terms);
    }
  }
  if (!coef || !(coef[0] > 0)) return null;
  const full = [0, 0, 0];
  terms.forEach((t, i) => (full[t] = coef[i]));
  const [a, b, c] = full;
  const model = { lambda: 1 / a, sigma: b / a, kappa: c / a };
  return { ...model, peak: uslPeak(model), r2: rSquared(usable, model), points: usable.length };
}

/**
 * Minimises Σ ((y − ŷ)/y)² over the chosen feature columns; null when singular.
 * @param {Array<{ features: number[], y: number }>} rows
 * @param {number[]} terms
 */
function weightedLeastSquares(rows, terms) {
  const k = terms.length;
  const ata = Array.from({ length: k }, () => new Array(k).fill(0));
  const aty = new Array(k).fill(0);
  for (const { features, y } of rows) {
    const w = 1 / (y * y);
    for (let i = 0; i < k; i++) {
      aty[i] += w * features[terms[i]] * y;
      for (let j = 0; j < k; j++) ata[i][j] += w * features[terms[i]] * features[terms[j]];
    }
  }
  return solve(ata, aty);
}

/**
 * Gaussian elimination with partial pivoting; null when the system is singular.
 * @param {number[][]} matrix
 * @param {number[]} vector
 * @returns {number[]|null}
 */
function solve(matrix, vector) {
  const n = vector.length;
  const m = matrix.map((row, i) => [...row, vector[i]]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(m[r][col]) > Math.abs(m[pivot][col])) pivot = r;
    if (Math.abs(m[pivot][col]) < 1e-300) return null;
    [m[col], m[pivot]] = [m[pivot], m[col]];
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = m[r][col] / m[col][col];
      for (let c = col; c <= n; c++) m[r][c] -= f * m[col][c];
    }
  }
  return m.map((row, i) => row[n] / row[i]);
}

/**
 * Share of the variance of X that the model explains (1: perfect).
 * @param {{ n: number, x: number }[]} points
 * @param {{ lambda: number, sigma: number, kappa: number }} model
 */
function rSquared(points, model) {
  const meanX = points.reduce((sum, p) => sum + p.x, 0) / points.length;
  let residual = 0;
  let total = 0;
  for (const p of points) {
    residual += (p.x - uslThroughput(model, p.n)) ** 2;
    total += (p.x - meanX) ** 2;
  }
  return total > 0 ? 1 - residual / total : 1;
}

/**
 * Why a fit is not a finding about the curve it was fitted to, or null when it agrees:
 * - `peak-below-sizes`: its peak lies below the smallest size measured (σ ≥ 1 puts it at 0);
 * - `contradicts-curve`: between two neighbouring sizes the data moved beyond RPS_BAND one way
 *   and the fit moves the other (more than USL_DIRECTION_MIN), e.g. falling where the data rise;
 * - `peak-far-from-best`: its peak lies outside the measured best, taken as the sizes within
 *   RPS_BAND of the best median widened by one measured size on each side (to infinity when
 *   the largest size is among them).
 * @param {{ lambda: number, sigma: number, kappa: number, peak: number }} fit
 * @param {{ n: number, x: number }[]} points one per size (the medians the fit was made from)
 * @returns {'peak-below-sizes'|'contradicts-curve'|'peak-far-from-best'|null}
 */
export function uslDisagreement(fit, points) {
  const sorted = [...points].filter((p) => p.x > 0 && Number.isFinite(p.x)).sort((a, b) => a.n - b.n);
  if (sorted.length === 0) return null;
  if (fit.peak < sorted[0].n) return 'peak-below-sizes';
  for (let i = 1; i < sorted.length; i++) {
    const [a, b] = [sorted[i - 1], sorted[i]];
    const measured = b.x / a.x - 1;
    const model = uslThroughput(fit, b.n) / uslThroughput(fit, a.n) - 1;
    if ((measured > RPS_BAND && model < -USL_DIRECTION_MIN) || (measured < -RPS_BAND && model > USL_DIRECTION_MIN)) return 'contradicts-curve';
  }
  const best = Math.max(...sorted.map((p) => p.x));
  const band = sorted.map((p, i) => ({ ...p, i })).filter((p) => p.x >= best * (1 - RPS_BAND));
  // the best point itself is in the band: it is never empty
  const last = band[band.length - 1];
  const low = sorted[Math.max(0, band[0].i - 1)].n;
  const high = last.i === sorted.length - 1 ? Infinity : sorted[last.i + 1].n;
  if (fit.peak < low || fit.peak > high) return 'peak-far-from-best';
  return null;
}
