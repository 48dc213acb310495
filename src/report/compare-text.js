/**
 * The text and Markdown of a compare result: the experiment's table per
 * workload (a column per metric of the table the rows have: req/s, p99, errors;
 * then the ratio to the first strategy). Plain
 * CompareResult in, string out; printed after the runs and by `report`.
 */
import { describeLoad, describeMachine } from './describe.js';
import { shellLine } from './own-server.js';
import { formatRuntimeList } from './runtimes-text.js';
import { measureRowMetrics } from '../analysis/metrics.js';
import { metricColumns, textColumns, splitColumns } from './metric-columns.js';
import { runsOutcome } from '../analysis/request-outcome.js';
import { crashLine } from '../analysis/error-reasons.js';
import { rowFailureWarning, WARNING_PREFIX } from './outcome.js';
import { cleanText } from '../base/untrusted-text.js';
import { OPEN_LOOP_RATE_MET } from '../base/thresholds.js';
import { int } from './text-format.js';

/** @typedef {import('../analysis/metrics.js').MetricFigure} MetricFigure */
/** @typedef {Record<string, any> & { metrics?: MetricFigure[] }} CompareRow a row of the table (src/analysis/compare-table.js) */
/**
 * A CompareResult (src/base/result-types.js) as read here: its rows always there (as the engine and a
 * checked result file have them), the rest as the file holds it.
 * @typedef {Record<string, any> & { rows: CompareRow[], runs?: Array<Record<string, any>> }} CompareResult
 */

/**
 * @param {CompareResult} result (src/compare/compare-engine.js)
 * @returns {string}
 */
export function formatCompare(result) {
  const lines = [`spawnbench compare · ${describeComparison(result.plan)}`];
  if (result.machine) lines.push(describeMachine(result.machine));
  const runtimes = formatRuntimeList(result.runtimes);
  if (runtimes) lines.push(runtimes);
  const columns = textColumns(compareColumns(result));
  for (const workload of result.plan.workloads) {
    const rows = result.rows.filter((r) => r.workload === workload);
    const first = rows[0]?.strategy ?? '';
    const cells = rows.map((r) => [r.strategy, ...columns.map((c) => c.cell(r, rowFigures(result, r))), ratio(r), remark(r)]);
    const header = [rowLabel(result.plan), ...columns.map((c) => c.header), `vs ${first}`, ''];
    const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
    const line = (/** @type {string[]} */ c) => c.map((v, i) => (i === 0 || i === header.length - 1 ? v.padEnd(widths[i]) : v.padStart(widths[i]))).join('  ').trimEnd();
    lines.push('', `workload ${describeWorkload(result.plan, workload)}`, line(header), ...cells.map(line));
    lines.push(...rowWarnings(result, rows).map((w) => `${WARNING_PREFIX}${w}`));
  }
  lines.push(...footer(result));
  return lines.join('\n');
}

/**
 * The same table as GitHub Markdown (--markdown).
 * @param {CompareResult} result
 * @returns {string}
 */
export function formatCompareMarkdown(result) {
  const lines = [`## spawnbench compare`, '', `${describeComparison(result.plan)}${result.machine ? `; ${describeMachine(result.machine)}` : ''}.`];
  const columns = splitColumns(compareColumns(result), { ranges: 'first' });
  for (const workload of result.plan.workloads) {
    const rows = result.rows.filter((r) => r.workload === workload);
    const first = rows[0]?.strategy ?? '';
    const cell = (/** @type {unknown} */ text) => String(text).replaceAll('|', '\\|');
    lines.push('', `### workload ${cell(describeWorkload(result.plan, workload))}`, '');
    lines.push(`| ${rowLabel(result.plan)} | ${columns.map((c) => `${cell(c.header)} | `).join('')}vs ${first} |`, `|---|${'---:|'.repeat(columns.length)}---:|`);
    for (const r of rows) {
      const note = remark(r);
      lines.push(`| ${cell(r.strategy)}${note ? ` (${cell(note)})` : ''} | ${columns.map((c) => `${c.cell(r, rowFigures(result, r))} | `).join('')}${ratio(r)} |`);
    }
    const warnings = rowWarnings(result, rows);
    if (warnings.length) lines.push('', ...warnings.map((w) => `> **Warning** ${cell(w)}`));
  }
  const rest = footer(result).filter(Boolean);
  if (rest.length) lines.push('', ...rest.map((l) => `- ${l}`));
  // A name in a result file could hold HTML (`<script>`), which a Markdown renderer would
  // pass on; `&lt;` shows as `<` in every renderer.
  return lines.join('\n').replaceAll('<', '&lt;');
}

/**
 * A row's metrics block (src/analysis/metrics.js): the one it carries, or, for a result saved
 * before rows had one, measured now from the row and its runs.
 * @param {CompareResult} result
 * @param {CompareRow} row
 * @returns {MetricFigure[]}
 */
export function rowFigures(result, row) {
  return Array.isArray(row.metrics) ? row.metrics : measureRowMetrics(row, (result.runs ?? []).filter((r) => r.workload === row.workload && r.strategy === row.strategy));
}

/**
 * The metric columns of a compare's table (src/report/metric-columns.js): every metric its rows
 * have a figure of.
 * @param {CompareResult} result
 * @returns {import('./metric-columns.js').MetricColumn[]}
 */
