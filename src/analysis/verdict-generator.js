/** Rule: the load generator, not the server, set the pace (the throughput seen is a lower bound). */
import { pct } from '../report/format.js';
import { num } from './verdict-common.js';
import { GENERATOR_BUSY_ELU } from '../thresholds.js';
export { GENERATOR_BUSY_ELU } from '../thresholds.js';

/**
 * Open-loop "missed" requests are not used: they also rise when the server is
 * slow and every connection is busy, so they do not single out the generator.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function generatorLimited(evidence) {
  const { generator } = evidence;
  if (num(generator.elu) === null || generator.elu < GENERATOR_BUSY_ELU) return null;
  const cpu = num(generator.cpuPct) !== null ? `, ${Math.round(generator.cpuPct)}% CPU over ${generator.threads} thread(s)` : '';
  return {
    id: 'generator-limited',
    kind: 'limit',
    title: 'the load generator was the limit: the server may take more',
    where: null,
    evidence: [`busiest generator thread ${pct(generator.elu)} busy (threshold ${pct(GENERATOR_BUSY_ELU)})${cpu}`],
    next: [`add generator threads: --generator-threads ${generator.threads + 1} (each needs a free core), or drive it with wrk`],
    figures: { generatorElu: generator.elu, generatorCpuPct: num(generator.cpuPct) },
  };
}
