/**
 * The words of tune's recommendation and of the bottleneck finder: sentences
 * made from the reason codes and figures that src/analysis/recommend.js and
 * src/analysis/bottleneck.js return. The recommendation's wording changes here
 * and nowhere else; the text summary and `--json` (`sentences`, `text`) read it.
 */
import { RPS_BAND, P99_BAND, TUNE_MIN_RESPONSES, TUNE_P99_MULTIPLE } from '../base/thresholds.js';
import { budgetAmount, BUDGET_SOURCE_WORDS } from '../base/labels.js';
import { cleanText } from '../base/untrusted-text.js';
import { downstreamName, errorLabel, quote } from './reasons.js';
import { int } from './text-format.js';
import { failureLine } from './compare-text.js';
import { THREADPOOL_ENV, VIPS_ENV } from '../analysis/size-knob.js';

/**
 * A limit's figures: free-form per kind (src/analysis/bottleneck.js Finding.figures; the run
 * advice's reasons pass theirs), and a result file from an older version may lack some.
 * @typedef {Record<string, any>} Figures
 */

/** @typedef {import('../analysis/cells.js').Cell} Cell */
/** @typedef {import('../analysis/cells.js').SizeFigures} SizeFigures */

/**
 * The size after the best one, and why it did no better (recommend.js pastBest()).
 * @typedef {{ size: number, rps: number, bestRps: number, fell: boolean,
 *   findings: import('../analysis/bottleneck.js').Finding[], checked: Record<string, number|null> }} PastBest
 */

/**
 * A recommendation that picked a size: past nothing-measured, too-few-responses, knob-ignored and all-errors,
 * recommend() sets its size, chosen cell, best size, bottleneck and the basis of the pick.
 * @typedef {import('../analysis/recommend.js').Recommendation & { size: number, chosen: Cell, best: SizeFigures,
 *   basis: { pickedSize: number, bandSize: number, p99Best: number } }} PickedRecommendation
 */

const pctRound = (/** @type {number} */ fraction) => `${Math.round(fraction * 100)}%`;

/**
 * The machine finding's CPU shares, as the sentence names them.
 * @type {Record<string, string>}
 */
const SHARE_NAMES = { workers: 'workers', spawned: 'spawned commands', main: 'main', generator: 'generator' };

/**
 * One bottleneck finding in words, with the figures behind it.
 * @param {{ kind: string, figures: Figures }} finding
 */
export function bottleneckFindingText({ kind, figures: f }) {
  if (kind === 'cpu-quota') return quotaText(f);
  if (kind === 'host') {
    const budget = budgetAmount({ budget: f.cores, source: f.budgetSource });
    return `the host is the limit (its ${f.hostCpus} CPUs ${Math.round(f.systemCpuPct)}% busy, other processes ${f.otherCores.toFixed(1)}): ` +
      `the run got ${Math.round(f.busyPct)}% of its ${budget} (${/** @type {Record<string, string>} */ (BUDGET_SOURCE_WORDS)[f.budgetSource]}); measure on a quieter host`;
  }
  if (kind === 'generator') {
    const busy = f.cpuPctPerThread !== null ? `${Math.round(f.cpuPctPerThread)}% of a core per thread` : `event loop busy ${pctRound(f.generatorElu)}`;
    const more = f.suggestedThreads ? `add --generator-threads ${f.suggestedThreads}` : `it already has a thread per CPU spawnbench may use (${f.threads}): drive the server from another machine, or with wrk`;
    return `the load generator is the limit (${busy}): results are generator-bound; ${more}`;
  }
  if (kind === 'main-thread') {
    const parts = [];
    if (Number.isFinite(f.mainElu)) parts.push(`event loop busy ${pctRound(f.mainElu)}`);
    if (Number.isFinite(f.mainBlocked)) parts.push(`blocked in spawn ${pctRound(f.mainBlocked)}`);
    return `the main thread is the limit (${parts.join(', ')}): more workers will not help`;
  }
  if (kind === 'connections') return connectionsText(f);
  if (kind === 'rate') {
    return `the rate offered is the limit, not the server: the open loop sent ${int(f.rate)} req/s and ${int(f.rps)} req/s were served, so every size that serves it shows the same throughput ` +
      'and only latency tells them apart; to find the server\'s own limit, tune without --rate (a closed loop) or at a higher rate';
  }
  if (kind === 'pool') {
    const noun = f.workerKind === 'thread' ? 'thread' : f.workerKind === 'process' ? 'worker process' : 'worker';
    const plural = f.workers === 1 ? '' : noun === 'worker process' ? 'es' : 's';
    const from = f.busyFrom === 'cpu' ? ', by CPU time: their ELU counted waiting for work' : f.busyFrom === 'mixed' ? ', by ELU or CPU time' : '';
    return `the pool is busy (${f.workers} ${noun}${plural} ${pctRound(f.workersBusy)} busy${from}): it serves what it can at this size`;
  }
  const shares = Object.entries(f.cpuPct).map(([name, v]) => `${SHARE_NAMES[name] ?? name} ${(v / 100).toFixed(1)}`);
  const otherText = f.otherCores !== null ? `, other processes ${f.otherCores.toFixed(1)}` : '';
  if (f.budgetSource && f.budgetSource !== 'host') {
    // A budget narrower than the host: busy against it, named by what set it.
    const budget = budgetAmount({ budget: f.cores, source: f.budgetSource });
    const them = f.otherUsers?.length ? othersClause(f.otherUsers, f.hostCpus ?? f.cores, { host: true }) : `more workers only compete for the same ${budget}`;
    return `the CPU budget is the limit (${budget} by ${/** @type {Record<string, string>} */ (BUDGET_SOURCE_WORDS)[f.budgetSource]}, ${Math.round(f.busyPct)}% busy${shares.length ? `; CPUs used: ${shares.join(', ')}` : ''}): ${them}`;
  }
  const cores = f.cores ? ` of ${f.cores}` : '';
  return `the machine is the limit (cores ${Math.round(f.busyPct ?? f.systemCpuPct)}% busy${shares.length ? `; cores used${cores}: ${shares.join(', ')}${otherText}` : ''}): ${othersClause(f.otherUsers ?? [], f.hostCpus ?? f.cores)}`;
}

