/**
 * The plain-text summary of a run: plain RunResult in, string out. The same string
 * ends the dashboard, is printed without a TTY, and is re-printed by `report`.
 */
import { int, bytes, seconds } from './text-format.js';
import { formatProcesses } from './processes-text.js';
import { describeLoad, describeMachine } from './describe.js';
import { formatRunAdvice } from './run-advice-summary.js';
import { formatSpawnLine } from './runtimes-text.js';
import { describeSizeKnob, describeServer } from './own-server.js';
import { targetWords } from './target-text.js';
import { targetOf } from '../base/target-kinds.js';
import { succeededPart, outcomeAlarm } from './outcome.js';
import { formatWorkerDeaths } from './worker-deaths-text.js';
import { formatSpawnFailures } from './spawn-failures-text.js';
import { requestOutcome } from '../analysis/request-outcome.js';
import { metricsBlock } from '../analysis/metrics.js';
import { formatLatencyFigures, formatOtherMetrics, figuresOnLine, describeFigure } from './metric-text.js';
import { reasonLines } from './reasons.js';
import { formatEndpoints } from './endpoints-text.js';

const ERROR_KINDS = [
  ['connect', 'connect failed'],
  ['reset', 'reset'],
  ['timeout', 'timeout'],
  ['parse', 'bad response'],
  ['mismatch', 'body mismatch'],
  ['non2xx', 'non-2xx'],
  ['tls', 'TLS handshake'],
];

/**
 * A RunResult (src/base/result-types.js) as read here: the fields the summary shows, the rest as the file holds it.
 * @typedef {Record<string, any> & { load: Record<string, any>, outcome?: RequestOutcome, metrics?: MetricFigure[] }} RunDoc
 */
/** @typedef {import('../analysis/metrics.js').MetricFigure} MetricFigure */
/** @typedef {import('../analysis/request-outcome.js').RequestOutcome} RequestOutcome */

/**
 * @param {RunDoc} result RunResult
 * @param {{ columns?: number }} [options] width of the wrapped Recommendation block (80); the HTML report
 *   asks for Infinity, so no command is cut over lines and every one copies as is
 * @returns {string}
 */
export function formatSummary(result, { columns } = {}) {
  const { plan, machine, load } = result;
  const lines = [
    `spawnbench run · ${describeTarget(plan)}`,
    `${describeRequests(plan)} · ${describeLoad(plan.load, { connections: load.connections ?? plan.load.connections })}`,
    ...ownServerLines(result),
    describeMachine(machine),
    ...spawnLines(result.runtimes),
    '',
    ...formatHeadline(result),
    ...formatEndpoints(load),
    ...reasonLines(result),
    ...formatSpawnFailures(result.spawnFailures, { attempts: spawnAttempts(result), rps: load.rps ?? null }),
    ...formatWorkerDeaths(result.workerDeaths),
  ];
  if (load.mode === 'open') {
    lines.push(`Schedule   ${int(load.missed)} request${load.missed === 1 ? '' : 's'} could not be sent on time (latency is timed from when each was due)`);
  }
  const processes = result.samples ? formatProcesses(result.samples, result.strategy?.workers ?? []) : '';
  if (processes) lines.push('', processes);
  for (const failure of result.failures ?? []) lines.push('', `FAILED: ${failure}`);
  for (const note of result.notes ?? []) lines.push(`note: ${note}`);
  // A RunDoc is a RunResult read loosely (a file of any version): the advice block reads it as one.
  lines.push('', ...formatRunAdvice(/** @type {import('../base/result-types.js').RunResult} */ (result), { columns }));
  return lines.join('\n');
}

/**
 * The requests sent, which the failed spawns are a share of (a result from before outcome: requests and errors).
 * @param {RunDoc} result
 * @returns {number|null}
 */
export function spawnAttempts(result) {
  const attempts = result.outcome?.attempts ?? (result.load?.requests ?? 0) + (result.load?.errors?.total ?? 0);
  return Number.isFinite(attempts) ? attempts : null;
}

