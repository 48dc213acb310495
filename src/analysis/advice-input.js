/**
 * The figures the end-of-run recommendation reads, in one flat shape, from a
 * finished RunResult. The live dashboard builds the same shape from sample
 * events (advice-window.js), so one set of rules serves both.
 */
import { stepMsFor } from './step-enough.js';
import { mean, isFiniteNumber } from './stats.js';
import { cpuView } from './cpu-view.js';
import { budgetSignals, ownCpuPct } from './run-figures.js';
import { isWorkerEntry, isServerEntry } from '../machine/process-roles.js';
import { withSpinning } from './busy-silence.js';
import { requestOutcome } from './request-outcome.js';
import { incarnationSlots, incarnationKey, foldIncarnations, measuredDeaths, deathSlots } from './worker-deaths.js';
import { pausedMidRun, stalledAtEnd } from '../load/stall.js';
import { HANDOFF_MIN_WORKER_BUSY, MAIN_ELU_LIMIT } from '../base/thresholds.js';

/**
 * @typedef {object} ThreadFigures one event loop of the strategy
 * @property {string} label
 * @property {'process'|'thread'} kind a thread's CPU is also in its process's
 * @property {number|null} requests   completed while measured (workers only)
 * @property {number|null} inFlight   mean requests in flight (workers only)
 * @property {number|null} [routed]   requests its routes counted while measured (the probe's route timing; null: none reported)
 * @property {number|null} elu        event-loop utilisation, 0..1 (probe)
 * @property {number|null} blocked    share of wall time blocked inside spawn, 0..1 (probe)
 * @property {number|null} [spawnsPerSec] spawns per second (probe; the live window has none)
 * @property {number|null} cpuPct     CPU of the whole process (or thread), % of one core
 * @property {number|null} loopCpuPct its main thread on a CPU, % of wall time (schedstat)
 * @property {number|null} waitPct    its main thread runnable but waiting for a CPU, % of wall time (schedstat)
 * @property {string|null} [spawnTiming] how its spawns were timed (probe): 'posix_spawn' when it spawned that way
 */

