/**
 * The text of a tune result: what was swept, the evidence table (a column per
 * metric of the table its cells have: the median of the repeats with their
 * min–max where they carry it), the USL fit, the search and the recommendation.
 * Plain TuneResult in, string out; printed after the sweep and by `report`.
 */
import { int, ms } from './text-format.js';
import { wordRecommendation, sizeUnit } from './tune-words.js';
import { describeLoad, describeMachine } from './describe.js';
import { targetWords } from './target-text.js';
import { balanceCell, formatServerProcesses, policyNotTunedSentences, processSweepSentences } from './own-server.js';
import { policyLabel } from '../base/labels.js';
import { formatSpawnLine, fasterSpawnHint } from './runtimes-text.js';
import { downstreamName, errorLabel, otherUserText, quote } from './reasons.js';
import { cleanText } from '../base/untrusted-text.js';
import { failureLine } from './compare-text.js';
import { runsOutcome } from '../analysis/request-outcome.js';
import { rowFailureWarning, WARNING_PREFIX } from './outcome.js';
import { measureCellMetrics } from '../analysis/metrics.js';
import { stepsOfCell } from '../analysis/cells.js';
import { metricColumns, textColumns } from './metric-columns.js';

/**
 * A TuneResult (src/base/result-types.js) as read here, each part as the file holds it.
 * @typedef {Record<string, any>} TuneDoc
 */
/** @typedef {Record<string, any> & { size: number, policy: string|null, metrics?: MetricFigure[] }} TuneCell a cell of the recommendation (src/analysis/cells.js) */
/** @typedef {import('../analysis/metrics.js').MetricFigure} MetricFigure */

/**
 * @param {TuneDoc} result TuneResult (src/tune/tune-engine.js)
 * @returns {string}
 */
export function formatTune(result) {
  const { plan, machine } = result;
  const rec = wordRecommendation(result.recommendation, sizeUnit(plan));
  const lines = [`spawnbench tune · ${describeSweep(plan)}`];
  if (machine) lines.push(describeMachine(machine));
  const spawnLine = formatSpawnLine(result.runtimes);
  if (spawnLine) lines.push(spawnLine);
  lines.push('', ...formatEvidence(rec.cells, rec, result.balance ?? null, result.workers ?? null, result.steps ?? []));
  lines.push(...cellWarnings(result).map((w) => `${WARNING_PREFIX}${w}`), '');
  if ((rec.sizes ?? []).some((x) => x.policies > 1)) lines.push(...formatSizes(rec.sizes, rec), '');
  const neighbours = formatNeighbours(result, rec);
  if (neighbours.length) lines.push(...neighbours, '');
  if (result.usl && result.usl.shown !== false) lines.push(formatUsl(result.usl));
  lines.push(formatSearch(result.search, result.steps ?? []));
  const serverProcesses = formatServerProcesses(result.processes);
  if (serverProcesses.length) lines.push('', ...serverProcesses);
  lines.push('', rec.size === null ? 'No recommendation' : 'Recommendation', ...shownSentences(result).map((s) => `  ${s}`));
  const hint = fasterSpawnHint(result.runtimes);
  if (hint) lines.push(`  Also: ${hint}.`);
  for (const failure of stepFailures(result.steps)) lines.push(`step failed: ${failure}`);
  for (const note of result.notes ?? []) lines.push(`note: ${note}`);
  return lines.join('\n');
}

/**
 * The recommendation's sentences as every view shows them: the recommendation's own, the policy that was not
 * tuned, and a `--processes` sweep's gain and how to run that many (the HTML showed only the first).
 * @param {TuneDoc} result
 * @returns {string[]}
 */
export function shownSentences(result) {
  if (!result.recommendation) return [];
  const rec = wordRecommendation(result.recommendation, sizeUnit(result.plan));
  return [...(rec.sentences ?? []), ...policyNotTunedSentences(rec, result.plan ?? null), ...processSweepSentences(/** @type {Parameters<typeof processSweepSentences>[0]} */ (result))];
}