export function compareColumns(result) {
  return metricColumns((result.rows ?? []).map((row) => rowFigures(result, row)));
}

/**
 * A warning per row whose requests mostly failed (MOSTLY_FAILED_SHARE): its figures describe
 * the failures more than the strategy. The HTML report shows the same.
 * @param {CompareResult} result
 * @param {CompareRow[]} rows the rows of one workload
 * @returns {string[]}
 */
export function rowWarnings(result, rows) {
  return rows.flatMap((row) => {
    const runs = (result.runs ?? []).filter((r) => r.workload === row.workload && r.strategy === row.strategy);
    const outcome = runsOutcome(runs);
    // A run that failed while measured (the server crashed, stopped answering): its figures are not the server's.
    const failedRuns = runs.filter((r) => (r.failures ?? []).length > 0);
    const failed = failedRuns.length > 0
      ? [`${cleanText(row.strategy, 80)}: ${failedRuns.length} of ${runs.length} ${runs.length === 1 ? 'run' : 'runs'} failed while measured (${cleanText(failureLine(failedRuns[0].failures[0]), 300)}); its figures are not the server's`]
      : [];
    return [...(outcome.mostlyFailed ? [rowFailureWarning(row.strategy, outcome)] : []), ...failed];
  });
}

/**
 * The first column's name: 'server' when only the user's own servers were compared.
 * @param {Record<string, any>} plan
 */
function rowLabel(plan) {
  const commands = Object.keys(plan.commands ?? {});
  return commands.length > 0 && plan.strategies.every((/** @type {string} */ name) => commands.includes(name)) ? 'server' : 'strategy';
}

/**
 * The lines under the tables: the user's servers, how the repeats were read, the notes.
 * @param {CompareResult} result
 * @returns {string[]}
 */
function footer(result) {
  const lines = [];
  const commands = Object.entries(result.plan.commands ?? {});
  if (commands.length > 0) {
    lines.push('', `Your servers (started as diagnose starts them; bodies not checked): ${commands.map(([name, argv]) => `${name} = ${shellLine(argv)}`).join('; ')}`);
  }
  const repeats = result.stoppedEarly ? `the repeats measured (up to ${result.plan.repeat}, interleaved; stopped early)` : `${result.plan.repeat} interleaved repeats`;
  if (result.plan.repeat > 1) lines.push('', `Median of ${repeats}; "no meaningful difference": the repeats overlap the first strategy's, in req/s and in p99.`);
  const rate = result.plan.load?.rate;
  if (Number.isFinite(rate)) {
    // A row that fell short of the rate (its server or its connections could not keep up) is no row "at the rate": `--rate
    // 5000 -c 2` read "each row's req/s is the rate it was sent at" beside a row of 89 req/s (0.02×).
    const short = result.rows.filter((r) => Number.isFinite(r.rps?.median) && r.rps.median < rate * OPEN_LOOP_RATE_MET);
    const names = [...new Set(short.map((r) => cleanText(r.strategy, 80)))];
    lines.push(short.length === 0
      ? `At a fixed --rate each row's req/s is the rate it was sent at (and the "vs" ratio near 1): their p99 is what differs.`
      : `At a fixed --rate a row served in full shows the rate as its req/s; ${names.join(', ')} served less than the ${int(rate)} req/s sent: ${names.length === 1 ? 'it' : 'they'} fell behind (the server, or the connections: -c), and ${names.length === 1 ? 'its' : 'their'} latency holds the wait for the schedule.`);
  }
  for (const note of result.notes ?? []) lines.push(`note: ${note}`);
  return lines;
}

/**
 * The load line, then how often and, for pool strategies, with which pool.
 * @param {Record<string, any>} plan
 */
function describeComparison(plan) {
  const pool = plan.poolSize ? ` · pools of ${plan.poolSize} workers, ${plan.balance}` : '';
  return `${describeLoad(plan.load, { per: 'run' })} · ${plan.repeat} repeat${plan.repeat === 1 ? '' : 's'}${pool}`;
}

/**
 * @param {Record<string, any>} plan
 * @param {string} name
 */
function describeWorkload(plan, name) {
  const w = plan.workloadInfo?.[name];
  if (!w) return name;
  if (w.command === null) return `${name} (each runs its own code per request)`;
  const cmd = [w.command, ...w.args].join(' ');
  return `${name} (${cmd.length > 60 ? `${cmd.slice(0, 57)}...` : cmd})`;
}

/** @param {CompareRow} row */
function ratio(row) {
  return row.ratio === null ? '–' : `${row.ratio.toFixed(2)}×`;
}

/**
 * A failure on one line for a table cell. Reasons that quote the server's stderr carry it
 * after "its stderr ends:" on the next lines; the first line alone ended there, with nothing
 * after it: the last line of that output (usually the reason) follows it instead. Of a Node
 * crash that is "Node.js v20.20.2", under the stack: its error line ("Error: boom") is said.
 * @param {string} reason
 */
export function failureLine(reason) {
  const [first, ...rest] = String(reason).split('\n');
  const last = crashLine(rest);
  if (last) return `${first} ${last}`;
  return first.replace(/;\s*its stderr ends:\s*$/, '');
}

/** @param {CompareRow} row */
function remark(row) {
  if (row.failed) return `failed: ${failureLine(row.failed)}`;
  if (row.sameAsFirst) return 'no meaningful difference';
  return '';
}
