/**
 * The tuning recommendation, from the measurements rather than a formula:
 * the smallest pool size whose throughput is within RPS_BAND of the best and whose
 * p99 is within P99_BAND of the best, with no errors; then the policy with the
 * best p99 at that size unless another has clearly higher throughput; then what
 * limited the best size, from the samplers. Sizes are judged on all their clean
 * steps (every policy), policies on their own cells (cells.js). Pure: steps in,
 * reason codes and figures out; src/report/tune-words.js says them in words.
 */
import { groupCells, groupSizes, isClean } from './cells.js';
import { overlaps, isFiniteNumber } from './stats.js';
import { findBottleneck } from './bottleneck.js';
import { RPS_BAND, P99_BAND, CLEAR_RPS_GAIN, DOWNSTREAM_JUMP_CONNECTIONS, POOL_BUSY_FRACTION } from '../base/thresholds.js';
export { RPS_BAND, P99_BAND, CLEAR_RPS_GAIN } from '../base/thresholds.js';

/**
 * @typedef {object} Recommendation
 * @property {number|null} size
 * @property {string|null} policy
 * @property {string[]} reasons codes: within-band, p99-relaxed, best-p99, higher-throughput, only-policy,
 *   policies-tie, sizes-tie, tie-smaller (a smaller size than the first in the band tied with it: the smaller is kept), still-rising (not when the CPU budget was used up at the best size), single-repeat,
 *   errors-at-sizes, all-errors, nothing-measured, knob-ignored (a user's server ran the same worker processes at every size:
 *   no recommendation; set by src/tune/tune-engine.js), too-few-responses (no step had enough responses to rank:
 *   no recommendation), too-few-at-sizes (some steps had too few and were not ranked), over-cpus (more workers than CPUs, none of them busy, the cores full),
 *   and the bottleneck kinds cpu-quota, generator, main-thread, machine; limit-not-sampled when throughput
 *   stopped rising past the best size and no sampled figure shows why
 * @property {{ pickedSize?: number, bandSize?: number, knobIgnored?: { workers: number, sizes: number[], sizeEnv: string|null, sizeArg: boolean }, tooFewSizes?: Array<{ size: number, steps: number, requests: number, durationMs: number }>, errorSizes: number[], failedSizes: FailedSize[], lowestP99Policy?: string, p99Best?: number }} basis
 *   the figures the reasons are worded from (`pickedSize`, `bandSize`, `lowestP99Policy` and `p99Best` only when a size was picked;
 *   `bandSize`: the smallest size within the bands, which `pickedSize` is or ties with)
 * @property {import('./cells.js').Cell[]} cells the evidence: every measured (size, policy)
 * @property {import('./cells.js').SizeFigures[]} sizes figures per clean size (all its policies)
 * @property {import('./cells.js').Cell|null} chosen the recommended cell
 * @property {import('./cells.js').SizeFigures|null} best the size with the highest median throughput
 * @property {import('./cells.js').Cell|null} bestCell the highest-throughput cell at that size
 * @property {{ sizes: number[], policies: string[] }} ties sizes and policies whose repeats overlap the chosen ones
 * @property {'no-policy-knob'} [policyReason] why the policy is null: a user's server without a policy knob
 *   (set by src/tune/tune-engine.js)
 * @property {{ primary: object|null, findings: object[], known: boolean, size: number, past: object|null }|null} bottleneck at the best size;
 *   `past`: the next larger size measured, when there is one (`{ size, rps, bestRps, fell, findings, checked }`: whether
 *   its throughput fell out of the band, what limited it there, and the figures checked at the best size)
 */

/**
 * @typedef {object} FailedSize why a size had errors: its most frequent error and text, and the
 *   downstream connections where they jumped from the largest clean size below it
 * @property {number} size
 * @property {string|null} failed the step could not run (boot failure) or its measurement failed (its first failure), else null
 * @property {number} errors summed over its steps
 * @property {number|null} status the most frequent error's status (null: a failed request's kind)
 * @property {string|null} kind 'non2xx', 'connect', …
 * @property {number} count that status's or kind's count
 * @property {string|null} text its most frequent text (the server's own words)
 * @property {{ text: string, count: number }|null} stderr the server's most frequent stderr line at that size
 * @property {{ peer: string, name: string|null, from: number|null, fromSize: number|null, to: number }|null} downstream
 */

