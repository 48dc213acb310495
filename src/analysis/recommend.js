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
import { overlaps } from './stats.js';
import { findBottleneck } from './bottleneck.js';
import { RPS_BAND, P99_BAND, CLEAR_RPS_GAIN } from '../thresholds.js';
export { RPS_BAND, P99_BAND, CLEAR_RPS_GAIN } from '../thresholds.js';

/**
 * @typedef {object} Recommendation
 * @property {number|null} size
 * @property {string|null} policy
 * @property {string[]} reasons codes: within-band, p99-relaxed, best-p99, higher-throughput, only-policy,
 *   policies-tie, sizes-tie, still-rising, single-repeat, errors-at-sizes, all-errors, nothing-measured,
 *   and the bottleneck kinds cpu-quota, generator, main-thread, machine; limit-not-sampled when throughput
 *   stopped rising past the best size and no sampled figure shows why
 * @property {{ pickedSize: number, errorSizes: number[], lowestP99Policy: string, p99Best: number }|{ errorSizes: number[] }} basis
 *   the figures the reasons are worded from
 * @property {import('./cells.js').Cell[]} cells the evidence: every measured (size, policy)
 * @property {import('./cells.js').SizeFigures[]} sizes figures per clean size (all its policies)
 * @property {import('./cells.js').Cell|null} chosen the recommended cell
 * @property {import('./cells.js').SizeFigures|null} best the size with the highest median throughput
 * @property {import('./cells.js').Cell|null} bestCell the highest-throughput cell at that size
 * @property {{ sizes: number[], policies: string[] }} ties sizes and policies whose repeats overlap the chosen ones
 * @property {{ primary: object|null, findings: object[], known: boolean, size: number, past: object|null }|null} bottleneck at the best size;
 *   `past`: the next larger size measured, when there is one (`{ size, rps, bestRps, fell, findings, checked }`: whether
 *   its throughput fell out of the band, what limited it there, and the figures checked at the best size)
 */

/**
 * @param {import('./cells.js').Step[]} steps every measured step (repeats separate)
 * @returns {Recommendation}
 */
export function recommend(steps) {
  const cells = groupCells(steps);
  const sizes = groupSizes(steps, cells);
  const empty = { size: null, policy: null, cells, sizes, chosen: null, best: null, bestCell: null, ties: { sizes: [], policies: [] }, bottleneck: null };
  if (cells.length === 0) {
    return { ...empty, reasons: ['nothing-measured'], basis: { errorSizes: [] } };
  }
  const errorSizes = [...new Set(cells.filter((c) => !isClean(c)).map((c) => c.size))];
  if (sizes.length === 0) {
    return { ...empty, reasons: ['all-errors'], basis: { errorSizes } };
  }

  const best = sizes.reduce((a, b) => (b.rps.median > a.rps.median ? b : a));
  const inRpsBand = (x) => x.rps.median >= best.rps.median * (1 - RPS_BAND);
  const reasons = ['within-band'];
  let p99Best = Math.min(...sizes.map((x) => x.p99Ms.median));
  const inBand = (x) => inRpsBand(x) && x.p99Ms.median <= p99Best * (1 + P99_BAND);
  if (!sizes.some(inBand)) {
    // The lowest p99 came with much lower throughput: judge p99 among the fast sizes only.
    p99Best = Math.min(...sizes.filter(inRpsBand).map((x) => x.p99Ms.median));
    reasons.push('p99-relaxed');
  }
  const picked = sizes.find(inBand);

  const atSize = cells.filter((c) => c.size === picked.size && isClean(c));
  const byP99 = atSize.reduce((a, b) => (b.p99Ms.median < a.p99Ms.median ? b : a));
  const faster = atSize
    .filter((c) => c !== byP99 && c.rps.median >= byP99.rps.median * (1 + CLEAR_RPS_GAIN) && !overlaps(c.rps, byP99.rps))
    .sort((a, b) => b.rps.median - a.rps.median)[0];
  const chosen = faster ?? byP99;
  reasons.push(atSize.length === 1 ? 'only-policy' : faster ? 'higher-throughput' : 'best-p99');

  const others = atSize.filter((c) => c !== chosen);
  const policyTies = others.filter((c) => overlaps(c.rps, chosen.rps) && overlaps(c.p99Ms, chosen.p99Ms)).map((c) => c.policy);
  if (others.length > 0 && policyTies.length === others.length) reasons.push('policies-tie');
  const sizeTies = sizes.filter((x) => x !== picked && overlaps(x.rps, picked.rps)).map((x) => x.size);
  if (sizeTies.length > 0) reasons.push('sizes-tie');
  // The largest size measured is the only one in the band: the peak may lie beyond it.
  if (sizes.length > 1 && picked === best && best === sizes.at(-1) && sizeTies.length === 0) reasons.push('still-rising');
  if (cells.every((c) => c.repeats < 2)) reasons.push('single-repeat');
  if (errorSizes.length > 0) reasons.push('errors-at-sizes');

  const found = findBottleneck(best.signals ?? {});
  for (const f of found.findings) reasons.push(f.kind);
  const past = pastBest(sizes, best);
  if (past) for (const f of past.findings) if (!reasons.includes(f.kind)) reasons.push(f.kind);
  if (past && found.findings.length === 0 && past.findings.length === 0) reasons.push('limit-not-sampled');
  const bestCell = cells.filter((c) => c.size === best.size && isClean(c)).reduce((a, b) => (b.rps.median > a.rps.median ? b : a));
  return {
    size: picked.size,
    policy: chosen.policy,
    reasons,
    basis: { pickedSize: picked.size, errorSizes, lowestP99Policy: byP99.policy, p99Best },
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
 * The next larger size than the best, measured: throughput did not rise there, so
 * something limited it. Its own findings (a quota throttles harder with more
 * workers) and the best size's figures that were checked, for the sentence that
 * says so when no sampled figure reached its limit.
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
    fell: next.rps.median < best.rps.median * (1 - RPS_BAND),
    findings: findBottleneck(next.signals ?? {}).findings,
    checked: {
      mainElu: finite(s.mainElu),
      mainBlocked: finite(s.mainBlocked),
      workersElu: finite(s.workersElu),
      generatorCpuPctPerThread: Number.isFinite(s.generatorCpuPct) ? s.generatorCpuPct / threads : null,
      budgetBusyPct: finite(s.budgetBusyPct ?? s.systemCpuPct),
      throttledFraction: finite(s.throttle?.fraction),
    },
  };
}

function finite(value) {
  return Number.isFinite(value) ? value : null;
}
