/**
 * The figures of one run that tune and compare keep: throughput, latency, errors
 * and the sampler signals the bottleneck analysis reads. A RunResult holds every
 * sample; a sweep of dozens of runs keeps only this (a few hundred bytes each).
 */
import { mean, isFiniteNumber } from './stats.js';

/** @typedef {import('../base/result-types.js').RunResult} RunResult */
/** @typedef {import('../base/result-types.js').DiagnoseResult} DiagnoseResult */
/** @typedef {import('../base/result-types.js').LoadResult} LoadResult */
/** @typedef {import('../base/result-types.js').SamplesSummary} SamplesSummary */
/** @typedef {import('../base/result-types.js').ProcessSamples} ProcessSamples */
import { cpuView } from './cpu-view.js';
import { isWorkerEntry } from '../machine/process-roles.js';
import { compactErrorTexts } from './error-reasons.js';
import { requestOutcome } from './request-outcome.js';
import { lostAtEnd } from '../load/stall.js';

/**
 * @typedef {object} RunSignals
 * @property {number|null} mainElu          event-loop utilisation of the strategy's main thread, 0..1
 * @property {number|null} mainBlocked      fraction of the main thread's time blocked inside spawn, 0..1
 * @property {number|null} mainCpuPct       CPU of the main process less its worker threads', % of one core
 * @property {number|null} workersCpuPct    CPU of all workers (processes and threads), % of one core
 * @property {number|null} workersElu       mean event-loop utilisation of the probed workers, 0..1
 * @property {number} [workers]              workers seen (processes and threads but the main one)
 * @property {'thread'|'process'|'mixed'|null} [workerKind]
 * @property {number|null} [workersBusy]     their mean busy share, 0..1: ELU, or a thread's CPU time where its
 *   ELU counted waiting for work (src/sample/thread-busy.js)
 * @property {'elu'|'cpu'|'mixed'|null} [workersBusyFrom] which figure that is
 * @property {number|null} spawnedCpuPct    CPU of the spawned commands, % of one core
 * @property {number|null} systemCpuPct     mean busy share of all cores, %
 * @property {number|null} generatorCpuPct  CPU of the load generator, % of one core (all its threads)
 * @property {number|null} generatorElu     event-loop utilisation of the generator threads, 0..1
 * @property {number} generatorThreads
 * @property {number|null} cores            the CPU budget (CPUs; a saved result from before it: availableParallelism())
 * @property {number|null} [capacity]       the budget in core-equivalents (SMT)
 * @property {string|null} [budgetSource]   'quota' | 'cpuset' | 'affinity' | 'host'
 * @property {number|null} [hostCpus]       the host's CPUs, which systemCpuPct is the mean over
 * @property {number|null} [budgetBusyPct]  % of the budget busy
 * @property {import('./cpu-view.js').CpuView['throttle']} [throttle] the CPU quota's throttling
 * @property {Array<{ name: string, count: number, cores: number }>|null} [otherUsers] processes outside the run
 *   that used CPU, by name, busiest first (src/sample/other-users.js)
 * @property {'closed'|'open'|null} [loadMode] the load's loop, for Little's law (src/analysis/little-law.js)
 * @property {number|null} [rate]           the open loop's rate (req/s; null: a closed loop)
 * @property {number|null} [connections]    the load's connections
 * @property {number|null} [loadRps]        the throughput measured
 * @property {number|null} [meanMs]         the mean latency
 * @property {number|null} [p50Ms]          the median latency
 * @property {number|null} [otherCores] CPU of all processes outside the run, measured per process (cores)
 */

/**
 * @typedef {object} RunFigures
 * @property {number} rps
 * @property {number|null} p50Ms
 * @property {number|null} p99Ms
 * @property {number} errors     every failed request (connect, reset, timeout, bad body, non-2xx)
 * @property {number} requests
 * @property {number} attempts   requests that ended, with a response or an error (src/analysis/request-outcome.js)
 * @property {number} succeeded  2xx responses whose body matched
 * @property {number} durationMs measured time
 * @property {boolean} partial   stopped early: not used to recommend
 * @property {number} [lost]     requests the server never answered while it answered others (load/stall.js lostAtEnd): in no other count
 * @property {string[]} failures
 * @property {number|null} pid  the strategy's main process (and process group), to find it in logs
 * @property {RunSignals} signals
 * @property {Array<object>} errorTexts the three most frequent error statuses or kinds with their top texts
 * @property {Array<{ text: string, count: number }>} stderr the server's three most frequent stderr lines
 * @property {Array<{ peer: string, name: string|null, connections: number, meanConnections: number }>|null} downstreams
 */

/**
 * @param {RunResult} result (src/runner/run-engine.js)
 * @returns {RunFigures}
 */
export function runFigures(result) {
  /** @type {Partial<LoadResult>} a result file's load may be missing */
  const load = result.load ?? {};
  const outcome = result.outcome ?? requestOutcome(load);
  return {
    rps: load.rps ?? 0,
    p50Ms: load.latency?.p50Ms ?? null,
    p99Ms: load.latency?.p99Ms ?? null,
    errors: load.errors?.total ?? 0,
    requests: load.requests ?? 0,
    // Requests that ended (with a response or an error) and those that succeeded: a row of mostly failures is said.
    attempts: outcome.attempts,
    succeeded: outcome.succeeded,
    durationMs: load.durationMs ?? 0,
    partial: Boolean(result.stoppedEarly),
    lost: lostAtEnd(load)?.count ?? 0,
    failures: result.failures ?? [],
    pid: result.strategy?.pid ?? result.target?.pid ?? null,
    signals: runSignals(result),
    ...compactErrorTexts(load, result.serverStderr ?? null),
    downstreams: result.samples?.downstreams ?? null,
  };
}

