/**
 * Small statistics over repeated measurements: the median that a sweep reports,
 * the min–max spread shown next to it, and whether two spreads overlap (the test
 * behind "no meaningful difference").
 */

/**
 * Whether a value is a finite number: Number.isFinite as a type guard, for filters.
 * @param {unknown} value
 * @returns {value is number}
 */
export function isFiniteNumber(value) {
  return Number.isFinite(value);
}

/**
 * The median of the finite numbers in `values` (null when there are none).
 * @param {Array<number|null|undefined>} values
 * @returns {number|null}
 */
export function median(values) {
  const sorted = values.filter(isFiniteNumber).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * Median and range of repeated values.
 * @param {Array<number|null|undefined>} values
 * @returns {{ median: number|null, min: number|null, max: number|null, n: number }}
 */
export function spread(values) {
  const finite = values.filter(isFiniteNumber);
  if (finite.length === 0) return { median: null, min: null, max: null, n: 0 };
  return { median: median(finite), min: Math.min(...finite), max: Math.max(...finite), n: finite.length };
}

/**
 * Whether two spreads share any value. With a single repeat on either side there
 * is no spread to judge, so the answer is false (differences are taken at face value).
 * @param {{ min: number|null, max: number|null, n: number }} a
 * @param {{ min: number|null, max: number|null, n: number }} b
 */
export function overlaps(a, b) {
  if (a.n < 2 || b.n < 2) return false;
  // Two repeats or more: spread() set min and max.
  const [aMin, aMax, bMin, bMax] = /** @type {number[]} */ ([a.min, a.max, b.min, b.max]);
  return aMin <= bMax && bMin <= aMax;
}

/**
 * The mean of the finite numbers in `values` (null when there are none).
 * @param {Array<number|null|undefined>} values
 */
export function mean(values) {
  const finite = values.filter(isFiniteNumber);
  return finite.length ? finite.reduce((sum, v) => sum + v, 0) / finite.length : null;
}
