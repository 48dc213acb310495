/**
 * The run engine: boots the target, warms it up, drives the load, samples it, stops
 * everything it started and returns a plain result. It emits; renderers listen
 * (events in src/README.md). It never prints.
 */
import { startSampler, probeWithFilesLimit, probeWithShortRun } from '../sample/index.js';
import { readMachine } from '../machine/machine.js';
import { narrowToServer, readServerCpu } from '../machine/cpu-budget.js';
import { createLogger } from '../output/logger.js';
import { describeWorkload } from '../base/workloads.js';
import { describeTargetRuntimes } from '../strategies/runtime-versions.js';
import { noResponseFailure } from '../load/host-check.js';
import { stalledAtEnd } from '../load/stall.js';
import { createEngine, measureServer, finishEngine, describeCrash, resultEnvelope, STOPPED_EARLY_NOTE, markSpinning } from './engine-shell.js';
import { targetRunner } from './target-runner.js';
import { targetOf } from '../base/target-kinds.js';
import { adviceInput } from '../analysis/advice-input.js';
import { adviseRun } from '../analysis/run-advice.js';
import { requestOutcome } from '../analysis/request-outcome.js';
import { shapeBetween, withOtherThreads } from '../analysis/server-shape.js';
import { spawnFailures } from '../analysis/spawn-failures.js';
import { openFilesShort } from '../analysis/error-reasons.js';
import { measureMetrics } from '../analysis/metrics.js';
import { groupLimits } from './group-limits.js';
import { resolveSizeKnob } from '../analysis/size-knob.js';
import { snapshotTree, listeningSnapshot } from './server-tree.js';
import { endLoadWhenEnough } from './enough-watch.js';
import { endLoadWhenSilent } from './silence-watch.js';

/**
 * @param {import('../plan/run-plan.js').RunPlan} plan from buildRunPlan(), or server-command-plan.js for a command
 * @param {{ logger?: import('pino').Logger }} [options]
 * @returns {import('node:events').EventEmitter & { start: () => Promise<object>, stop: () => void }}
 */
export function createRun(plan, { logger = createLogger(null) } = {}) {
  return createEngine((run) => execute(run, plan, logger), logger);
}

