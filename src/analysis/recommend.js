/**
 * The tuning recommendation, from the measurements rather than a formula:
 * the smallest pool size whose throughput is within RPS_BAND of the best and whose
 * p99 is within P99_BAND of the best, with no errors; then the policy with the
 * best p99 at that size unless another has clearly higher throughput; then what
 * limited the best size, from the samplers. Pure: steps in, a plain object out.
 */
import { groupCells, isClean } from './cells.js';
import { overlaps } from './stats.js';
import { findBottleneck } from './bottleneck.js';

/**
 * Throughput band, as a fraction below the best median rps: 5% is about the
 * run-to-run drift of a 10 s run on a shared 2-vCPU machine, so sizes inside it
 * are not reliably slower, and the smaller pool costs less memory and cores.
 */
export const RPS_BAND = 0.05;

/**
 * p99 band, as a fraction above the best median p99: tail latency of short runs
 * wanders more than throughput (one slow spawn moves it), hence twice the rps band.
 */
export const P99_BAND = 0.1;

/**
 * Gain in median rps, as a fraction, for a policy to count as "clearly higher
 * throughput" than the one with the best p99 (and its repeats must not overlap):
 * the same margin as RPS_BAND, below which sizes are already treated as equal.
 */
export const CLEAR_RPS_GAIN = 0.05;

/**
 * @typedef {object} Recommendation
 * @property {number|null} size
 * @property {string|null} policy
 * @property {string[]} reasons codes: within-band, p99-relaxed, best-p99, higher-throughput, only-policy,
 *   policies-tie, sizes-tie, single-repeat, errors-at-sizes, all-errors, nothing-measured,
 *   and the bottleneck kinds generator, main-thread, machine
 * @property {string[]} sentences the reasons in words, with their figures
 * @property {import('./cells.js').Cell[]} cells the evidence: every measured (size, policy)
 * @property {import('./cells.js').Cell|null} chosen
 * @property {import('./cells.js').Cell|null} best highest median throughput among clean cells
 * @property {{ sizes: number[], policies: string[] }} ties sizes and policies whose repeats overlap the chosen cell's
 * @property {{ primary: object|null, findings: object[], text: string, size: number, policy: string }|null} bottleneck
 */

/**
 * @param {import('./cells.js').Step[]} steps every measured step (repeats separate)
 * @returns {Recommendation}
 */
export function recommend(steps) {
  const cells = groupCells(steps);
  const empty = { size: null, policy: null, cells, chosen: null, best: null, ties: { sizes: [], policies: [] }, bottleneck: null };
  if (cells.length === 0) {
    return { ...empty, reasons: ['nothing-measured'], sentences: ['Nothing was measured to completion, so there is nothing to recommend.'] };
  }
  const clean = cells.filter(isClean);
  const errorSizes = [...new Set(cells.filter((c) => !isClean(c)).map((c) => c.size))];
  if (clean.length === 0) {
    return {
      ...empty,
      reasons: ['all-errors'],
      sentences: [`Every pool size measured (${errorSizes.join(', ')}) answered with errors or failed, so none can be recommended; see the errors in the table and the log.`],
    };
  }

  const best = clean.reduce((a, b) => (b.rps.median > a.rps.median ? b : a));
  const inRpsBand = (c) => c.rps.median >= best.rps.median * (1 - RPS_BAND);
  const reasons = [];
  let p99Best = Math.min(...clean.map((c) => c.p99Ms.median));
  let inBand = (c) => inRpsBand(c) && c.p99Ms.median <= p99Best * (1 + P99_BAND);
  if (!clean.some(inBand)) {
    // The lowest p99 came with much lower throughput: judge p99 among the fast cells only.
    p99Best = Math.min(...clean.filter(inRpsBand).map((c) => c.p99Ms.median));
    reasons.push('p99-relaxed');
  }
  reasons.unshift('within-band');
  const size = Math.min(...clean.filter(inBand).map((c) => c.size));

  const atSize = clean.filter((c) => c.size === size);
  const byP99 = atSize.reduce((a, b) => (b.p99Ms.median < a.p99Ms.median ? b : a));
  const faster = atSize
    .filter((c) => c !== byP99 && c.rps.median >= byP99.rps.median * (1 + CLEAR_RPS_GAIN) && !overlaps(c.rps, byP99.rps))
    .sort((a, b) => b.rps.median - a.rps.median)[0];
  const chosen = faster ?? byP99;
  reasons.push(atSize.length === 1 ? 'only-policy' : faster ? 'higher-throughput' : 'best-p99');

  const others = atSize.filter((c) => c !== chosen);
  const policyTies = others.filter((c) => overlaps(c.rps, chosen.rps) && overlaps(c.p99Ms, chosen.p99Ms)).map((c) => c.policy);
  if (others.length > 0 && policyTies.length === others.length) reasons.push('policies-tie');
  const sizeTies = bestCellPerSize(clean)
    .filter((c) => c.size !== size && overlaps(c.rps, chosen.rps))
    .map((c) => c.size);
  if (sizeTies.length > 0) reasons.push('sizes-tie');
  if (cells.every((c) => c.repeats < 2)) reasons.push('single-repeat');
  if (errorSizes.length > 0) reasons.push('errors-at-sizes');

  const found = findBottleneck(best.signals ?? {});
  const bottleneck = { ...found, size: best.size, policy: best.policy };
  for (const f of found.findings) reasons.push(f.kind);

  const rec = { size, policy: chosen.policy, reasons, cells, chosen, best, ties: { sizes: sizeTies, policies: policyTies }, bottleneck };
  return { ...rec, sentences: explain(rec, { errorSizes, byP99, p99Best }) };
}

