/**
 * The verdict when no problem rule fires: healthy, with the capacity seen and how
 * much of the busiest thread it used. The capacity is the lowest of what the main
 * thread, the pool and the CPU budget left allow (src/analysis/pool-capacity.js),
 * never a straight extrapolation from the main thread while other threads or
 * processes do the work.
 */
import { where, worst, num } from './verdict-common.js';
import { capacityOf } from './verdict-pool.js';
import { littleLaw } from './little-law.js';
import { SATURATED_ELU, CONNECTION_BOUND_MAX_BUSY, EXTRAPOLATE_MIN_SHARE, EXTRAPOLATE_MIN_COST_MS, EXTRAPOLATE_MIN_SHARE_COSTLY, OTHER_PROCESSES_CORES } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';
export { SATURATED_ELU } from '../base/thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @param {{ generatorLimited: boolean, cpuStarved?: boolean }} context whether the generator set the
 *   pace, whether the server often waited for a CPU (then its capacity here says little)
 * @returns {import('./verdict-common.js').Finding}
 */
export function healthy(evidence, { generatorLimited, cpuStarved = false }) {
  const { load } = evidence;
  /** @param {import('./verdict-common.js').ProcessEvidence} x */
  const busyOf = (x) => num(x.busy) ?? num(x.elu) ?? (isFiniteNumber(x.cpuPct) ? x.cpuPct / 100 : null);
  const p = worst(evidence.processes, busyOf);
  const busy = p ? busyOf(p) : null;
  const c = capacityOf(evidence);
  let capacity = null;
  let linear = null;
  let capacityFrom;
  if (generatorLimited) {
    capacityFrom = 'generator-limited';
  } else if (cpuStarved) {
    capacityFrom = 'cpu-starved';
  } else if (c.limit === 'cpu' && (c.coresFull ? (c.otherCores ?? 0) > (c.serverCores ?? 0) : crowdedBy(c, evidence.generator?.cpuPct ?? null))) {
    // The cores left after other programs bound it: the cores were full, and they held more of them than the server; under more
    // load it would take a share of theirs. A hello-world server at 20 req/s beside a test suite that held 2.0 of
    // 2 cores read "roughly 32 req/s … where the CPU budget runs out first". Not full, the same where other programs (not
    // the load generator) held more of them than the server: a server spinning 2 ms a request at --rate 100, beside
    // programs on 1.2 of 2 cores, read "roughly 302 req/s … the CPU budget runs out first"; a closed loop there served 438.
    capacityFrom = 'crowded';
  } else if (c.capacityRps === null) {
    capacityFrom = 'floor';
  } else if (c.capacityRps * SATURATED_ELU <= load.rps) {
    capacity = load.rps;
    capacityFrom = 'saturated';
  } else if (lightLoad(c, load.rps)) {
    // Too light a load to scale from: a hello-world server scaled from 7% busy read 1,483 req/s of 43,498.
    linear = c.capacityRps;
    capacityFrom = 'light-load';
  } else {
    capacity = c.capacityRps;
    capacityFrom = 'extrapolated';
  }
  // More connections find the limit only where the main thread, the pool and the cores all had room.
  const roomLeft = load.mode === 'closed' && (capacityFrom === 'extrapolated' || capacityFrom === 'light-load');
  // Little's law: with room left and throughput = connections / latency, the connection count bounded it.
  // A thread near its own limit is not waiting for connections, whatever the law says.
  const little = roomLeft && (busy ?? 0) < CONNECTION_BOUND_MAX_BUSY ? littleLaw(load) : null;
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
      busiestFrom: p && busy !== null ? (p.busyFrom ?? (num(p.elu) !== null ? 'elu' : 'cpu')) : null,
      capacityRps: capacity,
      capacityFrom,
      linearRps: linear,
      capacityLimit: c.limit,
      mainBusy: c.mainBusy,
      workers: c.workers,
      workerKind: c.workerKind,
      workersBusy: c.workersBusy,
      cores: c.cores,
      quotaCpus: c.quotaCpus,
      serverCores: c.serverCores,
      otherCores: c.otherCores,
      // A thread near its own limit had no idle time to speak of: more connections would queue at it.
      next: !roomLeft ? 'nothing-to-fix' : (busy ?? 0) >= CONNECTION_BOUND_MAX_BUSY ? 'near-limit' : 'raise-connections',
      connectionBound: little?.holds ? little : null,
    },
  };
}

/**
 * Whether the load used too little of the server's limit to scale capacity from in
 * a straight line (src/base/thresholds.js EXTRAPOLATE_MIN_SHARE): the share of the
 * limit used, and what each request took of it.
 * @param {import('./pool-capacity.js').PoolCapacity} c with a non-null capacityRps
 * @param {number} rps
 */
function lightLoad(c, rps) {
  const share = rps / /** @type {number} */ (c.capacityRps);
  if (share >= EXTRAPOLATE_MIN_SHARE) return false;
  if (share < EXTRAPOLATE_MIN_SHARE_COSTLY || !(rps > 0)) return true;
  // Seconds of the limit each request took: of the main thread, of a pool thread, of a core.
  const held = c.limit === 'main' ? c.mainBusy : c.limit === 'pool' ? (c.workersBusy ?? 0) * c.workers : c.serverCores;
  return !((held ?? 0) / rps * 1000 >= EXTRAPOLATE_MIN_COST_MS);
}

/**
 * Whether programs other than the server and the load generator held more of the cores than the server, and half a
 * core or more: the cores they left bound the capacity only as long as they keep them.
 * @param {import('./pool-capacity.js').PoolCapacity} c
 * @param {number|null} generatorCpuPct the load generator's CPU (% of one core), counted in c.otherCores
 */
function crowdedBy(c, generatorCpuPct) {
  if (!isFiniteNumber(c.otherCores) || !isFiniteNumber(c.serverCores)) return false;
  const others = c.otherCores - (isFiniteNumber(generatorCpuPct) ? generatorCpuPct / 100 : 0);
  return others >= OTHER_PROCESSES_CORES && others > c.serverCores;
}
