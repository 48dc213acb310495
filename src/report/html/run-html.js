/**
 * The HTML report of a run: headline figures, throughput and latency over time,
 * the latency distribution, every process's loop delay, ELU, time blocked in
 * spawn and CPU over time, the process table, the recommendation, and the
 * --against and --assert blocks when the result has them.
 */
import { document, tiles, section, textBlock, alarm, table } from './page.js';
import { loadOverTime, latencyPlot, processesOverTime, processTable, againstSection, assertionsSection, notesSection, reasonsSection } from './parts.js';
import { recommendationSection } from './recommendation.js';
import { formatSummary } from '../summary.js';
import { int, pct, isFiniteNumber } from '../text-format.js';
import { metricWords, formatMetricValue, busiestPart } from '../metric-text.js';
import { metricsBlock } from '../../analysis/metrics.js';
import { outcomeAlarm, throughputCountsFailures } from '../outcome.js';
import { requestOutcome } from '../../analysis/request-outcome.js';
import { endpointRows } from '../endpoints-text.js';

/**
 * @param {import('../../base/result-types.js').RunResult} result RunResult
 * @param {{ baseline?: { load?: { histogram?: string } } }} [options] the --against result, drawn beside this one's distribution
 * @returns {string}
 */
export function renderRunHtml(result, { baseline } = {}) {
  // Unwrapped: a command cut over lines with backslash continuations would not run when copied from the page.
  const text = formatSummary(result, { columns: Infinity });
  const [title, ...subtitle] = text.split('\n').slice(0, 3);
  const load = result.load ?? {};
  const body = [
    headline(result),
    recommendationSection(result, text),
    assertionsSection(result.assertions),
    againstSection(result.against),
    section('Endpoints', endpointsTable(load)),
    section('Load', loadOverTime(load)),
    section('Latency distribution', latencyPlot(load, baseline)),
    section('Processes over time', processesOverTime(result.samples)),
    section('Processes', processTable(result.samples, result.strategy?.workers)),
    reasonsSection(result),
    notesSection(result),
    section('Summary as text', textBlock('the summary spawnbench printed', text)),
  ];
  return document({ title, subtitle, body: body.join('\n'), footer: footer(result) });
}

/**
 * The figures a reader looks at first, a tile per metric of the result's metrics block (the
 * metric table's figures; the words say which the report shows further down instead); above
 * them, the line that says most requests failed when they did, and after the throughput how
 * much of it succeeded and how many requests were measured.
 * @param {{ load?: import('../../base/result-types.js').LoadResult, outcome?: import('../../base/result-types.js').RequestOutcome, metrics?: import('../../base/result-types.js').MetricFigure[] }} result a RunResult or DiagnoseResult
 */
export function headline(result) {
  // A result without its load (an edited file) reads as one that measured nothing.
  const load = result.load ?? /** @type {Partial<import('../../base/result-types.js').LoadResult>} */ ({});
  // A result's outcome is requestOutcome()'s (the result types keep its id as the schema does, a string).
  const outcome = /** @type {import('../../analysis/request-outcome.js').RequestOutcome|undefined} */ (result.outcome) ?? requestOutcome(load);
  const failed = outcome.failed > 0;
  const words = outcomeAlarm(outcome, load.requests ?? null)?.replace(/^(FAILED|WARNING) +/, '');
  /** @param {string|null} label */
  const throughput = (label) => [
    { label: throughputCountsFailures(outcome, load.requests) ? `${label}, errors included` : label, value: int(load.rps) },
    ...(failed ? [{ label: `succeeded per second (${pct(1 - outcome.failedShare)})`, value: int(outcome.succeededRps), bad: true }] : []),
    { label: `requests in ${((load.durationMs ?? 0) / 1000).toFixed(1)} s`, value: int(load.requests) },
  ];
  return alarm(words ? `${words[0].toUpperCase()}${words.slice(1)}.` : '') + tiles(metricsBlock({ ...result, load }).flatMap((f) => {
    const { tile, bad } = metricWords(f.id);
    if (f.id === 'rps') return throughput(tile);
    if (tile === null) return [];
    return [{ label: `${tile}${busiestPart(f.id, f.process)}`, value: formatMetricValue(f.value, f), bad: isFiniteNumber(f.value) && bad(f.value) }];
  }));
}

/**
 * A mix's endpoints, one row each (empty without a mix).
 * @param {{ endpoints?: import('../../base/result-types.js').Endpoint[]|null }} load
 */
export function endpointsTable(load) {
  const rows = endpointRows(load.endpoints);
  if (rows.length === 0) return '';
  return table(
    ['endpoint', 'share', 'weight', 'req/s', 'p50 ms', 'p90 ms', 'p99 ms', 'max ms', 'errors', 'first lines of its error bodies'],
    rows.map((r) => [r.name, r.share, r.weight, r.rps, r.p50, r.p90, r.p99, r.max, r.errors, r.texts.join(' · ')]),
    { textColumns: [0, 8, 9] },
  );
}

/**
 * When and by what the result was made.
 * @param {Record<string, any> & { kind?: string, createdAt?: string, format?: number }} result any result document
 */
export function footer(result) {
  return `spawnbench ${result.kind} result${result.createdAt ? ` of ${result.createdAt.replace('T', ' ').slice(0, 19)} UTC` : ''} · result format ${result.format} · this page needs no network`;
}