/**
 * What went wrong inside measured steps (a crash, a server that daemonised mid-run, no
 * response at all), each reason once with the sizes it hit: the table shows only their figures.
 * @param {Array<Record<string, any>>|undefined} steps
 * @returns {string[]}
 */
function stepFailures(steps) {
  const bySize = new Map();
  for (const step of steps ?? []) {
    for (const failure of step.failures ?? []) {
      const line = failureLine(failure);
      if (!bySize.has(line)) bySize.set(line, new Set());
      bySize.get(line).add(step.size);
    }
  }
  return [...bySize].map(([line, sizes]) => `pool ${[...sizes].join(', ')}: ${line}`);
}

/**
 * "strategy fork-pool · workload echo · closed loop, 30 connections, 3s after 1s warm-up · sizes 1,2,4 × 4 policies × 3 repeats"
 * @param {Record<string, any> & { base: any, knobs: any }} plan
 */
function describeSweep(plan) {
  const base = plan.base;
  const what = targetWords(base.target).sweep(plan);
  return [
    ...what,
    describeLoad(base.load, { per: 'step' }),
    `sizes ${plan.sizes.join(',')} × ${plan.policies.length === 1 ? policyLabel(plan.policies[0]) : `${plan.policies.length} policies`} × ${plan.repeat} repeat${plan.repeat === 1 ? '' : 's'}, ${plan.search}`,
  ].join(' · ');
}

/**
 * A warning per measured (size, policy) whose requests mostly failed (MOSTLY_FAILED_SHARE):
 * its figures describe the failures more than the pool. The HTML report shows the same.
 * @param {TuneDoc} result TuneResult
 * @returns {string[]}
 */
export function cellWarnings(result) {
  /** @type {TuneCell[]} */
  const cells = result.recommendation?.cells ?? [];
  return cells.flatMap((c) => {
    const outcome = runsOutcome((result.steps ?? []).filter((/** @type {Record<string, any>} */ s) => s.size === c.size && s.policy === c.policy));
    return outcome.mostlyFailed ? [rowFailureWarning(`pool ${c.size} ${policyLabel(c.policy)}`, outcome)] : [];
  });
}

/**
 * The evidence table: one row per measured (size, policy).
 * @param {TuneCell[]} cells from the recommendation
 * @param {{ size: number|null, policy: string|null, bestCell: TuneCell|null,
 *   basis?: { failedSizes?: import('../analysis/recommend.js').FailedSize[] } }} rec
 * @param {Array<Record<string, any> & { ratio: number, id: string }>|null} [balance] a user's server: how evenly its workers shared each cell's work (cellBalances)
 * @param {Array<Record<string, any>>|null} [workers] a user's server: its workers per cell (cellWorkers)
 * @param {Array<Record<string, any>>} [steps] the sweep's steps: a cell's figures for a result saved before cells had them
 * @returns {string[]}
 */
