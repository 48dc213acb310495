/**
 * The metric columns of the compare and tune tables, read from the metric table
 * (src/analysis/metrics.js) through the rows' metrics blocks: every metric a compare
 * row or a tune cell has a figure of is a column, unless its words say `column: false`
 * (src/report/metric-text.js). Those a summary line shows come first (throughput,
 * latency, errors), then the others, each in the blocks' reading order. A metric whose
 * rows carry the spread of their repeats (its `compareField`) shows it as min–max.
 * A metric added to the table is a column of every table with no view touched.
 * Figures in, strings out.
 */
import { metricOf } from '../analysis/metrics.js';
import { metricWords, formatMetricValue } from './metric-text.js';
import { int, msNumber } from './text-format.js';

/**
 * @typedef {object} MetricColumn
 * @property {string} id
 * @property {string} label its words' label
 * @property {string|null} spreadField the row's field with the repeats' spread, or null
 * @property {import('../analysis/metrics.js').MetricFormat} format
 * @property {string} unit
 */

/** @typedef {import('../analysis/metrics.js').MetricFigure} MetricFigure */
/** @typedef {{ median: number|null, min: number|null, max: number|null, n: number }} Spread */
/** @typedef {{ header: string, cell: (row: Record<string, any>, figures: MetricFigure[]) => string }} TableColumn */

/**
 * The metric columns of a table, from its rows' metrics blocks.
 * @param {MetricFigure[][]} blocks each row's metrics block
 * @returns {MetricColumn[]}
 */
export function metricColumns(blocks) {
  /** @type {Map<string, MetricFigure>} */
  const seen = new Map();
  for (const block of blocks) for (const figure of block) if (!seen.has(figure.id)) seen.set(figure.id, figure);
  const shown = [...seen.values()].filter((f) => metricWords(f.id).column);
  const placed = shown.filter((f) => metricWords(f.id).line !== null);
  const others = shown.filter((f) => metricWords(f.id).line === null);
  return [...placed, ...others].map((f) => ({
    id: f.id,
    label: metricWords(f.id).label,
    spreadField: metricOf(f.id)?.compareField ?? null,
    format: f.format,
    unit: f.unit,
  }));
}

/** The words of a unit that a header can name once for bare values. */
const UNIT_WORDS = /** @type {Record<string, string>} */ ({ ms: 'ms', rps: 'req/s' });

/**
 * A value without the unit its header names: '12.5' for 12.5 ms, '950' for 950 req/s.
 * @param {number|null|undefined} value
 * @param {MetricColumn} column
 * @returns {string}
 */
function bareValue(value, column) {
  if (column.format === 'ms') return msNumber(value);
  if (column.format === 'rps') return int(value);
  return formatMetricValue(value, column);
}

/**
 * The label with its unit, for a column of bare values: 'p99 ms', 'req/s' (a label that is its unit).
 * @param {MetricColumn} column
 */
function labelWithUnit(column) {
  const word = UNIT_WORDS[column.format];
  return !word || column.label === word ? column.label : `${column.label} ${word}`;
}

/**
 * A value as a Markdown or HTML cell shows it: bare under a label that is its unit ('950' under
 * 'req/s'), with its unit otherwise ('12.5 ms' under 'p99').
 * @param {number|null|undefined} value
 * @param {MetricColumn} column
 */
function shownValue(value, column) {
  return column.label === UNIT_WORDS[column.format] ? bareValue(value, column) : formatMetricValue(value, column);
}

/**
 * The row's spread of a column's metric, or null when the column has none or the row does not carry it.
 * @param {MetricColumn} column
 * @param {Record<string, any>} row
 * @returns {Spread|null}
 */
function spreadOf(column, row) {
  const spread = column.spreadField ? row[column.spreadField] : null;
  return spread !== null && typeof spread === 'object' && 'median' in spread ? spread : null;
}

/**
 * A row's figure of a column's metric ('–' when the row has none).
 * @param {MetricColumn} column
 * @param {MetricFigure[]} figures
 * @param {(value: number|null|undefined, column: MetricColumn) => string} format
 */
function figureCell(column, figures, format) {
  const figure = figures.find((f) => f.id === column.id);
  return figure ? format(figure.value, column) : '–';
}

/**
 * The columns of a text table, one per metric: 'req/s (min–max)' with '1,204 (1,100–1,300)' where
 * the rows carry the repeats' spread (the unit in the header), else the label and the value as
 * its format says ('errors', '0').
 * @param {MetricColumn[]} columns
 * @returns {TableColumn[]}
 */
export function textColumns(columns) {
  return columns.map((column) => (column.spreadField
    ? {
        header: `${labelWithUnit(column)} (min–max)`,
        cell: (row, figures) => {
          const spread = spreadOf(column, row);
          if (!spread) return figureCell(column, figures, bareValue);
          if (spread.median === null) return '–';
          const bare = (/** @type {number|null} */ v) => bareValue(v, column);
          return spread.n > 1 ? `${bare(spread.median)} (${bare(spread.min)}–${bare(spread.max)})` : bare(spread.median);
        },
      }
    : { header: column.label, cell: (row, figures) => figureCell(column, figures, formatMetricValue) }));
}

/**
 * The columns of a Markdown or HTML table: the median and, where the rows carry the repeats'
 * spread, a 'min–max' column after it (for every such metric, or for the first one only).
 * @param {MetricColumn[]} columns
 * @param {{ ranges: 'all'|'first' }} options
 * @returns {TableColumn[]}
 */
export function splitColumns(columns, { ranges }) {
  const firstSpread = columns.find((c) => c.spreadField);
  return columns.flatMap((column) => {
    const median = {
      header: column.label,
      cell: (/** @type {Record<string, any>} */ row, /** @type {MetricFigure[]} */ figures) => {
        const spread = spreadOf(column, row);
        return spread ? shownValue(spread.median, column) : figureCell(column, figures, shownValue);
      },
    };
    if (!column.spreadField || (ranges === 'first' && column !== firstSpread)) return [median];
    const range = {
      header: 'min–max',
      cell: (/** @type {Record<string, any>} */ row) => {
        const spread = spreadOf(column, row);
        return spread && spread.n > 1 ? `${shownValue(spread.min, column)}–${shownValue(spread.max, column)}` : '';
      },
    };
    return [median, range];
  });
}