/**
 * The quota finding: whose quota, how often it throttled, and what that means for a pool.
 * @param {Figures} f
 */
function quotaText(f) {
  const quota = budgetAmount({ budget: f.quotaCpus, source: 'quota' });
  const periods = `throttled in ${pctRound(f.throttledFraction)} of periods`;
  if (!f.roles.includes('server')) {
    return `spawnbench's own CPU quota (${quota}) is the limit: ${periods}, so the load generator is held back; run spawnbench outside that cgroup`;
  }
  const shared = f.roles.includes('spawnbench') ? ' (spawnbench and its load generator share it)' : '';
  return `the container's CPU quota (${quota}) is the limit: ${periods}${shared}; more workers only split the same quota`;
}

/**
 * Little's law: "30 connections / 2.40 ms (median latency) ≈ 12,500 req/s, the throughput measured".
 * @param {import('../analysis/little-law.js').LittleLaw} f
 */
export function littleLawText(f) {
  const latency = `${fmtMs(f.latencyMs)} (${f.latencyFrom === 'mean' ? 'mean' : 'median'} latency)`;
  return `${int(f.connections)} connections / ${latency} ≈ ${int(f.predictedRps)} req/s, the throughput measured (${int(f.rps)} req/s)`;
}

/**
 * The connection count as the limit, with the figures that show the server had room.
 * @param {Figures} f
 */
function connectionsText(f) {
  // The connections finding's figures are Little's law's (bottleneck.js), with the server's room.
  const law = /** @type {import('../analysis/little-law.js').LittleLaw} */ (f);
  const room = [
    f.busyPct !== null && `cores ${Math.round(f.busyPct)}% busy`,
    f.mainElu !== null && `main thread ${pctRound(f.mainElu)}`,
    f.workersBusy !== null && `workers ${pctRound(f.workersBusy)}`,
  ].filter(Boolean);
  // An open loop far beyond what was answered (bottleneck.js): its rate and what the connections carried.
  const how = Number.isFinite(f.rate) ? `the open loop asked ${int(f.rate)} req/s and ${int(f.connections)} ${f.connections === 1 ? 'connection' : 'connections'} carried ${int(f.rps)}` : littleLawText(law);
  return `the connection count is the limit, not the server: ${how}, while the server had room${room.length ? ` (${room.join(', ')})` : ''}; ` +
    `measure with more connections, e.g. --connections ${f.connections * 2}, to find the server's own limit`;
}

/**
 * Who else took the cores, when one program took a large share; the usual words otherwise.
 * @param {Array<{ name: string, count: number, cores: number, downstream?: string|null }>} users
 * @param {number|null|undefined} cores
 * @param {{ host?: boolean }} [options]
 */
