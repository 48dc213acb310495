/** Number formatting of the text reports (summary, tune, compare, diagnose); the dashboard has its own, narrower cells (src/ui/cell-format.js). */
import { formatInteger } from '../base/units.js';

/**
 * Number.isFinite as the type guard it is (TypeScript's lib declares it a plain boolean, so a
 * value it passed would still read as possibly null): true only for a finite number.
 */
export const isFiniteNumber = /** @type {(value: unknown) => value is number} */ (Number.isFinite);

/**
 * A figure as the text reports take it: a number, or null/undefined where nothing was measured;
 * anything but a finite number reads '–' (a result file's field may hold anything).
 * @typedef {unknown} Figure
 */

/**
 * 12345.6 → '12,346'
 * @param {Figure} n
 */
export function int(n) {
  return isFiniteNumber(n) ? formatInteger(n) : '–';
}

/**
 * Milliseconds with a precision that fits their size: 0.84 ms, 12.3 ms, 1,204 ms.
 * @param {Figure} n
 */
export function ms(n) {
  return isFiniteNumber(n) ? `${msNumber(n)} ms` : '–';
}

/**
 * The number part of ms(): 0.84, 12.3, 1,204 (for rows that name the unit once).
 * @param {Figure} n
 */
export function msNumber(n) {
  if (!isFiniteNumber(n)) return '–';
  if (n < 10) return n.toFixed(2);
  if (n < 100) return n.toFixed(1);
  return int(n);
}

/**
 * Bytes in B, kB, MB, GB (powers of 1000, like network tools).
 * @param {Figure} n
 */
export function bytes(n) {
  if (!isFiniteNumber(n)) return '–';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * 0.312 → '31%' (fraction in, percent out).
 * @param {Figure} fraction
 */
export function pct(fraction, digits = 0) {
  return isFiniteNumber(fraction) ? `${(fraction * 100).toFixed(digits)}%` : '–';
}

/**
 * Seconds with one decimal.
 * @param {Figure} msValue
 */
export function seconds(msValue) {
  return isFiniteNumber(msValue) ? `${(msValue / 1000).toFixed(1)} s` : '–';
}
