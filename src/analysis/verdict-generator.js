/** Rule: the load generator, not the server, set the pace (the throughput seen is a lower bound). */
import { num } from './verdict-common.js';
import { moreGeneratorThreads } from './bottleneck.js';
import { GENERATOR_BUSY_ELU, GENERATOR_BUSY_MIN_MS } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';
export { GENERATOR_BUSY_ELU } from '../base/thresholds.js';

/**
 * Not judged on a run measured for less than GENERATOR_BUSY_MIN_MS.
 * Open-loop "missed" requests are not used: they also rise when the server is
 * slow and every connection is busy, so they do not single out the generator.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function generatorLimited(evidence) {
  const { generator } = evidence;
  if (!isFiniteNumber(generator.elu) || generator.elu < GENERATOR_BUSY_ELU) return null;
  // Over a few milliseconds the thread is busy starting: its ELU says nothing about the run (-d 1ms read 100%).
  const measuredMs = evidence.load?.measuredMs;
  if (isFiniteNumber(measuredMs) && measuredMs < GENERATOR_BUSY_MIN_MS) return null;
  return {
    id: 'generator-limited',
    kind: 'limit',
    where: null,
    figures: { generatorElu: generator.elu, generatorCpuPct: num(generator.cpuPct), threads: generator.threads, suggestedThreads: moreGeneratorThreads(generator.threads ?? 1, (generator.threads ?? 1) + 1, num(evidence.cores)) },
  };
}
