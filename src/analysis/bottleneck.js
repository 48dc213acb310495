/**
 * What limited a run, from its sampler signals (src/analysis/run-figures.js).
 * Pure: signals in, findings out, so each verdict is tested on made-up figures.
 */
import { bigOtherUsers } from './error-reasons.js';
import { littleLaw } from './little-law.js';
import { budgetWorkers } from '../machine/cpu-budget.js';
import { isFiniteNumber } from './stats.js';
import {
  MAIN_ELU_LIMIT, MACHINE_CPU_LIMIT_PCT, OTHER_PROCESSES_CORES, SPAWN_BLOCKED_LIMIT_FRACTION, GENERATOR_BUSY_CPU_PCT, GENERATOR_BUSY_ELU,
  POOL_BUSY_FRACTION, CONNECTION_BOUND_MAX_BUSY,
  QUOTA_THROTTLED_FRACTION, OPEN_LOOP_RATE_MET, OPEN_LOOP_BEYOND_SHARE, LITTLE_LAW_TOLERANCE,
} from '../base/thresholds.js';
export { MAIN_ELU_LIMIT, MACHINE_CPU_LIMIT_PCT, OTHER_PROCESSES_CORES } from '../base/thresholds.js';

/**
 * @typedef {object} Finding one limit, as an id and its figures (worded in src/report/tune-words.js)
 * @property {'cpu-quota'|'generator'|'main-thread'|'pool'|'machine'|'host'|'connections'|'rate'} kind
 * @property {Record<string, number|string|boolean|null|undefined|string[]|object>} figures the numbers behind it; the roles a
 *   quota binds, the budget's source, CPU per part and the other CPU users where they say which
 */

/**
 * Every limit the signals show, most decisive first: a throttled CPU quota is a
 * measured limit that every other figure sits under (a thread held back by the
 * quota looks busy or slow); a generator-bound run makes the other figures
 * suspect; a saturated main thread explains a flat curve whatever the cores do;
 * a busy pool (its workers' busy share, a thread's CPU time where ELU counted its
 * waiting) is the size's own limit; a saturated budget of CPUs is the last word
 * (left out when the quota already names it: inside a quota the budget is the quota).
 * With none of these and the samplers there to say so, a closed loop whose throughput is
 * connections / latency (Little's law) was bounded by its connection count, not the server. An open loop
 * served in full (`rate`) comes first: its rate, not the server, set the throughput.
 * @param {import('./run-figures.js').RunSignals} s
 * @param {{ downstreams?: Array<{ peer: string, name: string|null }>|null }} [context] the server's downstreams, to
 *   say when a process that took the cores is one of them
 * @returns {{ primary: Finding|null, findings: Finding[], known: boolean }} `known`: whether any sampler figure was there
 */