/**
 * The figures under the header, run and diagnose alike, from the result's metrics block
 * (the metric table's figures): the Requests, Latency and Errors lines, each showing the
 * figures the metric words place on it, then a Metrics line for any metric of the table
 * none of them shows.
 * @param {RunDoc} result
 * @returns {string[]}
 */
export function formatHeadline(result) {
  const figures = metricsBlock(result);
  const [errors, ...alsoErrors] = figuresOnLine(figures, 'errors');
  return [
    ...formatRequests(result, figures),
    `Latency    ${formatLatencyFigures(figures, (result.load.succeededLatency ?? result.load.latency)?.meanMs)}`,
    `Errors     ${formatErrors(result.load, errors)}${alsoErrors.map((f) => `   ${describeFigure(f)}`).join('')}`,
    ...formatOtherMetrics(figures),
  ];
}

/**
 * The throughput line, with how much of it succeeded (the first figure the metric words place
 * on it: rps, successful responses a second; any other after the bytes), under the line that
 * says most requests failed when they did (run and diagnose). A saved result from before
 * `outcome` was recorded gets it from its load figures.
 * @param {RunDoc} result
 * @param {MetricFigure[]} [figures] its metrics block
 * @returns {string[]}
 */
export function formatRequests(result, figures = metricsBlock(result)) {
  const { load } = result;
  const outcome = result.outcome ?? requestOutcome(load);
  const alarm = outcomeAlarm(outcome, load.requests);
  const [succeeded, ...others] = figuresOnLine(figures, 'requests');
  // The line's own figures: every response's count and rate (a 500 counts), time and bytes.
  const all = `${int(load.requests)} in ${seconds(load.durationMs)}   ${int(load.rps)} req/s`;
  return [
    ...(alarm ? [alarm] : []),
    `Requests   ${all}${succeededPart(outcome, load.requests, succeeded?.value)}   ${bytes(load.bytes)} received${others.map((f) => `   ${describeFigure(f)}`).join('')}`,
  ];
}

/**
 * The strategy's runtimes and how they spawn, one line ("spawns by fork (Node 20.20.2, libuv 1.46.0)"); none when unknown.
 * @param {Parameters<typeof formatSpawnLine>[0]} runtimes
 */
function spawnLines(runtimes) {
  const line = formatSpawnLine(runtimes);
  return line ? [line] : [];
}

/**
 * A user's server: where its size came from, and what served the port behind which launchers.
 * @param {RunDoc} result
 */
function ownServerLines(result) {
  if (!targetOf(result.plan.target).command) return [];
  return [...describeSizeKnob(result.sizeKnob ?? null), describeServer(result.server ?? null, { daemonised: Boolean(result.target?.daemonised) })].filter(Boolean);
}

/**
 * "strategy fork-pool (4 workers, p2c, node)", "url http://…" or "command 'node server.js'"
 * @param {Record<string, any>} plan
 */
export function describeTarget(plan) {
  return targetWords(plan.target).label(plan.target);
}

/**
 * What each request does: the workload a strategy runs, or, with --url, the request sent.
 * @param {Record<string, any>} plan
 */
function describeRequests(plan) {
  if (plan.load.mix) return `a mix of ${plan.load.mix.length} endpoint${plan.load.mix.length === 1 ? '' : 's'}, drawn by weight (seed ${plan.load.seed})`;
  return targetWords(plan.target).requests(plan);
}


/**
 * "none" or "12: timeout 2, non-2xx 10 (500 ×10)": the total from the errors metric's figure
 * (the load's for a caller without one), by kind and status from the load.
 * @param {Record<string, any>} load
 * @param {import('../analysis/metrics.js').MetricFigure} [figure] the errors metric's figure
 */
export function formatErrors(load, figure) {
  const e = load.errors ?? {};
  const total = figure ? figure.value : e.total;
  if (!total) return 'none';
  const parts = ERROR_KINDS.filter(([k]) => e[k] > 0).map(([k, label]) => `${label} ${int(e[k])}`);
  const statuses = Object.entries(load.statuses ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, n]) => `${status} ×${int(/** @type {number} */ (n))}`);
  return `${int(total)}: ${parts.join(', ')}${statuses.length ? ` (${statuses.join(', ')})` : ''}`;
}
