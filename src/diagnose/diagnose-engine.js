/**
 * The diagnose engine: starts the user's server (or takes --url), drives it with
 * the load generator, samples it from inside (probe) and outside (/proc), stops
 * everything it started, and returns a DiagnoseResult with its verdict. It emits
 * the run engine's events (src/README.md), so the dashboard and progress lines
 * show it as they show a run. It never prints.
 */
import { statfsSync } from 'node:fs';
import { noResponseFailure } from '../load/host-check.js';
import { startSampler, probeWithFilesLimit, probeWithShortRun } from '../sample/index.js';
import { readMachine } from '../machine/machine.js';
import { narrowToServer, readServerCpu } from '../machine/cpu-budget.js';
import { createLogger } from '../output/logger.js';
import { diagnoseEvidence, THRESHOLDS } from '../analysis/verdicts.js';
import { requestOutcome } from '../analysis/request-outcome.js';
import { spawnFailures } from '../analysis/spawn-failures.js';
import { openFilesShort } from '../analysis/error-reasons.js';
import { treeWorkerDeaths } from '../analysis/worker-deaths.js';
import { measureMetrics } from '../analysis/metrics.js';
import { groupLimits } from '../runner/group-limits.js';
import { buildEvidence } from './evidence.js';
import { createGcWindows } from './gc-windows.js';
import { targetEnv } from './profiler-env.js';
import { bootCommand, commandTarget } from '../runner/boot-command.js';
import { listeningServer, listeningSnapshot } from '../runner/server-tree.js';
import { serverShape } from '../analysis/server-shape.js';
import { serverBehindPid } from './pid-owns-port.js';
import { findSizeKnob, tuneArgs } from '../analysis/size-knob.js';
import { readProfiles } from './cpu-profile.js';
import { createSchedMeters, processTree } from './schedstat.js';
import { createEngine, measureServer, finishEngine, describeCrash, resultEnvelope, STOPPED_EARLY_NOTE, markSpinning } from '../runner/engine-shell.js';
import { targetOf } from '../base/target-kinds.js';

/**
 * @param {object} plan from buildDiagnosePlan()
 * @param {{ logger?: import('pino').Logger }} [options]
 * @returns {import('node:events').EventEmitter & { start: () => Promise<object>, stop: () => void }}
 */
export function createDiagnose(plan, { logger = createLogger(null) } = {}) {
  return createEngine((engine) => execute(engine, plan, logger), logger);
}

