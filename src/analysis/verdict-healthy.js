/**
 * The verdict when no problem rule fires: healthy, with the capacity seen and how
 * much of the busiest thread it used.
 */
import { pct, ms, int } from '../report/format.js';
import { where, worst, num } from './verdict-common.js';
import { SATURATED_ELU, MIN_ELU_TO_EXTRAPOLATE } from '../thresholds.js';
export { SATURATED_ELU } from '../thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @param {{ generatorLimited: boolean, cpuStarved?: boolean }} context whether the generator set the
 *   pace, whether the server often waited for a CPU (then its capacity here says little)
 * @returns {import('./verdict-common.js').Finding}
 */
export function healthy(evidence, { generatorLimited, cpuStarved = false }) {
  const { load } = evidence;
  const p = worst(evidence.processes, (x) => num(x.elu) ?? (num(x.cpuPct) !== null ? x.cpuPct / 100 : null));
  const busy = p ? num(p.elu) ?? (num(p.cpuPct) !== null ? p.cpuPct / 100 : null) : null;
  const busyName = p && num(p.elu) !== null ? 'event loop busy' : 'CPU';
  const lines = [`served ${int(load.rps)} req/s, latency p50 ${ms(load.p50Ms)}, p99 ${ms(load.p99Ms)}, ${int(load.errors)} errors`];
  let capacity = null;
  let capacityText;
  if (generatorLimited) {
    capacityText = `at least ${int(load.rps)} req/s (the load generator was the limit)`;
  } else if (cpuStarved) {
    capacityText = `at least ${int(load.rps)} req/s (the server often waited for a CPU)`;
  } else if (busy !== null && busy >= SATURATED_ELU) {
    capacity = load.rps;
    capacityText = `about ${int(load.rps)} req/s: the busiest thread was saturated`;
  } else if (busy !== null && busy >= MIN_ELU_TO_EXTRAPOLATE) {
    capacity = load.rps / busy;
    capacityText = `roughly ${int(capacity)} req/s if work grows linearly with load (${int(load.rps)} req/s used ${pct(busy)})`;
  } else {
    capacityText = `at least ${int(load.rps)} req/s`;
  }
  if (p && busy !== null) lines.push(`${busyName} ${pct(busy)} on ${where(p)}`);
  lines.push(`capacity seen: ${capacityText}`);
  const next = load.mode === 'closed' && !generatorLimited && busy !== null && busy < SATURATED_ELU
    ? ['the server had idle time: raise --connections to find its limit']
    : ['nothing to fix at this load; diagnose again with the load you expect in production (--rate)'];
  return {
    id: 'healthy',
    kind: 'healthy',
    title: 'healthy: no stall found at this load',
    where: where(p),
    evidence: lines,
    next,
    figures: { rps: load.rps, p50Ms: num(load.p50Ms), p99Ms: num(load.p99Ms), busiest: busy, capacityRps: capacity },
  };
}
