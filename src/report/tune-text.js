/**
 * The text of a tune result: what was swept, the evidence table (median of the
 * repeats with their min–max), the USL fit, the search and the recommendation.
 * Plain TuneResult in, string out; printed after the sweep and by `report`.
 */
import { int, ms } from './text-format.js';
import { wordRecommendation } from './tune-words.js';
import { describeLoad, describeMachine } from './describe.js';
import { targetWords } from './target-text.js';
import { balanceCell, formatServerProcesses, policyNotTunedSentences, processSweepSentences } from './own-server.js';
import { policyLabel } from '../labels.js';
import { formatSpawnLine, fasterSpawnHint } from './runtimes-text.js';
import { downstreamName, errorLabel, otherUserText, quote } from './reasons.js';
import { cleanText } from '../untrusted-text.js';
import { failureLine } from './compare-text.js';
import { runsOutcome } from '../analysis/request-outcome.js';
import { rowFailureWarning, WARNING_PREFIX } from './outcome.js';

/**
 * @param {object} result TuneResult (src/tune/tune-engine.js)
 * @returns {string}
 */
export function formatTune(result) {
  const { plan, machine } = result;
  const rec = wordRecommendation(result.recommendation);
  const lines = [`spawnbench tune · ${describeSweep(plan)}`];
  if (machine) lines.push(describeMachine(machine));
  const spawnLine = formatSpawnLine(result.runtimes);
  if (spawnLine) lines.push(spawnLine);
  lines.push('', ...formatEvidence(rec.cells, rec, result.balance ?? null, result.workers ?? null));
  lines.push(...cellWarnings(result).map((w) => `${WARNING_PREFIX}${w}`), '');
  if ((rec.sizes ?? []).some((x) => x.policies > 1)) lines.push(...formatSizes(rec.sizes, rec), '');
  const neighbours = formatNeighbours(result, rec);
  if (neighbours.length) lines.push(...neighbours, '');
  if (result.usl && result.usl.shown !== false) lines.push(formatUsl(result.usl));
  lines.push(formatSearch(result.search, result.steps ?? []));
  const serverProcesses = formatServerProcesses(result.processes);
  if (serverProcesses.length) lines.push('', ...serverProcesses);
  lines.push('', rec.size === null ? 'No recommendation' : 'Recommendation', ...[...rec.sentences, ...policyNotTunedSentences(rec, plan), ...processSweepSentences(result)].map((s) => `  ${s}`));
  const hint = fasterSpawnHint(result.runtimes);
  if (hint) lines.push(`  Also: ${hint}.`);
  for (const failure of stepFailures(result.steps)) lines.push(`step failed: ${failure}`);
  for (const note of result.notes ?? []) lines.push(`note: ${note}`);
  return lines.join('\n');
}

/**
 * What went wrong inside measured steps (a crash, a server that daemonised mid-run, no
 * response at all), each reason once with the sizes it hit: the table shows only their figures.
 * @param {object[]|undefined} steps
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

/** "strategy fork-pool · workload echo · closed loop, 30 connections, 3s after 1s warm-up · sizes 1,2,4 × 4 policies × 3 repeats" */
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
 * @param {object} result TuneResult
 * @returns {string[]}
 */
export function cellWarnings(result) {
  return (result.recommendation?.cells ?? []).flatMap((c) => {
    const outcome = runsOutcome((result.steps ?? []).filter((s) => s.size === c.size && s.policy === c.policy));
    return outcome.mostlyFailed ? [rowFailureWarning(`pool ${c.size} ${policyLabel(c.policy)}`, outcome)] : [];
  });
}

/**
 * The evidence table: one row per measured (size, policy).
 * @param {object[]} cells from the recommendation
 * @param {{ size: number|null, policy: string|null, bestCell: object|null,
 *   basis?: { failedSizes?: import('../analysis/recommend.js').FailedSize[] } }} rec
 * @param {object[]|null} [balance] a user's server: how evenly its workers shared each cell's work (cellBalances)
 * @returns {string[]}
 */