export function findBottleneck(s, { downstreams = null } = {}) {
  /** @type {Finding[]} */
  const findings = [];
  // An open loop served in full: the rate offered set the throughput, whatever else the samples show.
  if (s.loadMode === 'open' && isFiniteNumber(s.rate) && s.rate > 0 && isFiniteNumber(s.loadRps) && s.loadRps >= s.rate * OPEN_LOOP_RATE_MET) {
    findings.push({ kind: 'rate', figures: { rate: s.rate, rps: s.loadRps } });
  }
  const throttle = s.throttle ?? null;
  const quotaBound = throttle !== null && throttle.fraction >= QUOTA_THROTTLED_FRACTION;
  if (quotaBound) {
    findings.push({
      kind: 'cpu-quota',
      figures: { quotaCpus: throttle.quotaCpus, throttledFraction: throttle.fraction, throttledMs: throttle.throttledMs, roles: throttle.roles, threshold: QUOTA_THROTTLED_FRACTION },
    });
  }
  const threads = Math.max(1, s.generatorThreads ?? 1);
  const genPerThread = isFiniteNumber(s.generatorCpuPct) ? s.generatorCpuPct / threads : null;
  // CPU when the generator could read it (/proc); its ELU only otherwise, since a
  // loop can look busy while waiting in the kernel.
  const generatorBound = genPerThread !== null ? genPerThread >= GENERATOR_BUSY_CPU_PCT : (s.generatorElu ?? 0) >= GENERATOR_BUSY_ELU;
  if (generatorBound) {
    findings.push({
      kind: 'generator',
      figures: { cpuPctPerThread: genPerThread, generatorElu: finite(s.generatorElu), threads, suggestedThreads: moreGeneratorThreads(threads, threads * 2, s.cores) },
    });
  }
  const eluBound = (s.mainElu ?? 0) >= MAIN_ELU_LIMIT;
  const spawnBound = (s.mainBlocked ?? 0) >= SPAWN_BLOCKED_LIMIT_FRACTION;
  if (eluBound || spawnBound) {
    findings.push({ kind: 'main-thread', figures: { mainElu: finite(s.mainElu), mainBlocked: finite(s.mainBlocked) } });
  }
  if ((s.workers ?? 0) > 0 && (s.workersBusy ?? 0) >= POOL_BUSY_FRACTION) {
    findings.push({
      kind: 'pool',
      figures: { workers: s.workers, workerKind: s.workerKind ?? null, workersBusy: s.workersBusy, busyFrom: s.workersBusyFrom ?? null },
    });
  }
  // Busy against the budget (a 1-CPU quota on 2 cores is full at 50% of the host); a result from before the budget: the host's mean.
  const busyPct = s.budgetBusyPct ?? s.systemCpuPct;
  if (!quotaBound && (busyPct ?? 0) >= MACHINE_CPU_LIMIT_PCT) {
    const cpuPct = Object.fromEntries([
      ['workers', s.workersCpuPct],
      ['spawned', s.spawnedCpuPct],
      ['main', s.mainCpuPct],
      ['generator', s.generatorCpuPct],
    ].filter(([, v]) => Number.isFinite(v)));
    const seen = sumOf([s.workersCpuPct, s.spawnedCpuPct, s.mainCpuPct, s.generatorCpuPct]) / 100;
    const hostCpus = s.hostCpus ?? s.cores;
    const others = isFiniteNumber(s.otherCores) ? s.otherCores : hostCpus && isFiniteNumber(s.systemCpuPct) ? (s.systemCpuPct / 100) * hostCpus - seen : 0;
    findings.push({
      kind: 'machine',
      figures: {
        systemCpuPct: s.systemCpuPct, cores: s.cores ?? null, cpuPct, otherCores: others >= OTHER_PROCESSES_CORES ? others : null,
        busyPct, budgetSource: s.budgetSource ?? null, hostCpus: hostCpus ?? null,
        // The processes outside the server that took a large share, by name (postgres ×14: 1.2 cores).
        otherUsers: bigOtherUsers(s.otherUsers ?? null, hostCpus ?? null, downstreams),
      },
    });
  }
  // A budget narrower than the host (a quota, a cpuset, an affinity) that the run did not fill while the
  // host was full: other processes took the CPU the budget allows, and the run got less than its budget.
  const narrower = s.budgetSource && s.budgetSource !== 'host';
  if (narrower && !quotaBound && (busyPct ?? 100) < MACHINE_CPU_LIMIT_PCT && (s.systemCpuPct ?? 0) >= MACHINE_CPU_LIMIT_PCT && s.hostCpus) {
    const seen = sumOf([s.workersCpuPct, s.spawnedCpuPct, s.mainCpuPct, s.generatorCpuPct]) / 100;
    // systemCpuPct is at least MACHINE_CPU_LIMIT_PCT here, so a number
    const others = isFiniteNumber(s.otherCores) ? s.otherCores : (/** @type {number} */ (s.systemCpuPct) / 100) * s.hostCpus - seen;
    if (others >= OTHER_PROCESSES_CORES) {
      findings.push({ kind: 'host', figures: { systemCpuPct: s.systemCpuPct, hostCpus: s.hostCpus, otherCores: others, busyPct, cores: s.cores, budgetSource: s.budgetSource } });
    }
  }
  const known = [s.mainElu, s.systemCpuPct, s.generatorCpuPct, s.generatorElu, throttle?.fraction].some(Number.isFinite);
  // A main thread or pool near its own limit is not waiting for connections, whatever the law says.
  const roomy = Math.max(s.mainElu ?? 0, s.workersBusy ?? 0) < CONNECTION_BOUND_MAX_BUSY;
  const little = known && roomy && findings.length === 0 ? littleLaw({ mode: s.loadMode ?? null, connections: s.connections, rps: s.loadRps, meanMs: s.meanMs, p50Ms: s.p50Ms }) : null;
  // An open loop far beyond what was answered kept every connection busy: they, not the rate asked, carried what was
  // served. `tune --rate 200 -c 2` on a 20 ms server (94 req/s) read "the limit is one spawnbench does not sample".
  const beyond = known && roomy && findings.length === 0 && s.loadMode === 'open' && isFiniteNumber(s.rate) && isFiniteNumber(s.loadRps) && s.loadRps > 0 &&
    isFiniteNumber(s.connections) && s.connections > 0 && s.loadRps < s.rate * OPEN_LOOP_BEYOND_SHARE &&
    // Every connection busy: each request's latency (timed from when it was due) at least its time on its connection.
    (s.meanMs ?? s.p50Ms ?? 0) >= ((s.connections / s.loadRps) * 1000) * (1 - LITTLE_LAW_TOLERANCE);
  if (little?.holds || beyond) {
    findings.push({
      kind: 'connections',
      figures: { ...(little?.holds ? little : { connections: s.connections, rps: s.loadRps, rate: s.rate }), busyPct: finite(s.budgetBusyPct ?? s.systemCpuPct), mainElu: finite(s.mainElu), workersBusy: finite(s.workersBusy) },
    });
  }
  return { primary: findings[0] ?? null, findings, known };
}

/**
 * @param {unknown} value
 * @returns {number|null}
 */
function finite(value) {
  return isFiniteNumber(value) ? value : null;
}

/** @param {Array<number|null|undefined>} values */
function sumOf(values) {
  return values.filter(isFiniteNumber).reduce((sum, v) => sum + v, 0);
}

/**
 * The generator threads to suggest: `wanted`, but no more than --generator-threads allows
 * (one per CPU of the budget, option-declarations.js); null when `threads` is already there.
 * @param {number} threads the run's
 * @param {number} wanted
 * @param {number|null} cores the CPU budget (null: not known, no cap)
 * @returns {number|null}
 */
export function moreGeneratorThreads(threads, wanted, cores) {
  const most = isFiniteNumber(cores) && cores > 0 ? budgetWorkers({ budget: cores }) : Infinity;
  const next = Math.min(wanted, most);
  return next > threads ? next : null;
}