export function formatEvidence(cells, rec, balance = null, workers = null, steps = []) {
  if (cells.length === 0) {
    // Steps that ended with too few responses to rank did complete: "(no step measured to completion)" was said of them.
    return [steps.some((s) => s.tooFew && !s.partial) ? '(no step had enough responses to rank: see below)' : '(no step measured to completion)'];
  }
  const busy = workers?.length ? workers : null;
  const columns = textColumns(tuneColumns(cells, steps));
  const rows = cells.map((c) => {
    const marks = [];
    if (c.size === rec.size && c.policy === rec.policy) marks.push('← recommended');
    if (rec.bestCell && c.size === rec.bestCell.size && c.policy === rec.bestCell.policy) marks.push('best throughput');
    // One line: a crash's reason carries the server's stderr on the lines after it, which broke the table.
    if (c.failed) marks.push(`failed: ${failureLine(c.failed)}`);
    // A size with errors: its most frequent error and text in the row (the recommendation says more).
    const why = c.errors > 0 && !c.failed ? (rec.basis?.failedSizes ?? []).find((f) => f.size === c.size && f.kind) : null;
    if (why) marks.push(`${errorLabel(why)}${why.text ? ` ${quote(cleanText(why.text, 60))}` : ''}`);
    const row = [String(c.size), policyLabel(c.policy), ...columns.map((column) => column.cell(c, cellFigures(c, steps)))];
    if (balance) row.push(balanceCell(balance.find((b) => b.size === c.size && b.policy === c.policy)));
    if (busy) row.push(...workersCell(busy.find((b) => b.size === c.size && b.policy === c.policy)));
    return [...row, marks.join(', ')];
  });
  const header = ['pool', 'policy', ...columns.map((column) => column.header), ...(balance ? ['busiest'] : []), ...(busy ? ['workers busy', 'main'] : []), ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  // Right-aligned: the pool size, the figures (the metrics', then the busiest and workers columns); left: the policy and the remarks.
  const right = new Set(header.map((h, i) => i).filter((i) => i !== 1 && i !== header.length - 1));
  const line = (/** @type {string[]} */ r) => r.map((v, i) => (right.has(i) ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

/**
 * A cell's metrics block (src/analysis/metrics.js): the one it carries, or, for a result saved
 * before cells had one, measured now from the cell and its steps.
 * @param {TuneCell} cell
 * @param {Array<Record<string, any>>} steps the sweep's steps
 * @returns {MetricFigure[]}
 */
export function cellFigures(cell, steps) {
  return Array.isArray(cell.metrics) ? cell.metrics : measureCellMetrics(cell, stepsOfCell(/** @type {any[]} */ (steps), cell));
}

/**
 * The metric columns of a tune's table (src/report/metric-columns.js): every metric its cells
 * have a figure of.
 * @param {TuneCell[]} cells
 * @param {Array<Record<string, any>>} steps the sweep's steps
 * @returns {import('./metric-columns.js').MetricColumn[]}
 */
export function tuneColumns(cells, steps) {
  return metricColumns(cells.map((c) => cellFigures(c, steps)));
}

/**
 * Figures per pool size over all its clean policies (what the size is chosen on).
 * @param {Array<Record<string, any>>} sizes from the recommendation
 * @param {{ size: number|null, best: { size: number }|null }} rec
 * @returns {string[]}
 */
export function formatSizes(sizes, rec) {
  const rows = sizes.map((x) => [
    String(x.size),
    range(x.rps, int),
    range(x.p99Ms, msValue),
    String(x.policies),
    [x.size === rec.size ? '← recommended size' : '', rec.best && x.size === rec.best.size ? 'best size' : ''].filter(Boolean).join(', '),
  ]);
  const header = ['pool', 'req/s all policies', 'p99 ms', 'policies', ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (/** @type {string[]} */ r) => r.map((v, i) => (i === 4 ? v : v.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

/**
 * The "workers busy" and "main" cells of a user's server: `2 × 97% CPU` (how many workers were seen,
 * their mean busy share, and CPU where that is their CPU time because ELU counted their waiting),
 * and the main thread's busy share; without workers, `4 other, 160% CPU`: the main process's other
 * threads that worked (libuv's pool, V8's) and their CPU together.
 * @param {Record<string, any>|undefined} w the cell's workers (cellWorkers)
 * @returns {[string, string]}
 */
function workersCell(w) {
  if (!w) return ['–', '–'];
  const main = Number.isFinite(w.mainBusy) ? `${Math.round(w.mainBusy * 100)}%` : '–';
  // No worker: the main process's other threads (libuv's pool, V8's), how many worked and their CPU together.
  if (!(w.workers > 0)) {
    const o = w.otherThreads;
    return [Number.isFinite(o?.cpuPct) ? `${Math.round(o.busy ?? 0)} other, ${Math.round(o.cpuPct)}% CPU` : '–', main];
  }
  const kind = w.workerKind === 'thread' ? ' thr' : '';
  const from = w.busyFrom === 'cpu' ? ' CPU' : w.busyFrom === 'mixed' ? ' mix' : '';
  const busy = Number.isFinite(w.busy) ? ` × ${Math.round(w.busy * 100)}%${from}` : '';
  return [`${Math.round(w.workers)}${kind}${busy}`, main];
}

/**
 * The server's downstream connections per size and who else used the CPU at the best size
 * (or the recommended one): where the limit may lie outside the server.
 * @param {TuneDoc} result
 * @param {{ size: number|null, best?: { size: number }|null }} rec
 * @returns {string[]}
 */
export function formatNeighbours(result, rec) {
  const lines = [];
  /** @type {Array<{ size: number, downstreams: Array<Record<string, any>> }>} */
  const bySize = result.downstreamsBySize ?? [];
  if (bySize.length > 0) {
    lines.push('Downstream connections per size (most at once)');
    const width = Math.max(4, ...bySize.map((x) => String(x.size).length));
    for (const { size, downstreams } of bySize) {
      lines.push(`${String(size).padStart(width)}  ${downstreams.map((d) => `${downstreamName(/** @type {{ peer: string, name?: string }} */ (d))} ${int(d.connections)}`).join(', ')}`);
    }
  }
  const at = rec.best?.size ?? rec.size;
  /** @type {Array<{ size: number, users: Array<Record<string, any>> }>} */
  const bySizeUsers = result.otherUsersBySize ?? [];
  const users = bySizeUsers.find((x) => x.size === at) ?? bySizeUsers.at(-1);
  if (users) lines.push(`Other CPU users at ${users.size} worker${users.size === 1 ? '' : 's'}: ${users.users.map(otherUserText).join(', ')}`);
  return lines;
}

/**
 * '1,204 (1,100–1,300)': the median and, over several repeats, their min–max; '–' when not measured.
 * @param {{ median: number|null, min: number|null, max: number|null, n: number }} s
 * @param {(n: number|null) => string} format
 */
function range(s, format) {
  if (s.median === null) return '–';
  return s.n > 1 ? `${format(s.median)} (${format(s.min)}–${format(s.max)})` : format(s.median);
}

/**
 * "USL fit (round-robin): σ 0.120 contention, κ 0.0100 coherency, peak ≈ 9.5 workers, R² 0.97"
 * @param {Record<string, any>} usl the result's usl
 */
export function formatUsl(usl) {
  const peak = Number.isFinite(usl.peak) ? `peak ≈ ${usl.peak.toFixed(1)} workers` : 'no peak (throughput still rising)';
  return `USL fit (${usl.policy}): σ ${usl.sigma.toFixed(3)} contention, κ ${usl.kappa.toFixed(4)} coherency, ${peak}, R² ${usl.r2.toFixed(2)}`;
}

/**
 * @param {Record<string, any>} search the result's search
 * @param {Array<Record<string, any>>} steps
 */
function formatSearch(search, steps) {
  const partial = steps.filter((s) => s.partial).length;
  const few = steps.filter((s) => s.tooFew).length;
  const extended = steps.filter((s) => s.extended).length;
  const stopped = [
    partial ? `; ${partial} stopped early, not used` : '',
    extended ? `; ${extended} measured past -d to get enough responses (longest ${(Math.max(...steps.filter((s) => s.extended).map((s) => s.durationMs)) / 1000).toFixed(1)} s)` : '',
    few ? `; ${few} with too few responses to rank, not used` : '',
  ].join('');
  if (search.mode !== 'adaptive') return `Search: exhaustive, ${search.measuredSteps} of ${search.exhaustiveSteps} steps measured${stopped}`;
  const share = search.exhaustiveSteps > 0 ? Math.round((search.savedSteps / search.exhaustiveSteps) * 100) : 0;
  return `Search: adaptive, ${search.measuredSteps} steps measured instead of ${search.exhaustiveSteps} (${search.savedSteps} saved, ${share}%)${stopped}`;
}

/**
 * Milliseconds without the unit (the column header names it).
 * @param {number|null} n
 */
function msValue(n) {
  return ms(n).replace(/ ms$/, '');
}