export function formatEvidence(cells, rec, balance = null, workers = null) {
  if (cells.length === 0) return ['(no step measured to completion)'];
  const busy = workers?.length ? workers : null;
  const rows = cells.map((c) => {
    const marks = [];
    if (c.size === rec.size && c.policy === rec.policy) marks.push('← recommended');
    if (rec.bestCell && c.size === rec.bestCell.size && c.policy === rec.bestCell.policy) marks.push('best throughput');
    if (c.failed) marks.push(`failed: ${c.failed}`);
    // A size with errors: its most frequent error and text in the row (the recommendation says more).
    const why = c.errors > 0 && !c.failed ? (rec.basis?.failedSizes ?? []).find((f) => f.size === c.size && f.kind) : null;
    if (why) marks.push(`${errorLabel(why)}${why.text ? ` ${quote(cleanText(why.text, 60))}` : ''}`);
    const row = [String(c.size), policyLabel(c.policy), range(c.rps, int), range(c.p99Ms, msValue), int(c.errors)];
    if (balance) row.push(balanceCell(balance.find((b) => b.size === c.size && b.policy === c.policy)));
    if (busy) row.push(...workersCell(busy.find((b) => b.size === c.size && b.policy === c.policy)));
    return [...row, marks.join(', ')];
  });
  const header = ['pool', 'policy', 'req/s (min–max)', 'p99 ms (min–max)', 'errors', ...(balance ? ['busiest'] : []), ...(busy ? ['workers busy', 'main'] : []), ''];
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const right = new Set([0, 2, 3, 4, ...(balance ? [5] : []), ...(busy ? [header.length - 3, header.length - 2] : [])]);
  const line = (r) => r.map((v, i) => (right.has(i) ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

/**
 * Figures per pool size over all its clean policies (what the size is chosen on).
 * @param {object[]} sizes from the recommendation
 * @param {{ size: number|null, best: object|null }} rec
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
  const line = (r) => r.map((v, i) => (i === 4 ? v : v.padStart(widths[i]))).join('  ').trimEnd();
  return [line(header), ...rows.map(line)];
}

/**
 * The "workers busy" and "main" cells of a user's server: `2 × 97% CPU` (how many workers were seen,
 * their mean busy share, and CPU where that is their CPU time because ELU counted their waiting),
 * and the main thread's busy share; without workers, `4 other, 160% CPU`: the main process's other
 * threads that worked (libuv's pool, V8's) and their CPU together.
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
 * @returns {string[]}
 */
export function formatNeighbours(result, rec) {
  const lines = [];
  const bySize = result.downstreamsBySize ?? [];
  if (bySize.length > 0) {
    lines.push('Downstream connections per size (most at once)');
    const width = Math.max(4, ...bySize.map((x) => String(x.size).length));
    for (const { size, downstreams } of bySize) {
      lines.push(`${String(size).padStart(width)}  ${downstreams.map((d) => `${downstreamName(d)} ${int(d.connections)}`).join(', ')}`);
    }
  }
  const at = rec.best?.size ?? rec.size;
  const users = (result.otherUsersBySize ?? []).find((x) => x.size === at) ?? (result.otherUsersBySize ?? []).at(-1);
  if (users) lines.push(`Other CPU users at ${users.size} worker${users.size === 1 ? '' : 's'}: ${users.users.map(otherUserText).join(', ')}`);
  return lines;
}

function range(s, format) {
  if (s.median === null) return '–';
  return s.n > 1 ? `${format(s.median)} (${format(s.min)}–${format(s.max)})` : format(s.median);
}

/** "USL fit (round-robin): σ 0.120 contention, κ 0.0100 coherency, peak ≈ 9.5 workers, R² 0.97" */
export function formatUsl(usl) {
  const peak = Number.isFinite(usl.peak) ? `peak ≈ ${usl.peak.toFixed(1)} workers` : 'no peak (throughput still rising)';
  return `USL fit (${usl.policy}): σ ${usl.sigma.toFixed(3)} contention, κ ${usl.kappa.toFixed(4)} coherency, ${peak}, R² ${usl.r2.toFixed(2)}`;
}

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

/** Milliseconds without the unit (the column header names it). */
function msValue(n) {
  return ms(n).replace(/ ms$/, '');
}
