/**
 * Deterministic synthetic sweeps for the recommender (clinic-doctor style: a
 * seeded generator with a noise knob), so verdicts never depend on the machine.
 */
import { seededRandom } from '../../strategies/lib/random.js';

/** mulberry32, the strategies' own seeded PRNG, uniform in [0, 1). */
export const seeded = seededRandom;

/** Signals of an unremarkable run: everything has room. */
export const CALM = {
  mainElu: 0.4, mainBlocked: 0.02, mainCpuPct: 40, workersCpuPct: 80, workersElu: 0.5,
  spawnedCpuPct: 30, systemCpuPct: 60, generatorCpuPct: 30, generatorElu: 0.3, generatorThreads: 1, cores: 8,
};

/**
 * Steps for every (size, policy, repeat), interleaved like the sweep engine runs them.
 * @param {object} o
 * @param {number[]} o.sizes
 * @param {string[]} [o.policies]
 * @param {number} [o.repeats]
 * @param {(size: number, policy: string) => number} o.rps
 * @param {(size: number, policy: string, rps: number) => number} [o.p99] default: 30 connections / rps (Little's law) × 2
 * @param {(size: number, policy: string) => number} [o.errors]
 * @param {(size: number, policy: string) => object} [o.signals]
 * @param {number} [o.noise] relative noise, e.g. 0.02 for ±2%
 * @param {number} [o.seed]
 */
export function sweep({ sizes, policies = ['round-robin'], repeats = 3, rps, p99, errors, signals, noise = 0, seed = 1 }) {
  const random = seeded(seed);
  const jitter = () => 1 + noise * (2 * random() - 1);
  const steps = [];
  for (let repeat = 1; repeat <= repeats; repeat++) {
    for (const size of sizes) {
      for (const policy of policies) {
        const r = rps(size, policy) * jitter();
        const latency = p99 ? p99(size, policy, r) : (30 / r) * 1000 * 2;
        steps.push({
          size, policy, repeat,
          rps: r,
          p99Ms: latency * jitter(),
          errors: errors?.(size, policy) ?? 0,
          signals: { ...CALM, ...(signals?.(size, policy) ?? {}) },
        });
      }
    }
  }
  return steps;
}