/**
 * @typedef {object} AdviceInput
 * @property {import('../base/result-types.js').RunPlan['target']|null} target    the plan's target (kind, strategy, pool, poolSize, balance, balancers, runtime names)
 * @property {{ name: string, command: string, args: string[] }|null} workload
 * @property {{ connections: number|null, rate: number|null, threads: number, method: string, headers: Record<string, string>, body: string|null, stepMs?: number,
 *   mix?: Array<{ name: string, path: string }>|null, mixFile?: string|null }} load the requests' mix (src/load/mix.js's entries) and the --mix file it came from (null: one request)
 *   `stepMs`: the measured time a tune step needs at the latency and throughput seen (src/analysis/step-enough.js)
 * @property {number|null} cores          the CPU budget, CPUs (src/machine/cpu-budget.js; an old result: its cores)
 * @property {number|null} capacity       the budget in core-equivalents (SMT siblings a share of a core)
 * @property {string|null} budgetSource   'quota' | 'cpuset' | 'affinity' | 'host'
 * @property {number|null} hostCpus       the host's CPUs (systemCpuPct is their mean)
 * @property {number|null} budgetBusyPct  % of the budget busy
 * @property {import('./cpu-view.js').CpuView['throttle']} throttle the CPU quota's throttling (null: none measured)
 * @property {number|null} [budget] the CPU budget (src/machine/cpu-budget.js): CPUs the run may use at once, fractional
 * @property {number} durationMs measured time
 * @property {number} requests   measured responses
 * @property {number} rps
 * @property {{ meanMs: number|null, p50Ms: number|null }} [latency] the measured latency's mean and median (ms)
 * @property {number} errors
 * @property {ThreadFigures|null} main
 * @property {number|null} [poolRunnablePct] the main process's libuv pool threads on a CPU or waiting for one (% of one
 *   core, summed): busy even where other programs kept them off a CPU (null: not read)
 * @property {ThreadFigures[]} workers
 * @property {ThreadFigures[]} [children] a user's server's other processes: started by it, sampled, yet no worker it
 *   balances requests over (a backend it runs beside itself, a helper daemon)
 * @property {number|null} spawnedCpuPct  spawned commands, % of one core
 * @property {number|null} systemCpuPct   mean busy share of all cores, %
 * @property {{ cpuPct: number|null, elu: number|null }} generator
 * @property {boolean} stoppedEarly
 * @property {{ code: number|null, signal: string|null }|null} [serverExit] the server ended during the run, unasked
 * @property {{ pid: number|null, label: string|null, silentMs: number, cpuPct: number, fromStart?: boolean }|null} [heldLoop] no response arrived while a server
 *   process kept a CPU busy with its probe silent (load.spinning, set by the engine: src/runner/engine-shell.js)
 * @property {{ count: number, oldestMs: number, spinning?: ReturnType<typeof import('./busy-silence.js').busySilence> }|null} [stall] measured requests unanswered at the end, one longer than any answered (load/stall.js); `spinning`: a server process on a CPU while its probe was silent (busy-silence.js)
 * @property {{ ms: number, longestMs: number, inWarmup?: boolean }|null} [generatorStopped] spawnbench itself did not run while measuring (SIGSTOP, Ctrl-Z), or in an open loop's warm-up
 * @property {ReturnType<typeof pausedMidRun>} [pause] seconds in which the server answered nothing, between seconds it answered (load/stall.js)
 * @property {import('./request-outcome.js').RequestOutcome} [outcome] how many requests succeeded
 * @property {import('./worker-deaths.js').WorkerDeath[]} [deaths] pool workers that died while measured
 * @property {import('./size-knob.js').SizeKnob|null} knob   a user's server (`run -- <command>`): its size knob
 * @property {import('./server-shape.js').ServerShape|null} server a user's server: its shape (which process serves, its workers)
 * @property {import('./spawn-failures.js').SpawnFailures|null} [spawnFailures] the commands that could not start
 *   (src/analysis/spawn-failures.js), with those the server answered as though they ran (`swallowed`)
 * @property {import('../base/result-types.js').ErrorTexts[]} [errorTexts] the load's error texts by status and kind
 * @property {import('../base/result-types.js').OpenFilesLimit|null} [openFilesLimit] the server's open-files limit, where
 *   it is below the connections and they were reset (error-reasons.js openFilesShort)
 * @property {import('../base/result-types.js').ServerStderr|null} [stderr] the server's stderr lines of the run
 * @property {import('../base/result-types.js').Downstream[]|null} [downstreams] its downstream connections by peer
 * @property {Array<{ name: string, count: number, cores: number }>|null} [otherUsers] other CPU users by name
 * @property {Array<{ from: number, to: number, t: number }>} [restarts] the server process replaced by another that
 *   listens, in the measured phase (nodemon restarting it: src/sample/index.js)
 * @property {number|null} [otherCores] CPU of every process outside the run, measured per process (cores; null: not read)
 * @property {string|null} [otherRuntime] a user's server that is no Node.js: its executable's name (python3.11)
 */

/**
 * A strategy's record of one worker slot (its `workers` list): the live incarnation, its
 * requests, the incarnations that exited.
 * @typedef {{ id: number, pid: number|null, threadId?: number|null, completed?: number|null,
 *   exits?: import('./worker-deaths.js').WorkerExit[] }} ListedWorker
 */

/**
 * @param {import('../base/result-types.js').RunResult} result RunResult (src/runner/run-engine.js), or a saved one (`report`)
 * @returns {AdviceInput}
 */