export function othersClause(users, cores, { host = false } = {}) {
  if (users.length === 0) return 'more workers only compete for the same cores';
  // Measured host-wide: `cores` is the host's, "the host's" where the run had a narrower budget.
  const of = cores ? ` of the ${host ? "host's " : ''}${cores} CPUs` : '';
  const named = users.map((u) => `${cleanText(u.name, 40)} ×${u.count} used ${u.cores.toFixed(1)}${of}`).join(', ');
  const downstream = users.find((u) => u.downstream);
  if (downstream) {
    return `${named}; ${cleanText(downstream.name, 40)} is the server's own downstream (${cleanText(downstream.downstream, 80)}), so the server and it compete for the same CPUs: more workers only take CPU from it (move one of them to other cores or another machine, or size the pool for what is left)`;
  }
  return `${named}; more workers only compete with ${users.length === 1 ? 'it' : 'them'}`;
}

/**
 * Why a size failed, in one sentence: "3 workers: 500 ×821 'sorry, too many clients already';
 * connections to postgres (127.0.0.1:5432) 20 → 30."
 * @param {import('../analysis/recommend.js').FailedSize} f
 * @param {SizeUnit} [unit] how the sweep names its sizes (`tune --processes`: processes, not workers)
 */
export function failedSizeSentence(f, unit = WORKERS_UNIT) {
  const count = unit.count;
  if (f.failed) return `${capital(count(f.size))}: failed (${cleanText(failureLine(f.failed))}).`;
  const parts = [];
  if (f.kind) parts.push(`${errorLabel(f)} ×${int(f.count)}${f.text ? ` ${quote(f.text)}` : ''}`);
  else parts.push(`${int(f.errors)} errors`);
  if (f.stderr && (!f.text || !f.stderr.text.includes(f.text))) parts.push(`its stderr said ${quote(f.stderr.text)} ×${int(f.stderr.count)}`);
  const d = f.downstream;
  if (d) {
    parts.push(d.from !== null ? `connections to ${downstreamName(d)} ${int(d.from)} → ${int(d.to)}` : `${int(d.to)} connections to ${downstreamName(d)}`);
  }
  return `${capital(count(f.size))}: ${parts.join('; ')}.`;
}

/**
 * @typedef {{ primary: object|null, findings: object[], known?: boolean, text?: string, past?: object|null }} Bottleneck
 *   from findBottleneck(), with `past` (recommend.js) where a larger size was measured; `text` once worded
 */

/**
 * The bottleneck with its words: each finding gets `text`, the whole a `text`.
 * @param {Bottleneck} found
 * @returns {Bottleneck & { text: string }}
 */
export function wordBottleneck(found) {
  // Worded already (read from a result file).
  if (typeof found.text === 'string') return /** @type {Bottleneck & { text: string }} */ (found);
  // findBottleneck()'s findings and recommend()'s past, which recommend.js's Recommendation types as object.
  const findings = /** @type {import('../analysis/bottleneck.js').Finding[]} */ (found.findings).map((f) => ({ ...f, text: bottleneckFindingText(f) }));
  const past = /** @type {PastBest|null} */ (found.past ?? null);
  let text;
  if (findings.length > 0) text = findings.map((f) => f.text).join('; ');
  else if (past) text = pastText(past);
  else if (found.known) text = 'no limit reached in the samples (main thread, generator and cores all had room), up to the largest size measured';
  else text = 'no sampler figures to say what the limit was';
  return { ...found, primary: findings[0] ?? null, findings, text };
}

/**
 * Throughput did not rise past the best size, and nothing at the best size
 * reached its limit: what the next size shows, or exactly which figures were
 * checked and where to look next. Never "no limit reached": something limited it.
 * @param {PastBest} p
 */
function pastText(p) {
  const r = int;
  const what = p.fell ? `throughput fell past it (${r(p.bestRps)} → ${r(p.rps)} req/s at ${workers(p.size)})` : `throughput stopped rising past it (${r(p.rps)} req/s at ${workers(p.size)})`;
  if (p.findings.length > 0) return `${what}: at ${workers(p.size)}, ${p.findings.map(bottleneckFindingText).join('; ')}`;
  const c = p.checked;
  const checked = [
    c.mainElu !== null && `main thread busy ${pctRound(c.mainElu)}`,
    c.mainBlocked !== null && `blocked in spawn ${pctRound(c.mainBlocked)}`,
    c.workersElu !== null && `workers busy ${pctRound(c.workersElu)}`,
    c.generatorCpuPctPerThread !== null && `generator ${Math.round(c.generatorCpuPctPerThread)}% of a core`,
    c.budgetBusyPct !== null && `CPU budget ${Math.round(c.budgetBusyPct)}% busy`,
    c.throttledFraction !== null && `quota throttled ${pctRound(c.throttledFraction)} of periods`,
  ].filter(Boolean);
  return `${what}, though no sampled figure reached its limit (${checked.length ? checked.join(', ') : 'no sampler figures'}): the limit is one spawnbench does not sample; ` +
    'look at what the workers wait on (memory and swap, disk, a downstream service, locks) with spawnbench diagnose';
}