/** @param {import('../plan/run-plan.js').RunPlan} plan */
async function execute(run, plan, logger) {
  const machine = await readMachine();
  // The runtimes that run the strategy, and so how they spawn: not spawnbench's own Node.
  const runtimes = await describeTargetRuntimes(plan.target);
  const runner = targetRunner(plan.target);
  logger.info({ plan: planForJson(plan), machine, runtimes }, 'run start');
  run.emit('start', { plan: planForJson(plan), machine, runtimes });
  let workers = [];
  let measureStartedAt = null;
  let limits = null;
  /** @type {import('../machine/cpu-budget.js').CpuBudget|null} */
  let serverCpu = null;
  const trees = { early: null, late: null };
  // A stop that comes once the measured phase is over (while the server stops) leaves it complete.
  let measuredToEnd = false;
  const unwatchEnough = endLoadWhenEnough(run, plan.load);
  const unwatchSilence = endLoadWhenSilent(run, plan.load);
  const unwatch = () => {
    unwatchEnough();
    unwatchSilence();
  };
  const { server, load, samples, crash, stderr } = await measureServer(run, {
    plan,
    logger,
    what: runner.what,
    boot: (stops, onStderr) => runner.boot(plan, logger, run, stops, onStderr),
    sample: (server) => server && startSampler({
      // A daemon is sampled from its own process: its group's leader (the double fork's first child) is gone.
      rootPid: server.daemon?.pid ?? server.treePid ?? server.proc.pid,
      serverPid: server.serverPid ?? server.proc.pid,
      launchers: server.launchers ?? [],
      channel: server.channel,
      intervalMs: plan.probe.intervalMs,
      runtime: plan.target.runtime?.kind ?? 'node',
      getGeneratorStats: () => run.lastTick?.generator ?? null,
      getWorkers: () => server.proc.workers(),
      // A user's server that a launcher restarts (nodemon) is followed to the process that listens.
      findServer: runner.findServer(server),
    }),
    url: (server) => (server?.url ? server.url(plan.target.path) : server ? `http://127.0.0.1:${server.proc.port}/` : plan.target.url),
    // A user's server: its process tree when the measured phase starts and ends (who serves, its workers).
    onLoadPhase: (phase, server, at) => {
      if (phase === 'measure') measureStartedAt = at;
      if (phase === 'measure' && plan.target.sizeKnob && server) trees.early = snapshotTree(server.treePid ?? server.proc.pid, server.port);
    },
    afterLoad: async (server) => {
      measuredToEnd = !run.stopRequested;
      // The limits a failed spawn may have hit, read while the server's processes still run.
      if (server) limits = groupLimits(server.proc.pid);
      // The CPUs the server may run on, read while it runs: fewer than spawnbench's narrow the budget.
      if (server) serverCpu = readServerCpu(server.serverPid ?? server.proc.pid);
      if (plan.target.sizeKnob && server) trees.late = await listeningSnapshot(server.treePid ?? server.proc.pid, server.port);
    },
    beforeStops: (server) => {
      workers = server?.proc.workers() ?? [];
    },
  }).finally(unwatch);

  const notes = [...(load.notes ?? [])];
  const failures = [];
  if (server?.brokeProtocol) failures.push(server.brokeProtocol);
  if (crash) failures.push(describeCrash(server.label ?? `strategy '${plan.target.strategy}'`, crash));
  if (workloadNotFound(plan, load)) failures.push(`workload command not found: ${plan.workload.command}`);
  const stoppedEarly = run.stopRequested && !measuredToEnd;
  markSpinning(load, samples);
  const silent = noResponseFailure(load, stoppedEarly, plan.load);
  if (silent && failures.length === 0) failures.push(silent);
  // A server that stopped answering failed the run: its figures leave out what it held (tune and compare mark the step).
  const stall = stalledAtEnd(load);
  if (stall && failures.length === 0) failures.push(`${server?.label ?? (plan.target.strategy ? `strategy '${plan.target.strategy}'` : 'the server')} stopped answering: ${stall.count} ${stall.count === 1 ? 'request was' : 'requests were'} still unanswered when the run ended, the oldest after ${(stall.oldestMs / 1000).toFixed(1)} s`);
  if (stoppedEarly) notes.push(STOPPED_EARLY_NOTE);

  const outcome = requestOutcome(load);
  // The server's open-files limit, where it is below the connections and they were reset (ulimit -n).
  const filesLimit = openFilesShort(load, limits);
  if (samples) samples.probe = probeWithShortRun(probeWithFilesLimit(samples.probe, filesLimit), load.durationMs, plan.probe?.intervalMs);
  const result = resultEnvelope('run', {
    plan: planForJson(plan),
    machine: { ...machine, cpu: narrowToServer(machine.cpu, serverCpu) },
    runtimes,
    ...runner.resultFields(plan, server, workers),
    load,
    samples,
    serverStderr: stderr,
    notes,
    failures,
    stoppedEarly,
    // Every response an error is a run that failed too, however fast the errors came.
    outcome,
    // Pool workers that died (and were replaced) while the run went on: a strategy's say so in its
    // control lines; a user's server's (node:cluster, a fork pool) are seen in its process tree.
    workerDeaths: runner.workerDeaths(workers, samples, measureStartedAt),
    // Commands that could not be started, by errno and the limit it points at: from the error responses, and
    // from the probe, which sees those a server answers as though they ran.
    spawnFailures: spawnFailures(load.errorTexts, limits, { seen: samples?.spawned?.failures ?? null, errors: load.errors?.total ?? 0 }),
    openFilesLimit: filesLimit,
    // The server (or strategy) ended during the run, unasked (a daemon's exit 0 while its child serves is not an end).
    serverExit: crash && !crash.daemonised ? { code: crash.code, signal: crash.signal } : null,
    exitCode: failures.length > 0 || outcome.id === 'none-succeeded' ? 1 : 0,
  });
  // Only `run -- <command>`'s plan carries the knob its server is sized by (buildOwnRunPlan()).
  if (plan.target.sizeKnob) Object.assign(result, ownServer(plan.target, server, trees, samples));
  result.recommendation = adviseRun(adviceInput(result));
  // Every metric of the table (src/analysis/metrics.js), as --json, the summary and the HTML report show it.
  result.metrics = measureMetrics(result);
  logger.info({ requests: load.requests, rps: load.rps, errors: load.errors, failures }, 'run done');
  return finishEngine(run, result);
}

/**
 * What `run -- <command>` adds to its result: the server's shape as its tree
 * showed it (`server`) and the size knob the recommendation is worded for (`sizeKnob`).
 */
function ownServer(target, server, trees, samples) {
  const rootPid = server ? (server.treePid ?? server.proc.pid) : null;
  if (rootPid === null) return { server: null, sizeKnob: resolveSizeKnob({ ...target.sizeKnob, shape: null, command: target.command }) };
  const shape0 = shapeBetween(trees.early, trees.late, { rootPid });
  const threads = (samples?.processes ?? []).filter((p) => p.role === 'thread' && p.pid === shape0?.pid).length;
  const shape = withOtherThreads(threads > 0 ? shapeBetween(trees.early, trees.late, { rootPid, threads }) : shape0, samples?.processes ?? []);
  const { given, found } = target.sizeKnob;
  return { server: shape, sizeKnob: resolveSizeKnob({ given, found, shape, command: given?.command ?? found?.command ?? target.command }) };
}

/** A workload command that cannot be started shows up as 500s whose body is the spawn error. */
function workloadNotFound(plan, load) {
  if (!targetOf(plan.target).runsWorkload) return false;
  const sample = load.bodySamples?.['500'] ?? '';
  return /ENOENT|EACCES|not found/i.test(sample);
}

/** The plan as plain JSON: runtimes by name and path, the expected body by its length. */
export function planForJson(plan) {
  const { workload, load, ...rest } = plan;
  const { expected, ...loadRest } = load;
  return { ...rest, workload: describeWorkload(workload), load: { ...loadRest, expectedBytes: expected?.length ?? null } };
}
