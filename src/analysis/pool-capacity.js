/**
 * How many requests per second a server could serve, bounded by each thing that
 * can run out: its main thread (the hand-off of every request), its pool (the
 * worker threads or processes that do the work) and the CPU budget left to it
 * (the cores, less what other programs and the load generator used). A pool that
 * waits for work (piscina's threads in Atomics.wait) is not counted busy: each
 * figure is the busy share the sampler settled on (src/sample/thread-busy.js).
 * Pure: figures in, figures and ids out.
 */
import { mean, isFiniteNumber } from './stats.js';
import { MIN_ELU_TO_EXTRAPOLATE, MACHINE_CPU_LIMIT_PCT, MIN_SERVER_CPU_PCT } from '../base/thresholds.js';
import { isWorkerEntry, isServerEntry } from '../machine/process-roles.js';


/**
 * @typedef {object} PoolCapacity
 * @property {number} workers            pool workers seen (threads and worker processes)
 * @property {'thread'|'process'|'mixed'|null} workerKind
 * @property {number|null} workersBusy   mean busy share of the workers, 0..1
 * @property {number|null} workersBusyMax
 * @property {'elu'|'cpu'|'mixed'|null} busyFrom which figure the workers' busy share is
 * @property {number|null} mainBusy      the main thread's busy share (ELU, or CPU without the probe), 0..1
 * @property {number|null} cores         the CPU budget, cores
 * @property {number|null} coresBusyPct  mean busy share of all cores, %
 * @property {boolean} coresFull         coresBusyPct ≥ MACHINE_CPU_LIMIT_PCT
 * @property {number|null} serverCores   cores the server used (its processes with their threads, and the commands it spawned)
 * @property {number|null} otherCores    cores everything else used (load generator included)
 * @property {{ main: number|null, pool: number|null, cpu: number|null }} bounds req/s each allows
 * @property {number|null} quotaCpus     the server's CPU quota where it, not the cores left, bounds `bounds.cpu`
 * @property {number|null} capacityRps   the lowest bound
 * @property {'main'|'pool'|'cpu'|null} limit which bound it is
 */

/**
 * @typedef {{ role?: string|null, busy?: number|null, busyFrom?: 'elu'|'cpu'|null, elu?: number|null, cpuPct?: number|null }} CapacityProcess
 *   one process or thread of the server, as poolCapacity reads it
 */

/**
 * @param {{ rps: number, processes: CapacityProcess[], cores?: number|null, cpus?: number[], spawnedCpuPct?: number|null, busyPct?: number|null,
 *   quota?: { cpus: number, sharedPct: number }|null }} input `quota`: the CPU quota the server runs under, and the CPU (% of one
 *   core) of what shares it besides (the load generator, where spawnbench is in it too)
 *   `processes`: role 'main' | 'worker' (a process) | 'thread' (a worker thread, `cpuPct` its own);
 *   a process's `cpuPct` covers all its threads; `cpus`: each core's busy %
 * @returns {PoolCapacity}
 */