const workers = (/** @type {number} */ n) => `${n} worker${n === 1 ? '' : 's'}`;

/**
 * @typedef {object} SizeUnit how a sweep's sizes are named in its sentences
 * @property {(n: number) => string} count "3 workers", "2 processes", "UV_THREADPOOL_SIZE=4"
 * @property {string} fewer "fewer workers"
 * @property {(many: boolean) => string} sizes "pool size(s)"
 * @property {string} keep "the smaller pool is the one to keep"
 * @property {string} [flag] the option that gives the sizes: --sizes, or --processes for `tune --processes`
 */

/** @type {SizeUnit} */
const WORKERS_UNIT = { count: workers, fewer: 'fewer workers', sizes: (many) => `pool size${many ? 's' : ''}`, keep: 'the smaller pool is the one to keep' };

/**
 * How a tune names its sizes: a pool's workers; the processes of `tune --processes`; a thread
 * knob's value (`UV_THREADPOOL_SIZE=4`: libuv's threads are not workers).
 * @param {{ knobs?: { processes?: boolean, sizeEnv?: string|null } } | null | undefined} plan the TuneResult's plan
 * @returns {SizeUnit}
 */
export function sizeUnit(plan) {
  const knobs = plan?.knobs ?? {};
  if (knobs.processes) {
    return { count: (n) => `${n} process${n === 1 ? '' : 'es'}`, fewer: 'fewer processes', sizes: (many) => `process count${many ? 's' : ''}`, keep: 'the fewer processes are the ones to keep', flag: '--processes' };
  }
  const name = knobs.sizeEnv;
  if (name === THREADPOOL_ENV || name === VIPS_ENV) {
    return { count: (n) => `${name}=${n}`, fewer: 'fewer threads', sizes: (many) => `${name} value${many ? 's' : ''}`, keep: 'the smaller threadpool is the one to keep' };
  }
  return WORKERS_UNIT;
}

/**
 * "1 worker: 45 responses in 60.0 s; 2 workers (2 steps): 150 in 60.0 s"
 * @param {Array<{ size: number, steps: number, requests: number, durationMs: number }>} [sizes]
 * @param {SizeUnit} [unit]
 */
function tooFewList(sizes = [], unit = WORKERS_UNIT) {
  return sizes.map((x) => `${unit.count(x.size)}${x.steps > 1 ? ` (${x.steps} steps)` : ''}: at most ${int(x.requests)} responses in ${(x.durationMs / 1000).toFixed(1)} s`).join('; ');
}
const over = (/** @type {SizeFigures} */ x) => (x.policies > 1 ? `, median over its ${x.policies} policies` : '');
const rps = (/** @type {SizeFigures} */ x) => `${int(x.rps.median)} req/s`;
const capital = (/** @type {string} */ text) => text[0].toUpperCase() + text.slice(1);

/** @param {{ median: number|null, min: number|null, max: number|null, n: number }} figure */
function fmtRps({ median, min, max, n }) {
  const r = int;
  return n > 1 ? `${r(median)} req/s (${r(min)}–${r(max)} over ${n} repeats)` : `${r(median)} req/s`;
}

/** @param {number|null|undefined} value */
function fmtMs(value) {
  if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
  return value < 10 ? `${value.toFixed(2)} ms` : value < 100 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}

/**
 * The recommendation's reasons as sentences, with their figures.
 * @param {import('../analysis/recommend.js').Recommendation} rec
 * @param {{ text: string, primary?: object|null }|null} bottleneck the worded bottleneck at the best size (null only where no size was picked)
 * @param {SizeUnit} [unit] how the sizes are named (sizeUnit())
 * @returns {string[]}
 */
