/**
 * The tuning recommendation, from the measurements rather than a formula:
 * the smallest pool size whose throughput is within RPS_BAND of the best and whose
 * p99 is within P99_BAND of the best, with no errors; then the policy with the
 * best p99 at that size unless another has clearly higher throughput; then what
 * limited the best size, from the samplers. Sizes are judged on all their clean
 * steps (every policy), policies on their own cells (cells.js). Pure: steps in,
 * a plain object out.
 */
import { groupCells, groupSizes, isClean } from './cells.js';
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
 *   policies-tie, sizes-tie, still-rising, single-repeat, errors-at-sizes, all-errors, nothing-measured,
 *   and the bottleneck kinds generator, main-thread, machine
 * @property {string[]} sentences the reasons in words, with their figures
 * @property {import('./cells.js').Cell[]} cells the evidence: every measured (size, policy)
 * @property {import('./cells.js').SizeFigures[]} sizes figures per clean size (all its policies)
 * @property {import('./cells.js').Cell|null} chosen the recommended cell
 * @property {import('./cells.js').SizeFigures|null} best the size with the highest median throughput
 * @property {import('./cells.js').Cell|null} bestCell the highest-throughput cell at that size
 * @property {{ sizes: number[], policies: string[] }} ties sizes and policies whose repeats overlap the chosen ones
 * @property {{ primary: object|null, findings: object[], text: string, size: number }|null} bottleneck at the best size
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
    return { ...empty, reasons: ['nothing-measured'], sentences: ['Nothing was measured to completion, so there is nothing to recommend.'] };
  }
  const errorSizes = [...new Set(cells.filter((c) => !isClean(c)).map((c) => c.size))];
  if (sizes.length === 0) {
    return {
      ...empty,
      reasons: ['all-errors'],
      sentences: [`Every pool size measured (${errorSizes.join(', ')}) answered with errors or failed, so none can be recommended; see the errors in the table and the log.`],
    };
  }

  const best = sizes.reduce((a, b) => (b.rps.median > a.rps.median ? b : a));
  const inRpsBand = (x) => x.rps.median >= best.rps.median * (1 - RPS_BAND);
  const reasons = ['within-band'];
  let p99Best = Math.min(...sizes.map((x) => x.p99Ms.median));
  let inBand = (x) => inRpsBand(x) && x.p99Ms.median <= p99Best * (1 + P99_BAND);
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
  const bestCell = cells.filter((c) => c.size === best.size && isClean(c)).reduce((a, b) => (b.rps.median > a.rps.median ? b : a));
  const rec = {
    size: picked.size,
    policy: chosen.policy,
    reasons,
    cells,
    sizes,
    chosen,
    best,
    bestCell,
    ties: { sizes: sizeTies, policies: policyTies },
    bottleneck: { ...found, size: best.size },
  };
  return { ...rec, sentences: explain(rec, { picked, errorSizes, byP99, p99Best }) };
}

function explain(rec, { picked, errorSizes, byP99, p99Best }) {
  const { chosen, best, reasons } = rec;
  const workers = (n) => `${n} worker${n === 1 ? '' : 's'}`;
  const over = (x) => (x.policies > 1 ? `, median over its ${x.policies} policies` : '');
  const rps = (x) => `${Math.round(x.rps.median).toLocaleString('en-US')} req/s`;
  const relaxed = reasons.includes('p99-relaxed');
  // A null policy: a user's server balanced by its own code, with no policy knob to sweep.
  const sentences = [`Use ${workers(rec.size)}${rec.policy === null ? '' : ` with ${rec.policy}`}: ${fmtRps(chosen.rps)}, p99 ${fmtMs(chosen.p99Ms.median)}, no errors.`];
  if (picked === best) {
    sentences.push(`${capital(workers(rec.size))} gave the highest throughput measured (${rps(best)}${over(best)})${relaxed ? '' : ` and a p99 within ${P99_BAND * 100}% of the best`}.`);
  } else if (picked.size < best.size) {
    sentences.push(
      `With ${workers(rec.size)}, throughput (${rps(picked)}${over(picked)}) was within ${RPS_BAND * 100}% of the best size's ` +
        `(${workers(best.size)}: ${rps(best)}) and p99 within ${P99_BAND * 100}% of the best (${fmtMs(p99Best)}${relaxed ? ' among the sizes that fast' : ''}), with fewer workers.`,
    );
  } else {
    sentences.push(`The highest throughput (${workers(best.size)}: ${rps(best)}) came with a p99 more than ${P99_BAND * 100}% above the best, so the smallest size that met both is recommended.`);
  }
  if (reasons.includes('higher-throughput')) {
    sentences.push(`${byP99.policy} had the lowest p99 at ${workers(rec.size)}, but ${rec.policy} had clearly higher throughput.`);
  } else if (reasons.includes('policies-tie')) {
    sentences.push(`No meaningful difference between policies at ${workers(rec.size)}: their repeats overlap; ${rec.policy} had the lowest median p99.`);
  } else if (reasons.includes('best-p99')) {
    sentences.push(`At ${workers(rec.size)}, ${rec.policy} had the lowest p99 and no other policy had clearly higher throughput.`);
  }
  if (reasons.includes('sizes-tie')) {
    const list = rec.ties.sizes;
    sentences.push(`No meaningful difference in throughput between ${workers(rec.size)} and pool size${list.length > 1 ? 's' : ''} ${list.join(', ')}: their repeats overlap, so the smaller pool is the one to keep.`);
  }
  if (reasons.includes('still-rising')) {
    sentences.push(`Throughput was still rising at ${workers(rec.size)}, the largest size measured: measure larger pools too, e.g. --sizes ${[...rec.sizes.map((x) => x.size), rec.size * 2].join(',')}.`);
  }
  if (reasons.includes('single-repeat')) sentences.push('Each step was measured once: use --repeat 3 to see how much the figures move between runs.');
  if (errorSizes.length > 0) {
    sentences.push(`Pool sizes ${errorSizes.join(', ')} had errors or failed in at least one step; those steps were not considered.`);
  }
  sentences.push(`At the best size (${workers(best.size)})${rec.bottleneck.primary ? ',' : ':'} ${rec.bottleneck.text}.`);
  return sentences;
}

function capital(text) {
  return text[0].toUpperCase() + text.slice(1);
}

function fmtRps({ median, min, max, n }) {
  const r = (v) => Math.round(v).toLocaleString('en-US');
  return n > 1 ? `${r(median)} req/s (${r(min)}–${r(max)} over ${n} repeats)` : `${r(median)} req/s`;
}

function fmtMs(value) {
  if (!Number.isFinite(value)) return '–';
  return value < 10 ? `${value.toFixed(2)} ms` : value < 100 ? `${value.toFixed(1)} ms` : `${Math.round(value)} ms`;
}
