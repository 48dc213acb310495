/**
 * The verdict when no problem rule fires: healthy, with the capacity seen and how
 * much of the busiest thread it used.
 */
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
  let capacity = null;
  let capacityFrom;
  if (generatorLimited) {
    capacityFrom = 'generator-limited';
  } else if (cpuStarved) {
    capacityFrom = 'cpu-starved';
  } else if (busy !== null && busy >= SATURATED_ELU) {
    capacity = load.rps;
    capacityFrom = 'saturated';
  } else if (busy !== null && busy >= MIN_ELU_TO_EXTRAPOLATE) {
    capacity = load.rps / busy;
    capacityFrom = 'extrapolated';
  } else {
    capacityFrom = 'floor';
  }
  const roomLeft = load.mode === 'closed' && !generatorLimited && busy !== null && busy < SATURATED_ELU;
  return {
    id: 'healthy',
    kind: 'healthy',
    where: where(p),
    figures: {
      rps: load.rps,
      p50Ms: num(load.p50Ms),
      p99Ms: num(load.p99Ms),
      errors: load.errors,
      busiest: busy,
      busiestFrom: p && busy !== null ? (num(p.elu) !== null ? 'elu' : 'cpu') : null,
      capacityRps: capacity,
      capacityFrom,
      next: roomLeft ? 'raise-connections' : 'nothing-to-fix',
    },
  };
}