export function adviceInput(result) {
  /** @type {Partial<import('../base/result-types.js').RunPlan>} a saved result may lack it */
  const plan = result.plan ?? {};
  /** @type {Partial<import('../base/result-types.js').LoadResult>} a saved result may lack it */
  const load = result.load ?? {};
  const samples = result.samples ?? null;
  const processes = samples?.processes ?? [];
  /** @type {ListedWorker[]} */
  const listed = result.strategy?.workers ?? [];
  const cpus = samples?.system?.cpus ?? [];
  // server-shape.js made it (RunResult names it loosely, as it does sizeKnob and workerDeaths).
  const server = /** @type {import('./server-shape.js').ServerShape|null} */ (result.server ?? null);
  const deaths = /** @type {import('./worker-deaths.js').WorkerDeath[]} */ (result.workerDeaths ?? []);
  const { main: mainProcess, workers } = server ? serverProcesses(processes, server, deaths) : { main: processes.find((p) => p.role === 'main') ?? null, workers: processes.filter(isWorkerEntry) };
  /** @type {{ cpuPct?: number|null, elu?: number|null }} */
  const generator = load.generator ?? samples?.generator ?? {};
  return {
    target: plan.target ?? null,
    workload: plan.workload ?? null,
    load: {
      connections: load.connections ?? plan.load?.connections ?? null,
      rate: plan.load?.rate ?? null,
      threads: plan.load?.threads ?? 1,
      method: plan.load?.method ?? 'GET',
      headers: plan.load?.headers ?? {},
      body: plan.load?.body ?? null,
      mix: plan.load?.mix ?? null,
      mixFile: plan.load?.mixFile ?? null,
      // The tune step that fits the latency seen: the confirming tune carries it as -d.
      stepMs: stepMsFor({ rps: load.rps ?? null, p99Ms: load.latency?.p99Ms ?? null }),
    },
    ...budgetSignals(cpuView({ machine: result.machine ?? null, cpus, throttling: samples?.throttling, ownCpuPct: ownCpuPct(samples, generator) })),
    budget: result.machine?.cpu?.budget ?? null,
    durationMs: load.durationMs ?? 0,
    requests: load.requests ?? 0,
    rps: load.rps ?? 0,
    latency: { meanMs: load.latency?.meanMs ?? null, p50Ms: load.latency?.p50Ms ?? null },
    errors: load.errors?.total ?? 0,
    main: mainProcess ? threadFigures(mainProcess, null) : null,
    poolRunnablePct: poolRunnable(mainProcess),
    workers: slotWorkers(workers, listed, deaths),
    children: server ? serverChildren(processes, server, workers) : [],
    deaths: measuredDeaths(/** @type {import('./worker-deaths.js').WorkerDeath[]|undefined} */ (result.workerDeaths)),
    spawnedCpuPct: samples?.spawned?.cpuPct ?? null,
    systemCpuPct: mean(cpus),
    generator: { cpuPct: generator.cpuPct ?? null, elu: generator.elu ?? null },
    stoppedEarly: Boolean(result.stoppedEarly),
    serverExit: result.serverExit ?? null,
    stall: withSpinning(stalledAtEnd(load), /** @type {import('./busy-silence.js').SampledProcess[]} */ (processes.filter(isServerEntry))),
    heldLoop: load.requests === 0 ? load.spinning ?? null : null,
    pause: pausedMidRun(load),
    generatorStopped: load.generatorStopped ?? null,
    outcome: result.outcome ?? requestOutcome(load),
    spawnFailures: /** @type {import('./spawn-failures.js').SpawnFailures|null} */ (result.spawnFailures ?? null),
    knob: /** @type {import('./size-knob.js').SizeKnob|null} */ (result.sizeKnob ?? null),
    server,
    errorTexts: load.errorTexts ?? [],
    openFilesLimit: result.openFilesLimit ?? null,
    stderr: result.serverStderr ?? null,
    downstreams: samples?.downstreams ?? null,
    otherUsers: samples?.otherUsers?.users ?? null,
    // src/sample/index.js adds `serverRestarts` to the samples' summary; SamplesSummary does not name it yet.
    restarts: /** @type {(import('../base/result-types.js').SamplesSummary & { serverRestarts?: Array<{ from: number, to: number, t: number }> })|null} */ (samples)?.serverRestarts ?? [],
    otherCores: samples?.otherUsers?.cores ?? null,
    otherRuntime: samples?.probe?.available === false ? samples.probe.program ?? null : null,
  };
}

