/**
 * Text charts: a sparkline and a horizontal bar, as plain strings so they can be
 * tested and so their width is exactly what the layout asked for.
 */

/** Eight heights of a sparkline, lowest first. */
const SPARK_LEVELS = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];
const BAR_FULL = '█';
const BAR_EMPTY = '░';

/**
 * The last `width` values as a sparkline scaled from 0 to the largest shown value
 * (from 0, not from the minimum, so a flat line at 700 rps does not look jagged).
 * @param {number[]} values
 * @param {number} width characters available
 * @param {{ max?: number }} [options] max: fixed top of the scale
 * @returns {string} at most `width` characters
 */
export function sparkline(values, width, { max } = {}) {
  if (width <= 0 || values.length === 0) return '';
  const shown = values.slice(-width);
  const top = max ?? Math.max(...shown);
  if (!(top > 0)) return SPARK_LEVELS[0].repeat(shown.length);
  return shown
    .map((value) => {
      const level = Math.round((Math.max(0, value) / top) * (SPARK_LEVELS.length - 1));
      return SPARK_LEVELS[Math.min(level, SPARK_LEVELS.length - 1)];
    })
    .join('');
}

/**
 * A bar `width` characters long, filled in proportion to value/max (clamped).
 * @param {number|null|undefined} value
 * @param {number} max value of a full bar (100 for the CPU of one core)
 * @param {number} width
 * @returns {string} exactly `width` characters
 */
export function bar(value, max, width) {
  if (width <= 0) return '';
  const ratio = Number.isFinite(value) && max > 0 ? Math.min(1, Math.max(0, value / max)) : 0;
  const filled = Math.round(ratio * width);
  return BAR_FULL.repeat(filled) + BAR_EMPTY.repeat(width - filled);
}

