/**
 * `--search adaptive`: coarse-to-fine over pool sizes with one lead policy, then
 * the other policies at the chosen size only. It measures what the recommender
 * needs (where the throughput peak is, and the smallest size inside the band
 * below it) and skips the rest; bench/tune.js checks it lands on the same size
 * as the exhaustive sweep with ≥ 40% fewer steps.
 *
 * 1. coarse: the powers of two among the sizes, plus the smallest and largest;
 * 2. fine: while an unmeasured size lies between the best size and a measured
 *    neighbour, or between the recommended size and the measured size below it,
 *    measure the middle one of that gap (bisection);
 * 3. policies: every other policy at the recommended size.
 * Each batch is measured `repeat` times, interleaved.
 */
import { recommend } from '../analysis/recommend.js';
import { interleave } from './exhaustive.js';

/**
 * The policy the size search runs with: round-robin (spawnbench's default
 * balance, and the one with the least variance on a uniform workload) when asked for.
 */
export const LEAD_POLICY = 'round-robin';

/**
 * The coarse sizes: powers of two, the smallest and the largest.
 * @param {number[]} sizes sorted
 */
export function coarseSizes(sizes) {
  const isPowerOfTwo = (n) => (n & (n - 1)) === 0;
  return sizes.filter((n, i) => i === 0 || i === sizes.length - 1 || isPowerOfTwo(n));
}

/**
 * The unmeasured sizes the recommendation could still move to: the middle of
 * each gap next to the best size, and of the gap below the recommended size.
 * @param {number[]} sizes sorted candidates
 * @param {Set<number>} measured
 * @param {{ best: number, recommended: number }} at
 * @returns {number[]}
 */
export function refineSizes(sizes, measured, { best, recommended }) {
  const gaps = [];
  const gapBelow = (target) => {
    const below = sizes.filter((n) => n < target && measured.has(n)).at(-1) ?? 0;
    return sizes.filter((n) => n > below && n < target && !measured.has(n));
  };
  const gapAbove = (target) => {
    const above = sizes.find((n) => n > target && measured.has(n)) ?? Infinity;
    return sizes.filter((n) => n > target && n < above && !measured.has(n));
  };
  gaps.push(gapBelow(best), gapAbove(best), gapBelow(recommended));
  const picks = gaps.filter((gap) => gap.length > 0).map((gap) => gap[Math.floor((gap.length - 1) / 2)]);
  return [...new Set(picks)].sort((a, b) => a - b);
}

/**
 * @param {{ sizes: number[], policies: string[], repeat: number }} plan
 * @returns {{ mode: 'adaptive', lead: string, exhaustiveSteps: number, nextBatch: (steps: object[]) => object[] }}
 *   `lead`: the policy the sizes are searched with first
 */
export function createAdaptiveSearch({ sizes, policies, repeat }) {
  const sorted = [...sizes].sort((a, b) => a - b);
  const lead = policies.includes(LEAD_POLICY) ? LEAD_POLICY : policies[0];
  let phase = 'coarse';
  return {
    mode: 'adaptive',
    lead,
    exhaustiveSteps: sizes.length * policies.length * repeat,
    nextBatch(steps) {
      if (phase === 'coarse') {
        phase = 'fine';
        return interleave(coarseSizes(sorted), [lead], repeat);
      }
      const leadSteps = steps.filter((s) => s.policy === lead);
      const rec = recommend(leadSteps);
      if (rec.size === null) return [];
      if (phase === 'fine') {
        const measured = new Set(leadSteps.map((s) => s.size));
        const next = refineSizes(sorted, measured, { best: rec.best.size, recommended: rec.size });
        if (next.length > 0) return interleave(next, [lead], repeat);
        phase = 'policies';
        const others = policies.filter((p) => p !== lead);
        if (others.length > 0) return interleave([rec.size], others, repeat);
      }
      phase = 'done';
      return [];
    },
  };
}