export function recommendationSentences(rec, bottleneck, unit = WORKERS_UNIT) {
  const { reasons, basis } = rec;
  if (reasons.includes('nothing-measured')) return ['Nothing was measured to completion, so there is nothing to recommend.'];
  if (reasons.includes('too-few-responses')) {
    return [
      `No step had enough responses to rank sizes (${TUNE_MIN_RESPONSES}, over at least ${TUNE_P99_MULTIPLE} × its p99), so there is no recommendation: ${tooFewList(basis.tooFewSizes, unit)}. Measure longer steps (-d, or -n ${TUNE_MIN_RESPONSES} or more) or with more connections.`,
      ...(basis.failedSizes ?? []).map((f) => failedSizeSentence(f, unit)),
    ];
  }
  // basis.knobIgnored goes with the reason (src/analysis/recommend.js).
  if (reasons.includes('knob-ignored') && basis.knobIgnored) {
    const k = basis.knobIgnored;
    const knob = k.sizeEnv ? k.sizeEnv : '{size} in its arguments';
    return [
      `The server did not follow ${knob}: ${int(k.workers)} worker ${k.workers === 1 ? 'process' : 'processes'} ran at every size measured (${k.sizes.join(', ')}), so the sizes differ only by noise. ` +
        `Check that the server takes its size from ${k.sizeEnv ? `${k.sizeEnv} (not a misspelt or another variable)` : 'that argument'} and does not cap it, then tune again.`,
    ];
  }
  if (reasons.includes('all-errors')) {
    return [
      `Every ${unit.sizes(false)} measured (${basis.errorSizes.join(', ')}) answered with errors or failed, so none can be recommended; see the errors in the table and the log.`,
      ...(basis.failedSizes ?? []).map((f) => failedSizeSentence(f, unit)),
    ];
  }
  // Past these three a size was picked: recommend() set its size, chosen, best, bottleneck and basis.
  return pickedSentences(/** @type {PickedRecommendation} */ (rec), /** @type {{ text: string, primary?: object|null }} */ (bottleneck), unit);
}

/**
 * The sentences of a recommendation that picked a size.
 * @param {PickedRecommendation} rec
 * @param {{ text: string, primary?: object|null }} bottleneck the worded bottleneck at the best size
 * @param {SizeUnit} unit how the sizes are named
 * @returns {string[]}
 */