/** @typedef {import('./cells.js').Step} Step */
/** @typedef {import('./cells.js').Cell} Cell */
/** @typedef {import('./cells.js').SizeFigures} SizeFigures */

/**
 * A clean size's or cell's median: every repeat measured it (isClean: throughput above 0), so a number.
 * @param {{ median: number|null }} figure
 */
const med = (figure) => /** @type {number} */ (figure.median);

/**
 * @param {Step[]} steps every measured step (repeats separate)
 * @returns {Recommendation}
 */
export function recommend(steps) {
  const cells = groupCells(steps);
  const sizes = groupSizes(steps, cells);
  const empty = { size: null, policy: null, cells, sizes, chosen: null, best: null, bestCell: null, ties: { sizes: [], policies: [] }, bottleneck: null };
  // A size whose steps had too few responses to rank its throughput, but errors among them, failed
  // all the same: its errors are no less real for being few (3 workers over a database of 22
  // connections: 173 of 528 refused, and it was only "not considered").
  const erredFew = new Set(steps.filter((s) => s.tooFew && !s.partial && (s.errors ?? 0) > 0 && !cells.some((c) => c.size === s.size)).map((s) => s.size));
  const tooFewSizes = tooFew(steps).filter((x) => !erredFew.has(x.size));
  const errorSizes = [...new Set([...cells.filter((c) => !isClean(c)).map((c) => c.size), ...erredFew])].sort((a, b) => a - b);
  const failedSizes = errorSizes.map((size) => failedSize(size, steps, sizes));
  if (cells.length === 0) {
    // Steps ran to the end but none had enough responses to rank: say that, not "nothing measured".
    if (tooFewSizes.length > 0) return { ...empty, reasons: ['too-few-responses'], basis: { errorSizes, failedSizes, tooFewSizes } };
    if (failedSizes.length > 0) return { ...empty, reasons: ['all-errors'], basis: { errorSizes, failedSizes } };
    return { ...empty, reasons: ['nothing-measured'], basis: { errorSizes: [], failedSizes: [] } };
  }
  if (sizes.length === 0) {
    return { ...empty, reasons: ['all-errors'], basis: { errorSizes, failedSizes } };
  }

  const best = sizes.reduce((a, b) => (med(b.rps) > med(a.rps) ? b : a));
  /** @param {SizeFigures} x */
  const inRpsBand = (x) => med(x.rps) >= med(best.rps) * (1 - RPS_BAND);
  const reasons = ['within-band'];
  let p99Best = Math.min(...sizes.map((x) => med(x.p99Ms)));
  /** @param {SizeFigures} x */
  const inBand = (x) => inRpsBand(x) && med(x.p99Ms) <= p99Best * (1 + P99_BAND);
  if (!sizes.some(inBand)) {
    // The lowest p99 came with much lower throughput: judge p99 among the fast sizes only.
    p99Best = Math.min(...sizes.filter(inRpsBand).map((x) => med(x.p99Ms)));
    reasons.push('p99-relaxed');
  }
  // The best size is in the rps band, and after p99-relaxed the lowest p99 among those is too: one size is in the band.
  const bandPick = /** @type {SizeFigures} */ (sizes.find(inBand));
  // One rule, one sentence: a smaller size whose repeats overlap the pick's throughput, with
  // its p99 in the band, is "no meaningful difference", so the smaller pool is the one kept.
  let picked = bandPick;
  for (let smaller = smallerTie(picked); smaller; smaller = smallerTie(picked)) picked = smaller;
  /** @param {SizeFigures} of */
  function smallerTie(of) {
    return sizes.find((x) => x.size < of.size && overlaps(x.rps, of.rps) && med(x.p99Ms) <= p99Best * (1 + P99_BAND));
  }
  if (picked !== bandPick) reasons.push('tie-smaller');

  const atSize = cells.filter((c) => c.size === picked.size && isClean(c));
  const byP99 = atSize.reduce((a, b) => (med(b.p99Ms) < med(a.p99Ms) ? b : a));
  const faster = atSize
    .filter((c) => c !== byP99 && med(c.rps) >= med(byP99.rps) * (1 + CLEAR_RPS_GAIN) && !overlaps(c.rps, byP99.rps))
    .sort((a, b) => med(b.rps) - med(a.rps))[0];
  const chosen = faster ?? byP99;
  reasons.push(atSize.length === 1 ? 'only-policy' : faster ? 'higher-throughput' : 'best-p99');

  const others = atSize.filter((c) => c !== chosen);
  const policyTies = others.filter((c) => overlaps(c.rps, chosen.rps) && overlaps(c.p99Ms, chosen.p99Ms)).map((c) => c.policy);
  if (others.length > 0 && policyTies.length === others.length) reasons.push('policies-tie');
  const sizeTies = sizes.filter((x) => x !== picked && overlaps(x.rps, picked.rps)).map((x) => x.size);
  if (sizeTies.length > 0) reasons.push('sizes-tie');
  // The largest size measured is the only one in the band: the peak may lie beyond it,
  // unless a larger size was measured and failed (then the peak is known to lie below it).
  const largerFailed = errorSizes.some((size) => size > best.size);
  const found = findBottleneck(asSignals(best.signals), { downstreams: lastOf(steps, best.size, 'downstreams') });
  // With the CPU budget used up at the best size, a larger pool gets no more CPU: not "still rising".
  const cpuBound = found.findings.some((f) => f.kind === 'machine' || f.kind === 'cpu-quota');
  if (sizes.length > 1 && picked === best && best === sizes.at(-1) && sizeTies.length === 0 && !largerFailed && !cpuBound) reasons.push('still-rising');
  if (cells.every((c) => c.repeats < 2)) reasons.push('single-repeat');
  if (errorSizes.length > 0) reasons.push('errors-at-sizes');
  if (tooFewSizes.length > 0) reasons.push('too-few-at-sizes');
  // More workers than CPUs, none of them busy, the cores full: the extra workers only shared the cores. Not one
  // worker under a quota of under a CPU ('1 process is more than the 0.5 CPUs … the extra workers'): no pool is smaller.
  const s = picked.signals ?? {};
  if (cpuBound && s.cores && picked.size > Math.max(1, Math.ceil(s.cores)) && (s.workers ?? 0) > 0 && isFiniteNumber(s.workersBusy) && s.workersBusy < POOL_BUSY_FRACTION) {
    reasons.push('over-cpus');
  }

  for (const f of found.findings) reasons.push(f.kind);
  const past = pastBest(sizes, best);
  if (past) for (const f of past.findings) if (!reasons.includes(f.kind)) reasons.push(f.kind);
  if (past && found.findings.length === 0 && past.findings.length === 0) reasons.push('limit-not-sampled');
  const bestCell = cells.filter((c) => c.size === best.size && isClean(c)).reduce((a, b) => (med(b.rps) > med(a.rps) ? b : a));
  return {
    size: picked.size,
    policy: chosen.policy,
    reasons,
    basis: { pickedSize: picked.size, bandSize: bandPick.size, errorSizes, failedSizes, lowestP99Policy: byP99.policy, p99Best, tooFewSizes },
    cells,
    sizes,
    chosen,
    best,
    bestCell,
    ties: { sizes: sizeTies, policies: policyTies },
    bottleneck: { ...found, size: best.size, past },
  };
}

