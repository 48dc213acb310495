/**
 * The lines printed after a summary for --assert: one per assertion (and per
 * compare row), pass or fail with the measured value. Outcomes in, strings out.
 */
import { metricOf, formatOf } from '../analysis/metrics.js';
import { formatMetricValue, busiestPart } from './metric-text.js';
import { cleanText } from '../base/untrusted-text.js';
import { isFiniteNumber } from './text-format.js';

/**
 * A value in an assertion's unit, as the summary writes it: a share or change in %, else as
 * its metric's format says (src/report/metric-text.js).
 * @param {number|null} value
 * @param {string} unit 'ms' | 'rps' | 'count' | '%' | 'fraction'
 * @param {string} metric
 */
export function formatGateValue(value, unit, metric) {
  if (!isFiniteNumber(value)) return '–';
  if (unit !== '%') return formatMetricValue(value, { unit, format: formatOf(metricOf(metric) ?? { unit }) });
  const digits = Math.abs(value) < 10 ? 1 : 0;
  return metric.endsWith('-change') ? `${value > 0 ? '+' : ''}${value.toFixed(digits)}%` : `${value.toFixed(digits)}%`;
}

/**
 * @param {import('../analysis/assert-evaluate.js').AssertionOutcome} o
 * @returns {string} e.g. "assert p99<1ms  FAIL  measured 601 ms (busiest: worker 0)"
 */
export function formatAssertionLine(o) {
  const status = o.pass ? 'pass' : 'FAIL';
  const where = o.where ? `  ${o.where}:` : '';
  if (o.id === 'assert-not-measured') {
    // WHY[''] is undefined, as WHY[undefined] was.
    const why = o.endpoint ? endpointWhy(o) : WHY[o.why ?? ''] ?? probeSilence(o) ?? notMeasuredReason(o.metric);
    return `assert ${o.expr}  ${status}${where}  not measured (${why})`;
  }
  const why = o.why ? ` (${WHY[o.why]})` : '';
  return `assert ${o.expr}  ${status}${where}  measured ${measuredText(o)}${busiestPart(o.metric, o.process)}${why}`;
}

/**
 * The measured figure as the line shows it; where it rounds to the gate's own limit, with the digits that tell them
 * apart: "rps>=31590  FAIL  measured 31,590 req/s" read as a gate that failed at what it asked for.
 * @param {import('../analysis/assert-evaluate.js').AssertionOutcome} o
 */
function measuredText(o) {
  const shown = formatGateValue(o.measured, o.unit, o.metric);
  if (!isFiniteNumber(o.measured) || !isFiniteNumber(o.limit) || o.measured === o.limit || shown !== formatGateValue(o.limit, o.unit, o.metric)) return shown;
  // Enough significant digits to show the difference (at most 12).
  let digits = 6;
  while (digits < 12 && Number(o.measured.toPrecision(digits)) === Number(o.limit.toPrecision(digits))) digits++;
  return `${shown} (${Number(o.measured.toPrecision(digits))}; the limit is ${o.limit})`;
}

/**
 * Every assertion's line, then a count when any failed, with the exit code it gives: 3, unless
 * a code that outranks it ends the command (a failed run exits 1, one stopped by a signal
 * 130 or 143): "(exit 3)" was printed beside an exit 1.
 * @param {import('../analysis/assert-evaluate.js').AssertionOutcome[]} outcomes
 * @param {{ outranked?: number|null, unwritten?: boolean }} [exit] outranked: the exit code the command ends with instead of 3;
 *   unwritten: it is 1 because an output file (--out, --html, --log-file) could not be written, not because the run failed
 * @returns {string}
 */