function pickedSentences(rec, bottleneck, unit) {
  const workers = unit.count;
  const { chosen, best, reasons, basis } = rec;
  // pickedSize and bandSize are sizes of rec.sizes (recommend() picked them from it).
  const picked = /** @type {SizeFigures} */ (rec.sizes.find((x) => x.size === basis.pickedSize));
  const relaxed = reasons.includes('p99-relaxed');
  // A null policy: a user's server balanced by its own code, with no policy knob to sweep.
  const sentences = [`Use ${workers(rec.size)}${rec.policy === null ? '' : ` with ${rec.policy}`}: ${fmtRps(chosen.rps)}, p99 ${fmtMs(chosen.p99Ms.median)}, no errors.`];
  if (reasons.includes('tie-smaller')) {
    const band = /** @type {SizeFigures} */ (rec.sizes.find((x) => x.size === basis.bandSize));
    const bandWords = band.size === best.size ? 'the best size' : `the smallest size within ${RPS_BAND * 100}% of the best (${workers(best.size)}: ${rps(best)})`;
    sentences.push(
      `With ${workers(rec.size)}, throughput (${rps(picked)}${over(picked)}) was within the spread of the repeats of ${workers(band.size)} (${rps(band)}), ` +
        `${bandWords}, and p99 within ${P99_BAND * 100}% of the best (${fmtMs(basis.p99Best)}${relaxed ? ' among the sizes that fast' : ''}): no meaningful difference, with ${unit.fewer}.`,
    );
  } else if (rec.sizes.length === 1) {
    // One size (--sizes N, or a stop after its steps): the only one, not the best of several.
    sentences.push(`${capital(workers(rec.size))} was the only size measured (${rps(best)}${over(best)}): there was no other size to compare it with.`);
  } else if (picked.size === best.size) {
    sentences.push(`${capital(workers(rec.size))} gave the highest throughput measured (${rps(best)}${over(best)})${relaxed ? '' : ` and a p99 within ${P99_BAND * 100}% of the best`}.`);
  } else if (picked.size < best.size) {
    sentences.push(
      `With ${workers(rec.size)}, throughput (${rps(picked)}${over(picked)}) was within ${RPS_BAND * 100}% of the best size's ` +
        `(${workers(best.size)}: ${rps(best)}) and p99 within ${P99_BAND * 100}% of the best (${fmtMs(basis.p99Best)}${relaxed ? ' among the sizes that fast' : ''}), with ${unit.fewer}.`,
    );
  } else {
    sentences.push(`The highest throughput (${workers(best.size)}: ${rps(best)}) came with a p99 more than ${P99_BAND * 100}% above the best, so the smallest size that met both is recommended.`);
  }
  if (reasons.includes('higher-throughput')) {
    sentences.push(`${basis.lowestP99Policy} had the lowest p99 at ${workers(rec.size)}, but ${rec.policy} had clearly higher throughput.`);
  } else if (reasons.includes('policies-tie')) {
    sentences.push(`No meaningful difference between policies at ${workers(rec.size)}: their repeats overlap; ${rec.policy} had the lowest median p99.`);
  } else if (reasons.includes('best-p99')) {
    sentences.push(`At ${workers(rec.size)}, ${rec.policy} had the lowest p99 and no other policy had clearly higher throughput.`);
  }
  if (reasons.includes('sizes-tie')) {
    // Larger sizes that tie: the smaller pool is kept. Smaller ones that tie were kept out by their p99.
    const larger = rec.ties.sizes.filter((size) => size > rec.size);
    const smaller = rec.ties.sizes.filter((size) => size < rec.size);
    if (larger.length > 0) {
      sentences.push(`No meaningful difference in throughput between ${workers(rec.size)} and ${unit.sizes(larger.length > 1)} ${larger.join(', ')}: their repeats overlap, so ${unit.keep}.`);
    }
    if (smaller.length > 0) {
      sentences.push(
        `${capital(unit.sizes(smaller.length > 1))} ${smaller.join(', ')} had throughput within noise of ${workers(rec.size)}, ` +
          `but a p99 more than ${P99_BAND * 100}% above the best (${fmtMs(basis.p99Best)}), so ${workers(rec.size)} ${rec.size === 1 ? 'is' : 'are'} kept.`,
      );
    }
  }
  if (reasons.includes('still-rising')) {
    sentences.push(`Throughput was still rising at ${workers(rec.size)}, the largest size measured: measure larger pools too, e.g. ${unit.flag ?? '--sizes'} ${[...rec.sizes.map((x) => x.size), rec.size * 2].join(',')}.`);
  }
  if (reasons.includes('over-cpus')) {
    // over-cpus is given only where the workers' busy share was measured (recommend.js).
    const sig = rec.sizes.find((x) => x.size === rec.size)?.signals ?? {};
    const from = sig.workersBusyFrom === 'cpu' ? ' (by CPU time)' : '';
    sentences.push(`${capital(workers(rec.size))} is more than the ${sig.cores} CPUs, and they were busy only ${pctRound(/** @type {number} */ (sig.workersBusy))} on average${from} with the cores full: the extra workers shared the same cores. Where other programs compete for the CPU, more threads win a larger share of it; on a machine of its own, a pool the size of its CPUs does the same work.`);
  }
  if (reasons.includes('single-repeat')) sentences.push('Each step was measured once: use --repeat 3 to see how much the figures move between runs.');
  if (basis.errorSizes.length > 0) {
    sentences.push(`${capital(unit.sizes(true))} ${basis.errorSizes.join(', ')} had errors or failed in at least one step; those steps were not considered.`);
    sentences.push(...(basis.failedSizes ?? []).map((f) => failedSizeSentence(f, unit)));
  }
  if (reasons.includes('too-few-at-sizes')) {
    sentences.push(`Some steps had too few responses to rank (${TUNE_MIN_RESPONSES}, over at least ${TUNE_P99_MULTIPLE} × their p99) and were not considered: ${tooFewList(basis.tooFewSizes, unit)}.`);
  }
  sentences.push(`At the best size (${workers(best.size)})${bottleneck.primary ? ',' : ':'} ${bottleneck.text}.`);
  return sentences;
}

/**
 * The recommendation with its words: `sentences`, and the bottleneck's `text`.
 * One read from a result file that already has them keeps them.
 * @param {import('../analysis/recommend.js').Recommendation & { sentences?: string[] }} rec
 * @param {SizeUnit} [unit] how the sweep's sizes are named (sizeUnit(plan))
 */
export function wordRecommendation(rec, unit = WORKERS_UNIT) {
  if (Array.isArray(rec.sentences)) return rec;
  const bottleneck = rec.bottleneck ? wordBottleneck(rec.bottleneck) : null;
  return { ...rec, bottleneck, sentences: recommendationSentences(rec, bottleneck, unit) };
}