/**
 * The sampler signals of a run (nulls where a sampler or the probe did not report).
 * @param {RunResult|DiagnoseResult} result
 * @returns {RunSignals}
 */
export function runSignals(result) {
  const samples = result.samples ?? null;
  const processes = samples?.processes ?? [];
  const mainEntry = processes.find((p) => p.role === 'main') ?? null;
  const main = mainEntry?.summary ?? null;
  const workerEntries = processes.filter(isWorkerEntry);
  const workers = workerEntries.map((p) => p.summary ?? {});
  // A process's CPU covers its threads: the main process's own share is what its threads did not use.
  const mainThreadsCpu = sum(workerEntries.filter((p) => p.role === 'thread' && p.pid === mainEntry?.pid).map((p) => p.summary?.cpuPct));
  const busyFrom = new Set(workers.map((w) => w.busyFrom ?? (Number.isFinite(w.elu) ? 'elu' : null)).filter(Boolean));
  const cpus = samples?.system?.cpus ?? [];
  // The generator's own figures over the measured phase first; the samplers' mean of its ticks otherwise.
  const generator = result.load?.generator ?? samples?.generator ?? null;
  return {
    mainElu: main?.elu ?? null,
    mainBlocked: main?.blockedFraction ?? null,
    mainCpuPct: isFiniteNumber(main?.cpuPct) ? Math.max(0, main.cpuPct - (mainThreadsCpu ?? 0)) : null,
    workersCpuPct: workers.length ? sum(workers.map((w) => w.cpuPct)) : null,
    workersElu: mean(workers.map((w) => w.elu)),
    workers: workerEntries.length,
    workerKind: workerKind(workerEntries),
    workersBusy: mean(workers.map((w) => w.busy ?? w.elu)),
    workersBusyFrom: busyFrom.size === 0 ? null : busyFrom.size === 1 ? [...busyFrom][0] : 'mixed',
    spawnedCpuPct: samples?.spawned?.cpuPct ?? null,
    systemCpuPct: mean(cpus),
    generatorCpuPct: generator?.cpuPct ?? null,
    generatorElu: generator?.elu ?? null,
    generatorThreads: result.plan?.load?.threads ?? 1,
    ...budgetSignals(cpuView({ machine: result.machine ?? null, cpus, throttling: samples?.throttling, ownCpuPct: ownCpuPct(samples, generator) })),
    otherUsers: samples?.otherUsers?.users ?? null,
    loadMode: result.load?.mode ?? null,
    connections: result.load?.connections ?? result.plan?.load?.connections ?? null,
    loadRps: result.load?.rps ?? null,
    rate: result.load?.rate ?? result.plan?.load?.rate ?? null,
    meanMs: result.load?.latency?.meanMs ?? null,
    p50Ms: result.load?.latency?.p50Ms ?? null,
    otherCores: samples?.otherUsers?.cores ?? null,
  };
}

/**
 * @param {ProcessSamples[]} entries
 * @returns {'thread'|'process'|'mixed'|null}
 */
function workerKind(entries) {
  const kinds = new Set(entries.map((p) => (p.role === 'thread' ? 'thread' : 'process')));
  if (kinds.size === 0) return null;
  return kinds.size === 1 ? [...kinds][0] : 'mixed';
}

/** @param {Array<number|null|undefined>} values */
function sum(values) {
  const finite = values.filter(isFiniteNumber);
  return finite.length ? finite.reduce((total, v) => total + v, 0) : null;
}

/**
 * The CPU budget's signals, as RunSignals and AdviceInput name them.
 * @param {import('./cpu-view.js').CpuView} view
 */
export function budgetSignals(view) {
  return {
    cores: view.budget,
    capacity: view.capacity,
    budgetSource: view.source,
    hostCpus: view.hostCpus,
    budgetBusyPct: view.busyPct,
    throttle: view.throttle,
  };
}

/**
 * CPU of everything spawnbench saw a run use (server processes, commands, generator), % of one CPU; null when none was read.
 * @param {Partial<SamplesSummary>|null|undefined} samples
 * @param {{ cpuPct?: number|null }|null|undefined} generator
 * @returns {number|null}
 */
export function ownCpuPct(samples, generator) {
  const list = (samples?.processes ?? []).filter((p) => p.role !== 'thread');
  // A process that lived part of the run (a server a restart replaced, a worker that died) used its
  // mean CPU only while it lived: weighted by its share of the samples, the sum stays the run's.
  /** @param {ProcessSamples} p */
  const samplesOf = (p) => p.series?.length ?? 0;
  const most = Math.max(0, ...list.map(samplesOf));
  // A missing cpuPct stays missing (NaN or undefined, dropped below), as before.
  const processes = list.map((p) => (most > 0 && samplesOf(p) > 0 ? /** @type {number} */ (p.summary?.cpuPct) * (samplesOf(p) / most) : p.summary?.cpuPct));
  const all = [...processes, samples?.spawned?.cpuPct, generator?.cpuPct].filter(isFiniteNumber);
  return all.length ? all.reduce((a, b) => a + b, 0) : null;
}