export function formatAssertions(outcomes, { outranked = null, unwritten = false } = {}) {
  const lines = outcomes.map(formatAssertionLine);
  const failed = outcomes.filter((o) => !o.pass).length;
  const why = outranked !== 1 ? 'the run was stopped' : unwritten ? 'an output file could not be written (below)' : 'the run failed';
  const exit = outranked ? `exit ${outranked}, not 3: ${why}` : 'exit 3';
  if (failed > 0) lines.push(`${failed} of ${outcomes.length} assertion${outcomes.length === 1 ? '' : 's'} failed (${exit})`);
  return lines.join('\n');
}

/**
 * Why a gate on throughput or latency had no figure to read (src/analysis/metrics.js: succeededFigures).
 * @type {Record<string, string>}
 */
export const WHY = {
  'no-successes': 'no successful responses were measured: only successes count',
  'no-responses': 'no response was measured: the measured phase was empty',
  'stopped-early': 'the run was stopped before its end: the figure covers only the part measured',
  'generator-stopped': 'spawnbench itself was stopped while measuring (Ctrl-Z, SIGSTOP): its figures hold the gap, not the server\'s; run again without stopping it',
  'run-failed': 'the run failed (FAILED above): its figures cover only what came before',
  'stopped-answering': 'the server stopped answering (note above): the requests it left unanswered are in no figure',
  'lost-requests-endpoint': 'the server never answered some requests while it answered others (note above), and which endpoints they went to is not known: this endpoint\'s figure may leave some of them out',
  'baseline-stopped-early': 'the --against baseline was stopped before its end: its figures cover part of its run, so no change against it is the target\'s; measure a baseline to its end',
  'baseline-failed': 'the --against baseline\'s run failed (its server crashed or stopped answering): its figures cover part of its run, so no change against it is the target\'s; measure a baseline that ran to its end',
  'lost-requests': 'the server never answered some requests while it answered others (note above): enough of them to reach this figure\'s tail, and they are in no figure',
  'timed-out': 'requests that failed by --timeout took at least that long and are in no latency figure, which holds successes only: enough of them to reach this figure\'s tail',
  'no-rows': 'the comparison has no row: it was stopped before any run ended',
  'comparison-stopped-early': 'the comparison was stopped before its end: a server whose run had not ended has no row to gate; run it to its end',
  'no-endpoints': 'the result has no figures per endpoint (a run without --mix, or a compare row): gate the whole, without the braces',
  'ambiguous-endpoint': 'more than one endpoint of the mix answers to that name; name one by its name, or METHOD path with its query',
  unsolicited: 'the server also sent responses no request asked for (note above): a broken stream fails the gate',
  outside: 'needs the in-process probe, which a server measured from outside (--url) does not have: start it under spawnbench (-- <command>) to gate on it',
};

/**
 * Why an endpoint's gate had no figure: no such endpoint, none of its requests drawn, or WHY (more than one answers to it, …).
 * @param {import('../analysis/assert-evaluate.js').AssertionOutcome} o
 */
function endpointWhy(o) {
  const name = cleanText(o.endpoint ?? '', 200);
  if (!o.why) return `no endpoint '${name}' in the result's mix; name one by its name or METHOD path`;
  if (o.why === 'no-responses') return `no request to '${name}' was measured: a small weight in a short run may draw it 0 times`;
  return WHY[o.why] ?? notMeasuredReason(o.metric);
}

/**
 * Why a probe gate had no figure, where the probe was on and said why it reported nothing; null otherwise.
 * @param {import('../analysis/assert-evaluate.js').AssertionOutcome} o
 */
function probeSilence(o) {
  if (!o.probeReason || o.probeReason === 'probe not enabled') return null;
  return `needs the in-process probe, which reported nothing: ${cleanText(o.probeReason, 300)}`;
}

/** @param {string} metric */
function notMeasuredReason(metric) {
  if (metricOf(metric)?.needs === 'probe') return 'needs the in-process probe: drop --no-probe, and the server must run on Node, Bun or Deno';
  if (metric.endsWith('-change')) return 'needs --against with a baseline that has this figure';
  return 'the result holds no such figure: nothing was measured';
}
