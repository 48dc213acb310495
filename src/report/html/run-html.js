/**
 * The HTML report of a run: headline figures, throughput and latency over time,
 * the latency distribution, every process's loop delay, ELU, time blocked in
 * spawn and CPU over time, the process table, the recommendation, and the
 * --against and --assert blocks when the result has them.
 */
import { document, tiles, section, textBlock, alarm } from './page.js';
import { loadOverTime, latencyPlot, processesOverTime, processTable, againstSection, assertionsSection, notesSection, reasonsSection } from './parts.js';
import { recommendationSection } from './recommendation.js';
import { formatSummary } from '../summary.js';
import { int, ms, pct } from '../text-format.js';
import { outcomeAlarm } from '../outcome.js';
import { requestOutcome } from '../../analysis/request-outcome.js';

/**
 * @param {object} result RunResult
 * @param {{ baseline?: object }} [options] the --against result, drawn beside this one's distribution
 * @returns {string}
 */
export function renderRunHtml(result, { baseline } = {}) {
  // Unwrapped: a command cut over lines with backslash continuations would not run when copied from the page.
  const text = formatSummary(result, { columns: Infinity });
  const [title, ...subtitle] = text.split('\n').slice(0, 3);
  const load = result.load ?? {};
  const body = [
    headline(load, result.outcome),
    recommendationSection(result, text),
    assertionsSection(result.assertions),
    againstSection(result.against),
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
 * The figures a reader looks at first; above them, the line that says most requests
 * failed when they did, and beside the throughput how much of it succeeded.
 * @param {object} load
 * @param {object} [outcome] src/analysis/request-outcome.js (a saved result without one: from `load`)
 */
export function headline(load, outcome = requestOutcome(load)) {
  const errors = load.errors?.total ?? 0;
  const failed = outcome.failed > 0;
  const words = outcomeAlarm(outcome)?.replace(/^(FAILED|WARNING) +/, '');
  return alarm(words ? `${words[0].toUpperCase()}${words.slice(1)}.` : '') + tiles([
    { label: failed ? 'requests per second, errors included' : 'requests per second', value: int(load.rps) },
    ...(failed ? [{ label: `succeeded per second (${pct(1 - outcome.failedShare)})`, value: int(outcome.succeededRps), bad: true }] : []),
    { label: `requests in ${((load.durationMs ?? 0) / 1000).toFixed(1)} s`, value: int(load.requests) },
    { label: 'latency p50', value: ms(load.latency?.p50Ms) },
    { label: 'latency p99', value: ms(load.latency?.p99Ms) },
    { label: 'latency max', value: ms(load.latency?.maxMs) },
    { label: 'errors', value: int(errors), bad: errors > 0 },
  ]);
}

/** When and by what the result was made. */
export function footer(result) {
  return `spawnbench ${result.kind} result${result.createdAt ? ` of ${result.createdAt.replace('T', ' ').slice(0, 19)} UTC` : ''} · result format ${result.format} · this page needs no network`;
}