export function poolCapacity({ rps, processes, cores = null, cpus = [], spawnedCpuPct = null, busyPct = null, quota = null }) {
  const main = processes.find((p) => p.role === 'main') ?? null;
  const workers = processes.filter(isWorkerEntry);
  /** @param {CapacityProcess} p */
  const busyOf = (p) => finite(p.busy) ?? finite(p.elu) ?? (isFiniteNumber(p.cpuPct) ? Math.min(1, p.cpuPct / 100) : null);
  const workerBusy = workers.map(busyOf).filter(isFiniteNumber);
  const workersBusy = mean(workerBusy);
  const mainBusy = main ? busyOf(main) : null;

  // Busy against the budget where it is known (src/analysis/cpu-view.js: a 1-CPU quota on 2 cores is full at 50% of the host).
  const coresBusyPct = finite(busyPct) ?? mean(cpus);
  const budget = finite(cores) ?? (cpus.length || null);
  // A process's CPU covers its threads; a launcher (npm, a shell) above the server is not the server.
  const processCpu = processes.filter((p) => p.role !== 'thread' && isServerEntry(p)).map((p) => finite(p.cpuPct));
  const serverPct = processCpu.some((v) => v !== null) ? sum(processCpu) + (finite(spawnedCpuPct) ?? 0) : null;
  const systemPct = cpus.length ? sum(cpus) : null;
  const otherPct = serverPct !== null && systemPct !== null ? Math.max(0, systemPct - serverPct) : null;
  // The cores left to the server: its budget, less what other programs took (on every core of the machine).
  const freePct = budget !== null && otherPct !== null ? Math.min(budget * 100, cpus.length * 100 - otherPct) : null;

  const coresBound = serverPct !== null && serverPct >= MIN_SERVER_CPU_PCT && freePct !== null ? rps * Math.max(freePct, serverPct) / serverPct : null;
  // A quota on the server bounds it below the cores whether or not it throttled yet: a 2 ms route at 148 req/s in a
  // 0.5-CPU quota read "roughly 415 req/s … where the main thread runs out first", where the quota allows ~250.
  const inQuotaPct = quota && serverPct !== null ? serverPct + quota.sharedPct : null;
  const quotaBound = quota && inQuotaPct !== null && serverPct !== null && serverPct >= MIN_SERVER_CPU_PCT ? rps * (quota.cpus * 100) / inQuotaPct : null;
  const quotaBinds = quotaBound !== null && (coresBound === null || quotaBound < coresBound);
  const bounds = {
    main: mainBusy !== null && mainBusy >= MIN_ELU_TO_EXTRAPOLATE ? rps / mainBusy : null,
    pool: workersBusy !== null && workersBusy >= MIN_ELU_TO_EXTRAPOLATE ? rps / workersBusy : null,
    cpu: quotaBinds ? quotaBound : coresBound,
  };
  /** @type {PoolCapacity['limit']} */
  let limit = null;
  for (const id of /** @type {const} */ (['cpu', 'pool', 'main'])) {
    const bound = bounds[id];
    if (bound !== null && (limit === null || bound < /** @type {number} */ (bounds[limit]))) limit = id; // limit is only ever set to a non-null bound
  }
  return {
    workers: workers.length,
    workerKind: kindOf(workers),
    workersBusy,
    workersBusyMax: workerBusy.length ? Math.max(...workerBusy) : null,
    busyFrom: fromOf(workers),
    mainBusy,
    cores: budget,
    coresBusyPct,
    coresFull: (coresBusyPct ?? 0) >= MACHINE_CPU_LIMIT_PCT,
    serverCores: serverPct !== null ? serverPct / 100 : null,
    otherCores: otherPct !== null ? otherPct / 100 : null,
    quotaCpus: quotaBinds && quota ? quota.cpus : null,
    bounds,
    capacityRps: limit ? bounds[limit] : null,
    limit,
  };
}

/**
 * @param {CapacityProcess[]} workers
 * @returns {PoolCapacity['workerKind']}
 */
function kindOf(workers) {
  const kinds = new Set(workers.map((w) => (w.role === 'thread' ? 'thread' : 'process')));
  if (kinds.size === 0) return null;
  return kinds.size === 1 ? [...kinds][0] : 'mixed';
}

/**
 * @param {CapacityProcess[]} workers
 * @returns {PoolCapacity['busyFrom']}
 */
function fromOf(workers) {
  /** @type {Set<'elu'|'cpu'>} */
  const from = new Set(workers.map((w) => w.busyFrom ?? (finite(w.elu) !== null ? 'elu' : 'cpu')));
  if (from.size === 0) return null;
  return from.size === 1 ? [...from][0] : 'mixed';
}

/**
 * @param {unknown} value
 * @returns {number|null}
 */
function finite(value) {
  return isFiniteNumber(value) ? value : null;
}

/**
 * @param {Array<number|null>} values
 * @returns {number}
 */
function sum(values) {
  let total = 0;
  for (const v of values) total += v ?? 0;
  return total;
}
