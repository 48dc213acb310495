/**
 * The HTML report of a compare: per workload, bars of throughput and p99 per
 * strategy with the repeats' min–max as whiskers and the ratio to the first
 * strategy; the table (a column per metric of the table the rows have) and the text.
 */
import { barChart } from './svg.js';
import { document, section, grid, table, textBlock, colorAt, alarm } from './page.js';
import { formatCompare, failureLine, compareColumns, rowFigures, rowWarnings } from '../compare-text.js';
import { splitColumns } from '../metric-columns.js';
import { int, ms } from '../text-format.js';
import { footer } from './run-html.js';
import { assertionsSection, againstSection, notesSection } from './parts.js';

/** @typedef {import('../compare-text.js').CompareRow} CompareRow */

/**
 * @param {import('../compare-text.js').CompareResult} result
 * @returns {string}
 */
export function renderCompareHtml(result) {
  /** @type {CompareRow[]} */
  const rows = result.rows ?? [];
  /** @type {string[]} */
  const strategies = [...new Set(rows.map((r) => r.strategy))];
  const color = (/** @type {string} */ s) => colorAt(strategies.indexOf(s));
  const text = formatCompare(result);
  const lines = text.split('\n');
  /** @type {string[]} */
  const workloads = result.plan?.workloads ?? [...new Set(rows.map((r) => r.workload))];
  const columns = splitColumns(compareColumns(result), { ranges: 'first' });
  const perWorkload = workloads.map((w) => {
    const mine = rows.filter((r) => r.workload === w);
    if (mine.length === 0) return '';
    const first = mine[0].strategy;
    const heading = lines.find((l) => l.startsWith(`workload ${w}`))?.replace(/^workload /, '') ?? w;
    const rps = barChart({
      title: `Throughput, workload ${w}`,
      xLabel: 'requests per second (median; whiskers: min–max of the repeats)',
      format: int,
      bars: mine.map((r) => ({ label: r.strategy, value: r.rps.median, min: r.rps.min, max: r.rps.max, color: color(r.strategy), note: r.failed ? 'failed' : r.ratio === null ? '' : `${r.ratio.toFixed(2)}× ${first}` })),
    });
    const p99 = barChart({
      title: `Latency p99, workload ${w}`,
      xLabel: 'latency p99 (ms; whiskers: min–max of the repeats)',
      format: (v) => ms(v),
      bars: mine.map((r) => ({ label: r.strategy, value: r.p99Ms.median, min: r.p99Ms.min, max: r.p99Ms.max, color: color(r.strategy) })),
    });
    /** @type {Array<Array<string|number>>} */
    const tableRows = mine.map((r) => [
      r.strategy, ...columns.map((c) => c.cell(r, rowFigures(result, r))),
      r.ratio === null ? '–' : `${r.ratio.toFixed(2)}×`, r.failed ? `failed: ${failureLine(r.failed)}` : r.sameAsFirst ? 'no meaningful difference' : '',
    ]);
    const warnings = rowWarnings(result, mine).map((w) => alarm(`${w}.`)).join('');
    return section(`Workload ${heading}`, warnings + grid([rps, p99]) + table(['strategy', ...columns.map((c) => c.header), `vs ${first}`, ''], tableRows, { textColumns: [columns.length + 2] }));
  });
  const body = [
    assertionsSection(result.assertions),
    againstSection(result.against),
    ...perWorkload,
    notesSection(result),
    section('Summary as text', textBlock('the table spawnbench printed', text)),
  ];
  return document({ title: 'spawnbench compare', subtitle: [lines[0].replace(/^spawnbench compare · /, ''), lines[1]?.startsWith('Node') ? lines[1] : ''].filter(Boolean), body: body.join('\n'), footer: footer(result) });
}