/**
 * The signals of a size or cell, as findBottleneck() reads them: a median over steps, where a
 * sampler that never reported leaves its signal out (findBottleneck reads a missing one as none).
 * @param {Partial<import('./run-figures.js').RunSignals>|undefined} signals
 */
function asSignals(signals) {
  return /** @type {import('./run-figures.js').RunSignals} */ (signals ?? {});
}

/**
 * The next larger size than the best, measured: throughput did not rise there, so
 * something limited it. Its own findings (a quota throttles harder with more
 * workers) and the best size's figures that were checked, for the sentence that
 * says so when no sampled figure reached its limit.
 * @param {SizeFigures[]} sizes
 * @param {SizeFigures} best
 */
function pastBest(sizes, best) {
  const next = sizes.filter((x) => x.size > best.size).sort((a, b) => a.size - b.size)[0];
  if (!next) return null;
  const s = best.signals ?? {};
  const threads = Math.max(1, s.generatorThreads ?? 1);
  return {
    size: next.size,
    rps: next.rps.median,
    bestRps: best.rps.median,
    fell: med(next.rps) < med(best.rps) * (1 - RPS_BAND),
    // The connection count bounds a size with room; past the best, it does not say why throughput fell.
    findings: findBottleneck(asSignals(next.signals)).findings.filter((f) => f.kind !== 'connections'),
    checked: {
      mainElu: finite(s.mainElu),
      mainBlocked: finite(s.mainBlocked),
      workersElu: finite(s.workersElu),
      generatorCpuPctPerThread: isFiniteNumber(s.generatorCpuPct) ? s.generatorCpuPct / threads : null,
      budgetBusyPct: finite(s.budgetBusyPct ?? s.systemCpuPct),
      throttledFraction: finite(s.throttle?.fraction),
    },
  };
}