/** The highest-throughput clean cell of each size. */
function bestCellPerSize(clean) {
  const bySize = new Map();
  for (const c of clean) if (!bySize.has(c.size) || c.rps.median > bySize.get(c.size).rps.median) bySize.set(c.size, c);
  return [...bySize.values()];
}

function explain(rec, { errorSizes, byP99, p99Best }) {
  const { chosen, best, reasons } = rec;
  const workers = (n) => `${n} worker${n === 1 ? '' : 's'}`;
  const relaxed = reasons.includes('p99-relaxed');
  const sentences = [`Use ${workers(rec.size)} with ${rec.policy}: ${fmtRps(chosen)}, p99 ${fmtMs(chosen.p99Ms.median)}, no errors.`];
  if (chosen === best) {
    sentences.push(`That is the highest throughput measured${relaxed ? '' : ` and within ${P99_BAND * 100}% of the best p99`}.`);
  } else if (chosen.size === best.size) {
    sentences.push(`That pool size also gave the highest throughput measured (${fmtRps(best)} with ${best.policy}).`);
  } else if (chosen.size < best.size) {
    sentences.push(
      `That is within ${RPS_BAND * 100}% of the best throughput (${fmtRps(best)} with ${workers(best.size)}, ${best.policy}) ` +
        `and within ${P99_BAND * 100}% of the best p99 (${fmtMs(p99Best)}${relaxed ? ' among the sizes that fast' : ''}), with fewer workers.`,
    );
  } else {
    sentences.push(`The highest throughput (${fmtRps(best)} with ${workers(best.size)}) came with a p99 more than ${P99_BAND * 100}% above the best, so the smallest size that met both is recommended.`);
  }
  if (reasons.includes('higher-throughput')) {
    sentences.push(`${byP99.policy} had the lowest p99 at ${workers(rec.size)}, but ${rec.policy} had clearly higher throughput.`);
  } else if (reasons.includes('policies-tie')) {
    sentences.push(`No meaningful difference between policies at ${workers(rec.size)}: their repeats overlap; ${rec.policy} had the lowest median p99.`);
  } else if (reasons.includes('best-p99')) {
    sentences.push(`At ${workers(rec.size)}, ${rec.policy} had the lowest p99 and no other policy had clearly higher throughput.`);
  }
  if (reasons.includes('sizes-tie')) {
    sentences.push(`No meaningful difference in throughput between ${workers(rec.size)} and pool size${rec.ties.sizes.length > 1 ? 's' : ''} ${rec.ties.sizes.join(', ')}: their repeats overlap, so the smaller pool is the one to keep.`);
  }
  if (reasons.includes('single-repeat')) sentences.push('Each step was measured once: use --repeat 3 to see how much the figures move between runs.');
  if (errorSizes.length > 0) {
    sentences.push(`Pool sizes ${errorSizes.join(', ')} had errors or failed in at least one step and were not considered.`);
  }
  if (rec.bottleneck.primary) {
    sentences.push(`At the best size (${workers(best.size)}), ${rec.bottleneck.text}.`);
  } else {
    sentences.push(`At the best size (${workers(best.size)}): ${rec.bottleneck.text}.`);
  }
  return sentences;
}

function fmtRps(cell) {
  const { median, min, max, n } = cell.rps;
  const r = (v) => Math.round(v).toLocaleString('en-US');
  return n > 1 ? `${r(median)} req/s (${r(min)}–${r(max)} over ${n} repeats)` : `${r(median)} req/s`;
}

function fmtMs(value) {
  if (!Number.isFinite(value)) return '–';
  return value < 10 ? `${value.toFixed(2)} ms` : value < 100 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}
