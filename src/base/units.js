/**
 * Parsers for option values. Each throws a UsageError naming the flag, so bad input
 * gives one line that says what to do.
 */
import { UsageError } from './errors.js';
import { MAX_DURATION_MS } from './thresholds.js';

const DURATION_UNITS_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * '500ms' | '10s' | '1m' | '1.5s' | '10' (seconds, as the CLI reads a bare number) → milliseconds;
 * a number (the API's typed value) is milliseconds already: 5000 and '5s' are the same.
 * @param {string|number} value
 * @param {string} flag
 * @param {{allowZero?: boolean}} [options]
 */
export function parseDuration(value, flag, { allowZero = false } = {}) {
  const text = String(value).trim();
  const match = typeof value === 'number' ? /^(\d+(?:\.\d+)?)$/.exec(text) : /^(\d+(?:\.\d+)?)(ms|s|m|h)?$/.exec(text);
  if (!match) {
    throw new UsageError(`${flag} '${value}' is not a duration; use a number with ms, s, m or h, like 500ms, 10s, 1m or 2h`);
  }
  const ms = Math.round(Number(match[1]) * DURATION_UNITS_MS[match[2] ?? (typeof value === 'number' ? 'ms' : 's')]);
  if (ms < 0 || (ms === 0 && !allowZero)) {
    throw new UsageError(`${flag} must be more than zero, like 10s`);
  }
  if (!(ms <= MAX_DURATION_MS)) {
    throw new UsageError(`${flag} must be at most ${formatDuration(MAX_DURATION_MS)}, got ${text}`);
  }
  return ms;
}

/**
 * A whole number ≥ min (1 by default).
 * @param {string|number} value
 * @param {string} flag
 * @param {{min?: number, max?: number, example?: number}} [options] example: the number a bad value is shown (default 10, within max)
 */
export function parseInteger(value, flag, { min = 1, max = Number.MAX_SAFE_INTEGER, example = Math.min(max, Math.max(min, 1) * 10) } = {}) {
  const text = String(value).trim();
  const n = Number(text);
  // Digits, or a whole number in exponent form (1e6, 2.5E3): decimal only, as elsewhere (Number() reads 0x10 as 16).
  if (!/^-?(\d+|\d+(\.\d+)?e\+?\d+)$/i.test(text) || !Number.isInteger(n)) throw new UsageError(`${flag} '${value}' is not a whole number; use e.g. ${flag} ${example}`);
  if (n < min) throw new UsageError(`${flag} must be at least ${min}, got ${n}`);
  if (n > max) throw new UsageError(`${flag} must be at most ${max}, got ${n}`);
  return n;
}

/**
 * A positive number (decimals allowed), e.g. a request rate.
 * @param {string|number} value
 * @param {string} flag
 * @param {{max?: number}} [options]
 */
export function parsePositiveNumber(value, flag, { max = Infinity } = {}) {
  const text = String(value).trim();
  const n = Number(text);
  // Decimal only, as --connections is: Number() reads '0x10' as 16 (a rate of 16 from a typo of 10).
  if (!/^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/i.test(text) || !Number.isFinite(n)) throw new UsageError(`${flag} '${value}' is not a number; use e.g. ${flag} 100`);
  if (n <= 0) throw new UsageError(`${flag} must be more than zero, got ${n}`);
  if (n > max) throw new UsageError(`${flag} must be at most ${max}, got ${text}`);
  return n;
}

/** A list as the CLI gives it ('1,2,4') or as the API may ([1, 2, 4]): its items as trimmed text. */
const listParts = (value) => (Array.isArray(value) ? value : String(value).split(',')).map((p) => String(p).trim()).filter(Boolean);

/**
 * '1,2,4,8' (or [1, 2, 4, 8] from the API) → [1, 2, 4, 8], each a whole number ≥ 1, sorted, no repeats.
 * @param {string|Array<number|string>} value
 * @param {string} flag
 * @param {{ max?: number }} [options] the largest item allowed
 */
export function parseIntegerList(value, flag, { max } = {}) {
  const parts = listParts(value);
  if (parts.length === 0) throw new UsageError(`${flag} needs a comma-separated list like 1,2,4,8`);
  return [...new Set(parts.map((p) => parseInteger(p, flag, { max })))].sort((a, b) => a - b);
}

/**
 * A comma-separated list (or, from the API, an array) whose items must come from `allowed`.
 * @param {string|string[]} value
 * @param {string} flag
 * @param {string[]} allowed
 */
export function parseChoiceList(value, flag, allowed) {
  const parts = listParts(value);
  if (parts.length === 0) throw new UsageError(`${flag} needs a comma-separated list from: ${allowed.join(', ')}`);
  for (const p of parts) parseChoice(p, flag, allowed);
  return [...new Set(parts)];
}

/** One value from `allowed`. */
export function parseChoice(value, flag, allowed) {
  if (!allowed.includes(value)) throw new UsageError(`${flag} '${value}' is not one of: ${allowed.join(', ')}`);
  return value;
}

/** Formats milliseconds the way the options accept them (for summaries). */
export function formatDuration(ms) {
  if (ms % 3_600_000 === 0 && ms >= 3_600_000) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms >= 60_000) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}

/**
 * 12345.6 → '12,346': rounded half away from zero, thousands separated by commas, as Intl's
 * en-US number format gives it, without making one (~25 ms on this project's machine, in
 * every command that reports).
 * @param {number} n a finite number
 * @returns {string}
 */
export function formatInteger(n) {
  const grouped = String(Math.round(Math.abs(n))).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return n < 0 && grouped !== '0' ? `-${grouped}` : grouped;
}