/**
 * The worker thread whose loop is the server's: its HTTP server runs in that thread (routes timed in it) and the main
 * thread, which only started it, serves none, with no worker processes beside. Sized as a pool, one such thread read
 * "The figures support 3 workers (this run: 1 seen)", and diagnose said "a larger pool will help", where no second
 * thread can listen on the port. Undefined when there is none.
 * @template T
 * @param {{ main: T|null|undefined, threads: T[], workers: number }} shape
 * @param {(p: T) => unknown} routesOf the routes timed in a process or thread
 * @returns {T|undefined}
 */
export function listenerThread({ main, threads, workers }, routesOf) {
  const served = (/** @type {T} */ p) => {
    const routes = routesOf(p);
    return Array.isArray(routes) && routes.length > 0;
  };
  if (!main || workers > 0 || served(main)) return undefined;
  return threads.find(served);
}

/**
 * A user's server's main process and workers as its shape names them: the
 * process that serves (not npm or a shell in front of it), and its worker
 * processes, or else the worker threads the probe saw in it.
 * A worker that died while measured is one too (its slot's earlier incarnation).
 * @param {import('../base/result-types.js').ProcessSamples[]} processes the sampler's processes
 * @param {import('./server-shape.js').ServerShape} server
 * @param {import('./worker-deaths.js').WorkerDeath[]} [deaths] the run's worker deaths
 */
export function serverProcesses(processes, server, deaths = []) {
  const main = processes.find((p) => p.pid === server.pid && p.role !== 'thread') ?? null;
  const incarnations = new Set(deaths.flatMap((d) => [d.pid, d.replacedBy]).filter((pid) => pid != null));
  const workerProcesses = processes.filter((p) => p.role !== 'thread' && (server.workers.includes(p.pid) || (p.role === 'worker' && incarnations.has(p.pid))));
  const threads = processes.filter((p) => p.role === 'thread' && p.pid === server.pid);
  const listener = listenerThread({ main, threads, workers: workerProcesses.length }, (p) => p.summary?.routes);
  if (listener) return { main: { ...listener, role: 'main' }, workers: threads.filter((t) => t !== listener) };
  return { main: main && { ...main, role: 'main' }, workers: workerProcesses.length ? workerProcesses : fedThreads(main, threads) };
}

/**
 * The worker threads that are a pool of the server: all of them, but where its main thread was saturated, only those
 * that took work from it. An idle helper thread (a log transport's, an eval'd timer) beside a server blocked by its own
 * JavaScript was sized as "1 worker (this run: 1 seen)" instead of "more processes would help"; a pool that a
 * saturated main thread feeds still works a share of the time (HANDOFF_MIN_WORKER_BUSY), and one idle at a light
 * load, its main thread not saturated, stays a pool.
 * @param {import('../base/result-types.js').ProcessSamples|null} main
 * @param {import('../base/result-types.js').ProcessSamples[]} threads
 */
function fedThreads(main, threads) {
  /** @param {import('../base/result-types.js').ProcessSamples|null} p */
  const busy = (p) => {
    const s = p?.summary ?? {};
    return isFiniteNumber(s.busy) ? s.busy : isFiniteNumber(s.elu) ? s.elu : isFiniteNumber(s.cpuPct) ? Math.min(1, s.cpuPct / 100) : null;
  };
  const mainBusy = busy(main);
  if (mainBusy === null || mainBusy < MAIN_ELU_LIMIT) return threads;
  return threads.filter((t) => (busy(t) ?? 1) >= HANDOFF_MIN_WORKER_BUSY);
}

/**
 * A user's server's processes that are neither its main process nor its workers (the sampler's `worker` role covers
 * every process of its group): a backend or helper it started, which may be the limit while its main thread idles.
 * @param {import('../base/result-types.js').ProcessSamples[]} processes
 * @param {import('./server-shape.js').ServerShape} server
 * @param {import('../base/result-types.js').ProcessSamples[]} workers its workers (or threads)
 * @returns {ThreadFigures[]}
 */
