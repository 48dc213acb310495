/**
 * The pool size a run's figures call for, by asymptotic bounds from the
 * operational laws. Each resource's service demand is its utilisation ÷
 * throughput (D = U / X); throughput can never pass 1 / D of a resource with one
 * server, or C / D of one with C (the cores). The workers are N servers of demand
 * D_w each, so the pool alone allows N / D_w; the shared resources (the cores, the
 * main thread, the load generator) allow what they allow whatever N is. The pool
 * stops helping at the knee where the two meet: N* = D_w × X_shared, planned at
 * POOL_TARGET_BUSY per worker. Pure.
 */
import { busyShare } from './busy-time.js';
import { isFiniteNumber } from './stats.js';
import { POOL_TARGET_BUSY, TUNE_MAX_SIZE_FACTOR, QUOTA_THROTTLED_FRACTION } from '../base/thresholds.js';

/**
 * @typedef {object} PoolEstimate
 * @property {number|null} size     workers to use (null: the figures cannot say)
 * @property {number|null} knee     N* = D_w × X_shared, unrounded
 * @property {'cores'|'main-thread'|'generator'|null} limit the shared resource that saturates first
 * @property {{ workersMs: number|null, mainMs: number|null, cpuMs: number|null }} demands per request:
 *   worker time (all workers, contention taken out), main-thread time, CPU time of everything
 * @property {{ pool: number|null, main: number|null, cores: number|null, generator: number|null }} bounds
 *   the most req/s each resource allows (pool at the run's size)
 * @property {number|null} availableCores core-equivalents the pool is sized for (the CPU budget's capacity)
 * @property {number|null} quotaCpus      the throttled quota's CPUs where they, not the budget, bound `bounds.cores`
 * @property {number|null} otherCores     cores other processes used during the run
 * @property {number|null} usedCores      cores the run used (server, commands, generator)
 * @property {number} stretch             worst run-queue stretch of the workers (1 = none)
 * @property {'elu'|'cpu'|null} source    what worker busy time came from
 */

/**
 * @param {import('./advice-input.js').AdviceInput} input
 * @returns {PoolEstimate}
 */
