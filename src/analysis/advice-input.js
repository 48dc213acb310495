/**
 * The figures the end-of-run recommendation reads, in one flat shape, from a
 * finished RunResult. The live dashboard builds the same shape from sample
 * events (advice-window.js), so one set of rules serves both.
 */
import { mean } from './stats.js';

/**
 * @typedef {object} ThreadFigures one event loop of the strategy
 * @property {string} label
 * @property {'process'|'thread'} kind a thread's CPU is also in its process's
 * @property {number|null} requests   completed while measured (workers only)
 * @property {number|null} inFlight   mean requests in flight (workers only)
 * @property {number|null} elu        event-loop utilisation, 0..1 (probe)
 * @property {number|null} blocked    share of wall time blocked inside spawn, 0..1 (probe)
 * @property {number|null} cpuPct     CPU of the whole process (or thread), % of one core
 * @property {number|null} loopCpuPct its main thread on a CPU, % of wall time (schedstat)
 * @property {number|null} waitPct    its main thread runnable but waiting for a CPU, % of wall time (schedstat)
 */

/**
 * @typedef {object} AdviceInput
 * @property {object|null} target    the plan's target (kind, strategy, pool, poolSize, balance, balancers, runtime names)
 * @property {{ name: string, command: string, args: string[] }|null} workload
 * @property {{ connections: number|null, rate: number|null, threads: number }} load
 * @property {number|null} cores
 * @property {number} durationMs measured time
 * @property {number} requests   measured responses
 * @property {number} rps
 * @property {number} errors
 * @property {ThreadFigures|null} main
 * @property {ThreadFigures[]} workers
 * @property {number|null} spawnedCpuPct  spawned commands, % of one core
 * @property {number|null} systemCpuPct   mean busy share of all cores, %
 * @property {{ cpuPct: number|null, elu: number|null }} generator
 * @property {boolean} stoppedEarly
 */

/**
 * @param {object} result RunResult (src/runner/run.js), or a saved one (`report`)
 * @returns {AdviceInput}
 */
export function adviceInput(result) {
  const plan = result.plan ?? {};
  const load = result.load ?? {};
  const samples = result.samples ?? null;
  const processes = samples?.processes ?? [];
  const listed = result.strategy?.workers ?? [];
  const cpus = samples?.system?.cpus ?? [];
  const mainProcess = processes.find((p) => p.role === 'main') ?? null;
  const generator = load.generator ?? samples?.generator ?? {};
  return {
    target: plan.target ?? null,
    workload: plan.workload ?? null,
    load: { connections: load.connections ?? plan.load?.connections ?? null, rate: plan.load?.rate ?? null, threads: plan.load?.threads ?? 1 },
    cores: result.machine?.cores ?? (cpus.length || null),
    durationMs: load.durationMs ?? 0,
    requests: load.requests ?? 0,
    rps: load.rps ?? 0,
    errors: load.errors?.total ?? 0,
    main: mainProcess ? threadFigures(mainProcess, null) : null,
    workers: processes.filter((p) => p.role !== 'main').map((p) => threadFigures(p, workerOf(p, listed))),
    spawnedCpuPct: samples?.spawned?.cpuPct ?? null,
    systemCpuPct: mean(cpus),
    generator: { cpuPct: generator.cpuPct ?? null, elu: generator.elu ?? null },
    stoppedEarly: Boolean(result.stoppedEarly),
  };
}

function threadFigures(p, worker) {
  const s = p.summary ?? {};
  return {
    label: worker ? `worker ${worker.id}` : p.label,
    kind: p.role === 'thread' ? 'thread' : 'process',
    requests: p.role === 'main' ? null : (p.requests ?? worker?.completed ?? null),
    inFlight: s.inFlight ?? null,
    elu: s.elu ?? null,
    blocked: s.blockedFraction ?? null,
    cpuPct: s.cpuPct ?? null,
    loopCpuPct: s.loopCpuPct ?? null,
    waitPct: s.waitPct ?? null,
  };
}

/** The strategy's own record of a process or thread (pool id, request count). */
function workerOf(p, workers) {
  return workers.find((w) => w.pid === p.pid && (w.threadId ?? null) === (p.threadId ?? null)) ?? null;
}
