/** Number formatting of the text reports (summary, tune, compare, diagnose); the dashboard has its own, narrower cells (src/ui/cell-format.js). */
import { formatInteger } from '../units.js';

/** 12345.6 → '12,346' */
export function int(n) {
  return Number.isFinite(n) ? formatInteger(n) : '–';
}

/** Milliseconds with a precision that fits their size: 0.84 ms, 12.3 ms, 1,204 ms. */
export function ms(n) {
  return Number.isFinite(n) ? `${msNumber(n)} ms` : '–';
}

/** The number part of ms(): 0.84, 12.3, 1,204 (for rows that name the unit once). */
export function msNumber(n) {
  if (!Number.isFinite(n)) return '–';
  if (n < 10) return n.toFixed(2);
  if (n < 100) return n.toFixed(1);
  return int(n);
}

/** Bytes in B, kB, MB, GB (powers of 1000, like network tools). */
export function bytes(n) {
  if (!Number.isFinite(n)) return '–';
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = n;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return unit === 0 ? `${value} B` : `${value.toFixed(1)} ${units[unit]}`;
}

/** 0.312 → '31%' (fraction in, percent out). */
export function pct(fraction, digits = 0) {
  return Number.isFinite(fraction) ? `${(fraction * 100).toFixed(digits)}%` : '–';
}

/** Seconds with one decimal. */
export function seconds(msValue) {
  return Number.isFinite(msValue) ? `${(msValue / 1000).toFixed(1)} s` : '–';
}