export function estimatePoolSize(input) {
  const x = input.rps;
  // The budget (CPUs the scheduler offers) sizes the pool; its capacity (core-equivalents: an SMT sibling is a
  // share of a core, src/machine/cpu-budget.js) bounds what the CPUs serve; the host's CPUs convert the system mean.
  const cores = input.cores ?? null;
  const capacity = input.capacity ?? cores;
  const hostCpus = input.hostCpus ?? cores;
  const empty = {
    size: null, knee: null, limit: null, demands: { workersMs: null, mainMs: null, cpuMs: null },
    bounds: { pool: null, main: null, cores: null, generator: null }, availableCores: null, quotaCpus: null, otherCores: null, usedCores: null, stretch: 1, source: null,
  };
  if (!(x > 0)) return empty;

  // Under a quota that throttled, its stops are the deployed cost of a request, not contention to take out (busy-time.js).
  const throttled = (input.throttle?.fraction ?? 0) >= QUOTA_THROTTLED_FRACTION;
  const shares = input.workers.map((w) => busyShare(w, childCpuOf(input, w), { throttled }));
  const known = shares.filter((s) => s.busy !== null);
  // known: the shares whose busy is a number
  const workersBusy = known.length ? known.reduce((sum, s) => sum + /** @type {number} */ (s.busy), 0) * (input.workers.length / known.length) : null;
  const dWorkers = workersBusy !== null ? workersBusy / x : null;

  const main = input.main ? busyShare(input.main, input.workers.length ? null : childCpuOf(input, null), { throttled }) : null;
  const dMain = main?.busy != null ? main.busy / x : null;

  // A worker thread's CPU is already in its process's (the main's): count processes only.
  const workerProcesses = input.workers.filter((w) => w.kind !== 'thread');
  const ours = sumOf([input.main?.cpuPct, ...workerProcesses.map((w) => w.cpuPct), input.spawnedCpuPct, input.generator.cpuPct]) / 100;
  const dCpu = ours > 0 ? ours / x : null;
  // Other processes: as measured per process where /proc was read whole (the figure the views name them by), else what the cores' busy time leaves.
  const otherCores = isFiniteNumber(input.otherCores) ? input.otherCores
    : hostCpus && isFiniteNumber(input.systemCpuPct) ? Math.max(0, (input.systemCpuPct / 100) * hostCpus - ours) : null;
  // The pool is sized for the machine's cores, not for what other programs left
  // this run: their load comes and goes (on a shared box it moved 0.8–1.5 cores
  // between consecutive 3 s runs), and one worker too many costs a process's
  // memory while one too few costs throughput. Their share is reported and
  // lowers the confidence instead (run-advice.js).
  const availableCores = capacity ?? null;
  // The server's quota bounds what its processes get, below the budget when spawnbench is outside it: its CPUs over
  // the CPU of what runs inside it (the generator only when spawnbench shares the quota). Throttled or not: other
  // processes that kept it below its quota did not lift it ("Set WORKERS=3 … 2 cores serve at most ~1,985 req/s" of
  // a cluster under a 1.5-CPU quota it never reached while other processes held 0.8 of the 2 cores).
  const quota = input.throttle?.roles?.includes('server') && isFiniteNumber(input.throttle.quotaCpus) ? input.throttle : null;
  const inQuota = quota && !quota.roles.includes('spawnbench') ? ours - (input.generator.cpuPct ?? 0) / 100 : ours;
  const quotaBound = quota && inQuota > 0 ? quota.quotaCpus / (inQuota / x) : null;
  const budgetBound = dCpu && availableCores ? availableCores / dCpu : null;
  const quotaBinds = quotaBound !== null && (budgetBound === null || quotaBound < budgetBound);

  const bounds = {
    pool: dWorkers ? input.workers.length / dWorkers : null,
    main: dMain ? 1 / dMain : null,
    cores: quotaBinds ? quotaBound : budgetBound,
    // The busiest generator thread's ELU: at 1 it sends no faster.
    generator: (input.generator.elu ?? 0) > 0 ? x / /** @type {number} above 0 */ (input.generator.elu) : null,
  };
  /** @type {Array<[PoolEstimate['limit'], number|null]>} */
  const bounded = [['cores', bounds.cores], ['main-thread', bounds.main], ['generator', bounds.generator]];
  const shared = /** @type {Array<[PoolEstimate['limit'], number]>} kept: a bound that is a number */ (bounded.filter(([, v]) => v !== null));
  const [limit, xShared] = shared.length ? shared.reduce((a, b) => (b[1] < a[1] ? b : a)) : [null, null];
  const knee = dWorkers !== null && xShared !== null ? dWorkers * xShared : null;
  const max = cores ? Math.max(1, TUNE_MAX_SIZE_FACTOR * Math.ceil(cores - 1e-9)) : Infinity;
  const size = knee === null ? null : Math.min(max, Math.max(1, Math.ceil(knee / POOL_TARGET_BUSY)));
  return {
    size,
    knee,
    limit,
    demands: { workersMs: ms(dWorkers), mainMs: ms(dMain), cpuMs: ms(dCpu) },
    bounds,
    availableCores,
    quotaCpus: quotaBinds ? /** @type {NonNullable<typeof quota>} */ (quota).quotaCpus : null,
    otherCores,
    usedCores: ours > 0 ? ours : null,
    stretch: Math.max(1, ...shares.map((s) => s.stretch)),
    source: known[0]?.source ?? null,
  };
}

/**
 * CPU of the commands one loop spawned, as a share of wall time: its part of the
 * spawned commands' CPU by its share of the requests (an equal part when the
 * counts are missing); the main thread's when there are no workers (it spawns).
 * @param {import('./advice-input.js').AdviceInput} input
 * @param {import('./advice-input.js').ThreadFigures|null} worker null: the main thread
 */
export function childCpuOf(input, worker) {
  if (!isFiniteNumber(input.spawnedCpuPct)) return null;
  const all = input.spawnedCpuPct / 100;
  if (!worker) return all;
  const total = input.workers.reduce((sum, w) => sum + (isFiniteNumber(w.requests) ? w.requests : 0), 0);
  return isFiniteNumber(worker.requests) && total > 0 ? (all * worker.requests) / total : all / input.workers.length;
}

/** @param {number|null} seconds */
function ms(seconds) {
  return seconds === null ? null : seconds * 1000;
}

/** @param {Array<number|null|undefined>} values */
function sumOf(values) {
  return values.filter(isFiniteNumber).reduce((sum, v) => sum + v, 0);
}