function serverChildren(processes, server, workers) {
  return processes.filter((p) => p.role === 'worker' && p.pid !== server.pid && !workers.includes(p)).map((p) => threadFigures(p, null));
}

/**
 * @param {import('../base/result-types.js').ProcessSamples} p
 * @param {{ id: number, completed?: number|null }|null} worker its slot
 * @returns {ThreadFigures}
 */
function threadFigures(p, worker) {
  const s = p.summary ?? {};
  return {
    // The sampler labels every process and thread (src/sample/recorder.js sorts by it).
    label: worker ? `worker ${worker.id}` : /** @type {string} */ (p.label),
    kind: p.role === 'thread' ? 'thread' : 'process',
    requests: !isWorkerEntry(p) ? null : (p.requests ?? worker?.completed ?? null),
    // Requests its routes counted (the probe's route timing), where the probe reported them: a user's server's worker has no count else.
    routed: Array.isArray(s.routes) ? s.routes.reduce((n, r) => n + (Number.isFinite(r?.requests) ? r.requests : 0), 0) : null,
    inFlight: s.inFlight ?? null,
    elu: s.elu ?? null,
    blocked: s.blockedFraction ?? null,
    spawnsPerSec: s.spawnsPerSec ?? null,
    cpuPct: s.cpuPct ?? null,
    loopCpuPct: s.loopCpuPct ?? null,
    waitPct: s.waitPct ?? null,
    spawnTiming: s.spawnTiming ?? null,
  };
}

/**
 * The workers' figures, one entry per worker slot: a worker that died and its
 * replacement (same slot, new pid) are one worker for the balance check.
 * @param {import('../base/result-types.js').ProcessSamples[]} entries the sampler's worker processes and threads
 * @param {ListedWorker[]} listed the strategy's last workers list (with each slot's `exits`)
 * @param {import('./worker-deaths.js').WorkerDeath[]} [deaths] the run's worker deaths (a user's server's, from its tree)
 */
function slotWorkers(entries, listed, deaths = []) {
  const slots = listed.length > 0 ? incarnationSlots(listed) : deathSlots(deaths);
  /** @type {Map<string, Array<{ figures: ThreadFigures, samples: number }>>} */
  const groups = new Map();
  for (const p of entries) {
    const slot = slots.get(incarnationKey(p.pid, p.threadId ?? null));
    const key = slot === undefined ? `entry:${p.key ?? p.pid}` : `slot:${slot}`;
    const figures = threadFigures(p, workerOf(p, listed) ?? (slot === undefined ? null : { id: slot }));
    const group = groups.get(key) ?? [];
    groups.set(key, group);
    group.push({ figures, samples: p.series?.length ?? 0 });
  }
  return [...groups.values()].map(foldIncarnations);
}

/**
 * The strategy's own record of a process or thread (pool id, request count).
 * @param {import('../base/result-types.js').ProcessSamples} p
 * @param {ListedWorker[]} workers
 */
function workerOf(p, workers) {
  return workers.find((w) => w.pid === p.pid && (w.threadId ?? null) === (p.threadId ?? null)) ?? null;
}

/**
 * A process's libuv pool threads on a CPU or runnable and waiting for one, % of one core summed
 * (src/sample/thread-kinds.js): a pool thread with work queued is runnable all the time, however
 * little CPU a crowded machine gives it. Null where the kinds were not read.
 * @param {import('../base/result-types.js').ProcessSamples|null|undefined} p
 * @returns {number|null}
 */
function poolRunnable(p) {
  const kinds = /** @type {Record<string, { cpuPct?: number|null, waitPct?: number|null }>|undefined} */ (p?.summary?.otherThreads?.kinds);
  const pool = kinds?.threadpool;
  if (!pool || !isFiniteNumber(pool.cpuPct)) return null;
  return pool.cpuPct + (isFiniteNumber(pool.waitPct) ? pool.waitPct : 0);
}