async function execute(engine, plan, logger) {
  const startedAt = Date.now();
  const machine = await readMachine();
  engine.emit('start', { plan, machine });
  const gc = createGcWindows();
  const sched = createSchedMeters();
  let measuring = false;
  let rootPid = null;
  /** @type {Array<{ pid: number, name: string }>} */
  let launchers = [];
  let mainThread = null;
  let limits = null;
  /** @type {import('../machine/cpu-budget.js').CpuBudget|null} */
  let serverCpu = null;
  let measureStartedAt = null;
  /** @type {import('../analysis/server-shape.js').ServerShape|null} the server's tree at the end of the load: who its workers are */
  let shape = null;
  const onReport = (report) => {
    if (report.isMainThread) sched.watch(report.pid);
    if (measuring) gc.add(report);
  };
  const urlOf = (server) => (server ? server.url(plan.target.path) : plan.target.url);
  const { server, load, samples, crash, stderr } = await measureServer(engine, {
    plan,
    logger,
    what: 'server',
    boot: (stops, onStderr) => (targetOf(plan.target).external ? null : bootTarget(plan, logger, stops, engine.signal, onReport, onStderr)),
    sample: (server) => {
      const leaderPid = server?.proc.pid ?? plan.target.pid;
      if (!leaderPid) return null;
      // The server is the process that listens; a launcher above it (npm, sh) is sampled but not the server,
      // a --pid's as a command's.
      const behind = server ? null : serverBehindPid(leaderPid, plan.target.url);
      launchers = server?.launchers ?? behind?.launchers ?? [];
      rootPid = server?.serverPid ?? behind?.serverPid ?? leaderPid;
      sched.watch(rootPid);
      return startSampler({
        rootPid: leaderPid,
        serverPid: rootPid,
        launchers,
        // A --pid server's workers, read again each sample (a worker that died is replaced): no probe names them.
        getWorkers: behind ? () => (serverBehindPid(leaderPid, plan.target.url)?.workers ?? behind.workers).map((pid, id) => ({ id, pid, threadId: null, completed: null })) : undefined,
        channel: server?.channel ?? null,
        intervalMs: plan.probe.intervalMs,
        runtime: 'node',
        getGeneratorStats: () => engine.lastTick?.generator ?? null,
        // A server that a launcher restarts (nodemon) is followed to the process that listens.
        findServer: server ? () => listeningServer(server.treePid ?? server.proc.pid, server.port) : null,
      });
    },
    url: urlOf,
    // GC windows and run-queue time cover the measured phase only, like the load figures and samples.
    onLoadPhase: (phase, _server, at) => {
      if (phase === 'measure') {
        measureStartedAt = at;
        if (rootPid) for (const pid of processTree(rootPid)) sched.watch(pid);
        sched.restart();
        measuring = true;
      }
      if (phase === 'done') measuring = false;
    },
    afterLoad: async (server) => {
      measuring = false;
      // Its workers as its tree shows them (IPC children, cluster workers): a job it started beside it is none.
      if (server) shape = serverShape((await listeningSnapshot(server.treePid ?? server.proc.pid, server.port)).tree, { rootPid: server.treePid ?? server.proc.pid });
      // The server's main thread, not a launcher's above it (npm, nodemon).
      mainThread = sched.take(new Set(launchers.map((l) => l.pid)));
      // The limits a failed spawn may have hit, read while the server still runs.
      if (server) limits = groupLimits(server.proc.pid);
      // The CPUs the server may run on (a --url server's by --pid): fewer than spawnbench's narrow the budget.
      if (rootPid) serverCpu = readServerCpu(rootPid);
    },
  });

  const url = urlOf(server);
  const failures = [];
  if (crash) failures.push(describeCrash(server.label, crash));
  markSpinning(load, samples);
  const silent = noResponseFailure(load, engine.stopRequested, plan.load);
  if (silent && failures.length === 0) failures.push(silent);
  const notes = [...(load.notes ?? []), ...(samples?.notes ?? [])];
  if (engine.stopRequested) notes.push(STOPPED_EARLY_NOTE);
  const result = resultEnvelope('diagnose', {
    plan,
    machine: { ...machine, cpu: narrowToServer(machine.cpu, serverCpu) },
    target: server
      ? commandTarget(plan, server)
      : { kind: 'url', url, pid: plan.target.pid },
    load,
    samples,
    serverStderr: stderr,
    mainThread,
    serverExit: crash,
    gc: Object.fromEntries(gc.result()),
    cpuProfile: server?.cpuProfDir ? profileSummary(server.cpuProfDir, startedAt) : null,
    notes,
    failures,
    stoppedEarly: engine.stopRequested,
  });
  // The failed spawns are evidence too (the limit they ran into), those the probe saw the server swallow with
  // them; the result keeps its fields' order.
  const failedSpawns = spawnFailures(load.errorTexts, limits, { seen: samples?.spawned?.failures ?? null, errors: load.errors?.total ?? 0 });
  // Worker processes that died while measured (a node:cluster worker that threw), seen in the tree as run sees them.
  const workerDeaths = samples ? treeWorkerDeaths(samples.processes, measureStartedAt) : [];
  const filesLimit = openFilesShort(load, limits);
  if (result.samples) result.samples.probe = probeWithShortRun(probeWithFilesLimit(result.samples.probe, filesLimit), load.durationMs, plan.probe?.intervalMs);
  result.diagnosis = { ...diagnoseEvidence(buildEvidence({ ...result, server: shape, spawnFailures: failedSpawns, workerDeaths, openFilesLimit: filesLimit })), thresholds: THRESHOLDS };
  result.sizeKnob = sizeKnobOf(plan);
  result.outcome = requestOutcome(load);
  result.spawnFailures = failedSpawns;
  result.openFilesLimit = filesLimit;
  result.workerDeaths = workerDeaths;
  result.exitCode = failures.length > 0 || result.outcome.id === 'none-succeeded' ? 1 : 0;
  // Every metric of the table (src/analysis/metrics.js), as --json, the summary and the HTML report show it.
  result.metrics = measureMetrics(result);
  logger.info({ verdict: result.diagnosis.verdict.id, rps: load.rps, failures }, 'diagnose done');
  return finishEngine(engine, result);
}

/** Opens the probe channel, prepares the profiler folder, starts the server; each step's cleanup goes on `stops`. */
function bootTarget(plan, logger, stops, signal, onReport, onStderr) {
  const prepareEnv = (channel) => targetEnv({ channel, cpuProf: plan.cpuProf });
  return bootCommand({ target: plan.target, probe: plan.probe, logger, stops, signal, onReport, onStderr, prepareEnv });
}

/** The size knob of the user's command and the tune that sweeps it (null for --url, or without a knob). */
function sizeKnobOf(plan) {
  if (targetOf(plan.target).external) return null;
  const knob = findSizeKnob({ command: plan.target.command, env: process.env });
  return knob ? { ...knob, tune: tuneArgs(knob, plan.target, plan.load) } : null;
}

/** Where the profiles are and the busiest one's top functions; with none, the folder's free space (a full disk). */
function profileSummary(dir, since) {
  const profiles = readProfiles(dir, { since });
  return {
    dir,
    files: profiles.map((p) => p.file),
    top: profiles[0] ? { file: profiles[0].file, busyMs: profiles[0].busyMs, functions: profiles[0].functions } : null,
    ...(profiles.length === 0 ? { freeBytes: freeBytes(dir) } : {}),
  };
}

/**
 * Bytes free to an unprivileged writer in the file system of `dir`; null when it cannot be read.
 * @param {string} dir
 */
function freeBytes(dir) {
  try {
    const fs = statfsSync(dir);
    return fs.bavail * fs.bsize;
  } catch {
    return null;
  }
}