/**
 * @param {unknown} value
 * @returns {number|null}
 */
function finite(value) {
  return isFiniteNumber(value) ? value : null;
}

/**
 * The sizes with steps that ended without enough responses to rank (`tooFew`): per size, how many
 * such steps, the most responses one of them got and in how long.
 * @param {Step[]} steps
 * @returns {Array<{ size: number, steps: number, requests: number, durationMs: number }>}
 */
function tooFew(steps) {
  /** @type {Map<number, { size: number, steps: number, requests: number, durationMs: number }>} */
  const bySize = new Map();
  for (const s of steps.filter((x) => x.tooFew && !x.partial)) {
    const seen = bySize.get(s.size) ?? { size: s.size, steps: 0, requests: 0, durationMs: 0 };
    seen.steps += 1;
    if (/** @type {number} a step that ended counts its requests */ (s.requests) >= seen.requests) Object.assign(seen, { requests: s.requests, durationMs: s.durationMs });
    bySize.set(s.size, seen);
  }
  return [...bySize.values()].sort((a, b) => a.size - b.size);
}

/**
 * The last non-partial step's `field` at a size (its downstreams, its error texts), or null.
 * @template {'downstreams'} F
 * @param {Step[]} steps
 * @param {number} size
 * @param {F} field
 * @returns {NonNullable<Step[F]>|null}
 */
function lastOf(steps, size, field) {
  const found = steps.filter((s) => s.size === size && !s.partial && s[field] != null);
  return found.at(-1)?.[field] ?? null;
}

/**
 * Why one size failed: its most frequent error text over its steps, its stderr line,
 * and how its busiest downstream's connections compare with the largest clean size below.
 * @param {number} size
 * @param {Step[]} steps
 * @param {SizeFigures[]} cleanSizes
 * @returns {FailedSize}
 */
function failedSize(size, steps, cleanSizes) {
  const own = steps.filter((s) => s.size === size && !s.partial);
  const failed = own.find((s) => s.failed)?.failed ?? own.find((s) => (s.failures?.length ?? 0) > 0)?.failures?.[0] ?? null;
  const errors = own.reduce((sum, s) => sum + (s.errors ?? 0), 0);
  const entries = own.flatMap((s) => s.errorTexts ?? []);
  const top = entries.reduce((/** @type {(typeof entries)[number]|null} */ a, b) => (b.count > (a?.count ?? -1) ? b : a), null);
  const lines = own.flatMap((s) => s.stderr ?? []);
  const stderr = lines.reduce((/** @type {(typeof lines)[number]|null} */ a, b) => (b.count > (a?.count ?? -1) ? b : a), null);
  const count = top ? entries.filter((e) => (e.status ?? e.kind) === (top.status ?? top.kind)).reduce((sum, e) => sum + e.count, 0) : 0;
  return {
    size,
    failed,
    errors,
    status: top?.status ?? null,
    kind: top?.kind ?? null,
    count,
    text: top?.texts?.find((t) => t.text !== '')?.text ?? null,
    stderr: stderr ? { text: stderr.text, count: stderr.count } : null,
    downstream: downstreamJump(size, steps, cleanSizes),
  };
}

/**
 * The busiest downstream at a failed size, with its connections at the largest clean size below (a jump of DOWNSTREAM_JUMP_CONNECTIONS or more).
 * @param {number} size
 * @param {Step[]} steps
 * @param {SizeFigures[]} cleanSizes
 */
function downstreamJump(size, steps, cleanSizes) {
  const at = lastOf(steps, size, 'downstreams')?.[0];
  if (!at) return null;
  const below = cleanSizes.filter((x) => x.size < size).at(-1)?.size ?? null;
  const before = below === null ? null : (lastOf(steps, below, 'downstreams') ?? []).find((d) => d.peer === at.peer) ?? null;
  const from = below === null ? null : before?.connections ?? 0;
  const jumped = from === null || at.connections - from >= DOWNSTREAM_JUMP_CONNECTIONS;
  return { peer: at.peer, name: at.name, from: jumped ? from : null, fromSize: jumped ? below : null, to: at.connections };
}
