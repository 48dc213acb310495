/**
 * Number formatting shared by the dashboard panels and the plain progress lines.
 * Every function takes a possibly-missing value and returns a short string; a
 * missing value is shown as DASH so a column never collapses.
 */
import { formatInteger } from '../base/units.js';

/** Shown where a value is not known (yet, or not measurable on this runtime). */
export const DASH = '–';

const KIB = 1024;
const MIB = KIB * 1024;
const GIB = MIB * 1024;

const isNumber = (value) => typeof value === 'number' && Number.isFinite(value);

/**
 * Milliseconds: one decimal under 10 ms, whole numbers up to a second, then seconds.
 * @param {number|null|undefined} ms
 * @param {{ unit?: boolean }} [options] unit: false leaves out " ms" (table cells)
 * @returns {string}
 */
export function formatMs(ms, { unit = true } = {}) {
  if (!isNumber(ms)) return DASH;
  if (ms >= 1000) return `${(ms / 1000).toFixed(ms >= 10_000 ? 0 : 1)}${unit ? ' s' : 's'}`;
  const text = ms < 10 ? ms.toFixed(1) : String(Math.round(ms));
  return unit ? `${text} ms` : text;
}

/**
 * A count with thousands separators: 10000 → "10,000".
 * @param {number|null|undefined} n
 * @returns {string}
 */
export function formatCount(n) {
  if (!isNumber(n)) return DASH;
  // Not toLocaleString: Intl formatting was the dashboard's costliest helper per frame.
  return formatInteger(n);
}

/**
 * A count in at most 5 characters for narrow cells: 950, 1.2k, 12k, 3.4M.
 * @param {number|null|undefined} n
 * @returns {string}
 */
export function formatCompact(n) {
  if (!isNumber(n)) return DASH;
  const abs = Math.abs(n);
  if (abs < 1000) return String(Math.round(n));
  if (abs < 10_000) return `${(n / 1000).toFixed(1)}k`;
  if (abs < 1_000_000) return `${Math.round(n / 1000)}k`;
  return `${(n / 1_000_000).toFixed(1)}M`;
}

/**
 * Bytes in binary units, short: "48M", "1.2G", "512K".
 * @param {number|null|undefined} bytes
 * @returns {string}
 */
export function formatBytes(bytes) {
  if (!isNumber(bytes)) return DASH;
  if (bytes >= GIB) return `${(bytes / GIB).toFixed(1)}G`;
  if (bytes >= MIB) return `${Math.round(bytes / MIB)}M`;
  if (bytes >= KIB) return `${Math.round(bytes / KIB)}K`;
  return `${Math.round(bytes)}B`;
}

/**
 * A percentage given as a percentage (CPU: 0–100 per core, may exceed 100).
 * @param {number|null|undefined} pct
 * @returns {string}
 */
export function formatPct(pct) {
  return isNumber(pct) ? `${Math.round(pct)}%` : DASH;
}

/**
 * A fraction 0–1 as a percentage (blocked-in-spawn fraction).
 * @param {number|null|undefined} fraction
 * @returns {string}
 */
export function formatFraction(fraction) {
  return isNumber(fraction) ? `${Math.round(fraction * 100)}%` : DASH;
}

/**
 * Event-loop utilisation 0–1 with two decimals, as Node reports it.
 * @param {number|null|undefined} elu
 * @returns {string}
 */
export function formatElu(elu) {
  return isNumber(elu) ? elu.toFixed(2) : DASH;
}

/** Elapsed times arrive a few ms past the second (timers): 1003 ms still reads "1s". ms */
const WHOLE_SECOND_SLACK_MS = 50;

/**
 * An elapsed or planned time for progress, rounded for a glance: "0.5s", "2.5s",
 * "4s", "1m05s", "5h00m". Not units.js formatDuration(), which writes a duration back in
 * the exact form a flag takes ("200ms", "10s").
 * @param {number|null|undefined} ms
 * @returns {string}
 */
export function formatElapsed(ms) {
  if (!isNumber(ms)) return DASH;
  const offWholeSecond = Math.abs(ms - Math.round(ms / 1000) * 1000) > WHOLE_SECOND_SLACK_MS;
  if (ms < 10_000 && ((ms > 0 && ms < 1000) || offWholeSecond)) return `${(ms / 1000).toFixed(1)}s`;
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds}s`;
  const rest = String(seconds % 60).padStart(2, '0');
  if (seconds < 3600) return `${Math.floor(seconds / 60)}m${rest}s`;
  // Hours: "5h00m", "1h02m"; seconds no longer matter at this scale.
  return `${Math.floor(seconds / 3600)}h${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}m`;
}

/** The name formatElapsed() had (kept for code written against it). */
export const formatDuration = formatElapsed;

/**
 * A metric's figure as its format says (src/analysis/metrics.js formatOf), short for a
 * panel: '12.3 ms', '950/s', '1,204', '31%', '0.93'; DASH when not measured.
 * @param {number|null|undefined} value
 * @param {string} format 'ms', 'rps', 'count', 'percent', 'fraction' or 'number'
 * @returns {string}
 */
export function formatFigure(value, format) {
  if (!isNumber(value)) return DASH;
  switch (format) {
    case 'ms': return formatMs(value);
    case 'rps': return `${formatCount(value)}/s`;
    case 'count': return formatCount(value);
    case 'percent': return formatFraction(value);
    case 'fraction': return formatElu(value);
    default: return Math.abs(value) < 100 ? String(Number(value.toPrecision(3))) : formatCount(value);
  }
}
