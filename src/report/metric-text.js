/**
 * The words of the metric table's metrics (src/analysis/metrics.js), by id: the label
 * a line or table gives a metric, its tile in the HTML report, the summary line that
 * shows it; and a value shown as its metric's format says. A metric without words here
 * is shown by its id (dashes as spaces) and its format, on the summary's Metrics line,
 * as a tile and (with a compare-row or tune-cell figure) as a column of the compare and
 * tune tables: one entry in the table is enough to see it in every view.
 * Figures in (a result's `metrics` block), strings out.
 */
import { int, ms, msNumber } from './text-format.js';
import { metricLabel } from '../base/labels.js';

/**
 * @typedef {object} MetricWords
 * @property {string} [label] its label in lines and tables (default: metricLabel() of src/base/labels.js, which the
 *   dashboard shows too: the id, dashes as spaces, where it has none)
 * @property {string|null} [tile] the label of its HTML headline tile (default: the label); null: no tile,
 *   the report shows it elsewhere (the latency table, the process table)
 * @property {'requests'|'latency'|'errors'|'processes'} [line] the summary line that shows it (the Requests,
 *   Latency or Errors line, or the process lines); absent: the Metrics line
 * @property {string} [busiest] what its process is the busiest of (default: 'busiest process')
 * @property {boolean} [column] false: no column of the compare and tune tables, though their rows have
 *   a figure of it (default: a column wherever they do; src/report/metric-columns.js)
 * @property {(value: number) => boolean} [bad] a value the report marks
 */

/** @type {Record<string, MetricWords>} */
const WORDS = {
  rps: { tile: 'requests per second', line: 'requests' },
  p50: { tile: 'latency p50', line: 'latency', column: false }, // --assert reads it in a compare; its table shows p99
  p90: { tile: null, line: 'latency' },
  p99: { tile: 'latency p99', line: 'latency' },
  p999: { tile: null, line: 'latency' },
  max: { tile: 'latency max', line: 'latency' },
  errors: { tile: 'errors', line: 'errors', bad: (value) => value > 0 },
  'blocked-in-spawn': { tile: null, line: 'processes' },
  elu: { tile: null, line: 'processes', busiest: 'busiest loop' },
  busy: { tile: null, line: 'processes', busiest: 'busiest thread' },
};

const NEVER_BAD = () => false;

/**
 * A metric's words, with the defaults filled in.
 * @param {string} id
 * @returns {{ label: string, tile: string|null, line: string|null, busiest: string, column: boolean, bad: (value: number) => boolean }}
 */
export function metricWords(id) {
  const words = WORDS[id] ?? {};
  const label = words.label ?? metricLabel(id);
  return {
    label,
    tile: words.tile === undefined ? label : words.tile,
    line: words.line ?? null,
    busiest: words.busiest ?? 'busiest process',
    column: words.column ?? true,
    bad: words.bad ?? NEVER_BAD,
  };
}

/**
 * A value as its metric's format says: '12.5 ms', '950 req/s', '1,204', '31%', '0.93';
 * a plain number with its unit otherwise; '–' when not measured.
 * @param {number|null|undefined} value
 * @param {{ format?: string, unit?: string }} metric a figure of the metrics block, or a metric of the table
 * @returns {string}
 */
export function formatMetricValue(value, { format, unit = '' }) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  switch (format) {
    case 'ms': return ms(value);
    case 'rps': return `${int(value)} req/s`;
    case 'count': return int(value);
    case 'percent': return `${(value * 100).toFixed(value * 100 < 10 ? 1 : 0)}%`;
    case 'fraction': return value.toFixed(2);
    default: return `${Math.abs(value) < 100 ? Number(value.toPrecision(3)) : int(value)}${unit ? ` ${unit}` : ''}`;
  }
}

/**
 * Where a figure read per process came from: ' (busiest loop: worker 0)', or '' without one.
 * @param {string} id
 * @param {string|null|undefined} process
 */
export function busiestPart(id, process) {
  return process ? ` (${metricWords(id).busiest}: ${process})` : '';
}

/**
 * A figure with its label: 'goodput 950 req/s', 'blocked in spawn 73% (busiest process: worker 1)'.
 * @param {import('../analysis/metrics.js').MetricFigure} figure
 */
export function describeFigure(figure) {
  return `${metricWords(figure.id).label} ${formatMetricValue(figure.value, figure)}${busiestPart(figure.id, figure.process)}`;
}

/**
 * The figures a summary line shows, in the block's order.
 * @param {import('../analysis/metrics.js').MetricFigure[]} figures
 * @param {string|null} line 'latency', …; null: the figures no line shows
 */
export function figuresOnLine(figures, line) {
  return figures.filter((f) => metricWords(f.id).line === line);
}

/**
 * The Latency line's figures: "p50 1.20  p90 …  max 12.3  mean 2.00 ms", the unit once so the
 * line fits 80 columns (the successful responses', as the gates read them); 'no responses' when
 * none was measured, 'no successful response' when every one failed.
 * @param {import('../analysis/metrics.js').MetricFigure[]} figures the metrics block
 * @param {number|null|undefined} meanMs the successes' mean latency (a figure of the line, not a metric)
 */
export function formatLatencyFigures(figures, meanMs) {
  const onLine = figuresOnLine(figures, 'latency');
  const parts = onLine.map((f) => [metricWords(f.id).label, f.value]);
  if (!parts.some(([, value]) => Number.isFinite(value))) return onLine.some((f) => f.why === 'no-successes') ? 'no successful response' : 'no responses';
  return `${[...parts, ['mean', meanMs]].map(([label, value]) => `${label} ${msNumber(value)}`).join('  ')} ms`;
}

const LINE_WIDTH = 80;
const INDENT = ' '.repeat('Metrics    '.length);

/**
 * The Metrics line: every figure of the block no other line shows (a metric the table has
 * and the words do not place), wrapped at 80 columns; none when every figure has its place.
 * @param {import('../analysis/metrics.js').MetricFigure[]} figures
 * @returns {string[]}
 */
export function formatOtherMetrics(figures) {
  const parts = figuresOnLine(figures, null).map(describeFigure);
  /** @type {string[]} */
  const lines = [];
  for (const part of parts) {
    const last = lines.at(-1);
    if (last !== undefined && last.length + 3 + part.length <= LINE_WIDTH) lines[lines.length - 1] = `${last}   ${part}`;
    else lines.push(`${last === undefined ? 'Metrics    ' : INDENT}${part}`);
  }
  return lines;
}
