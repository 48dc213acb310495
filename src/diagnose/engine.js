/**
 * The diagnose engine: starts the user's server (or takes --url), drives it with
 * the load generator, samples it from inside (probe) and outside (/proc), stops
 * everything it started, and returns a DiagnoseResult with its verdict. It emits
 * the run engine's events (src/README.md), so the dashboard and progress lines
 * show it as they show a run. It never prints.
 */
import { noResponseFailure } from '../load/host-check.js';
import { openProbeChannel } from '../probe/channel.js';
import { startSampler } from '../sample/index.js';
import { readMachine } from '../machine.js';
import { createLogger } from '../logger.js';
import { RESULT_FORMAT } from '../report/result-file.js';
import { diagnoseEvidence, THRESHOLDS } from '../analysis/verdicts.js';
import { buildEvidence } from './evidence.js';
import { createGcWindows } from './gc-windows.js';
import { targetEnv } from './profiler-env.js';
import { startTarget } from './target.js';
import { readProfiles } from './cpu-profile.js';
import { createSchedMeters, processTree } from './schedstat.js';
import { createEngine, startPlanLoad, runStops, describeCrash } from '../runner/engine-parts.js';

/**
 * @param {object} plan from buildDiagnosePlan()
 * @param {{ logger?: import('pino').Logger }} [options]
 * @returns {import('node:events').EventEmitter & { start: () => Promise<object>, stop: () => void }}
 */
export function createDiagnose(plan, { logger = createLogger(null) } = {}) {
  return createEngine((engine, state) => execute(engine, plan, logger, state), logger);
}

async function execute(engine, plan, logger, state) {
  const startedAt = Date.now();
  const machine = await readMachine();
  engine.emit('start', { plan, machine });
  engine.emit('phase', { phase: 'booting' });
  const stops = [];
  const gc = createGcWindows();
  const sched = createSchedMeters();
  let measuring = false;
  const onReport = (report) => {
    if (report.isMainThread) sched.watch(report.pid);
    if (measuring) gc.add(report);
  };
  try {
    const server = plan.target.kind === 'command' ? await bootTarget(plan, logger, stops, state.abort.signal, onReport) : null;
    let crash = null;
    server?.proc.exited.then(({ code, signal }) => {
      if (server.stopping) return;
      crash = { code, signal, stderr: server.proc.stderrTail() };
      logger.error(crash, 'server exited mid-run');
      state.load?.stop();
    });
    const rootPid = server?.proc.pid ?? plan.target.pid;
    const sampler = rootPid
      ? startSampler({
          rootPid,
          channel: server?.channel ?? null,
          intervalMs: plan.probe.intervalMs,
          runtime: 'node',
          getGeneratorStats: () => state.lastTick?.generator ?? null,
        })
      : null;
    if (rootPid) sched.watch(rootPid);
    if (sampler) {
      sampler.on('sample', (s) => engine.emit('sample', s));
      stops.push(() => sampler.stop());
    }
    if (state.stopRequested) throw Object.assign(new Error('stopped before the load started'), { stoppedEarly: true });

    const url = server ? `http://${server.host.includes(':') ? `[${server.host}]` : server.host}:${server.port}${plan.target.path}` : plan.target.url;
    startPlanLoad(engine, state, plan, url, null);
    logger.info({ url }, 'load start');
    // Samples, GC windows and run-queue time cover the measured phase only, like the load figures.
    const startMeasuring = () => {
      sampler?.reset();
      if (rootPid) for (const pid of processTree(rootPid)) sched.watch(pid);
      sched.restart();
      measuring = true;
    };
    state.load.on('phase', (p) => {
      if (p.phase === 'measure') startMeasuring();
      if (p.phase === 'done') measuring = false;
    });
    const load = await state.load.done;
    measuring = false;
    const mainThread = sched.take();
    engine.emit('phase', { phase: 'stopping' });
    const samples = sampler ? await sampler.stop() : null;
    if (server) server.stopping = true;
    await runStops(stops, logger);

    const failures = [];
    if (crash) failures.push(describeCrash(server.label, crash));
    const silent = noResponseFailure(load, state.stopRequested);
    if (silent && failures.length === 0) failures.push(silent);
    const notes = [...(load.notes ?? []), ...(samples?.notes ?? [])];
    if (state.stopRequested) notes.push('stopped early: the figures cover the time measured until then');
    const result = {
      tool: 'spawnbench',
      format: RESULT_FORMAT,
      kind: 'diagnose',
      createdAt: new Date().toISOString(),
      plan,
      machine,
      target: server
        ? { kind: 'command', command: plan.target.command, pid: server.proc.pid, port: server.port, url, containment: server.containment ?? null }
        : { kind: 'url', url, pid: plan.target.pid },
      load,
      samples,
      mainThread,
      serverExit: crash,
      gc: Object.fromEntries(gc.result()),
      cpuProfile: server?.cpuProfDir ? profileSummary(server.cpuProfDir, startedAt) : null,
      notes,
      failures,
      stoppedEarly: state.stopRequested,
    };
    result.diagnosis = { ...diagnoseEvidence(buildEvidence(result)), thresholds: THRESHOLDS };
    result.exitCode = failures.length > 0 ? 1 : 0;
    logger.info({ verdict: result.diagnosis.verdict.id, rps: load.rps, failures }, 'diagnose done');
    engine.emit('phase', { phase: 'done' });
    engine.emit('done', result);
    return result;
  } catch (error) {
    await runStops(stops, logger);
    throw error;
  }
}

/** Opens the probe channel, prepares the profiler folder, starts the server; each step's cleanup goes on `stops`. */
async function bootTarget(plan, logger, stops, signal, onReport) {
  const channel = plan.probe.enabled ? await openProbeChannel({ intervalMs: plan.probe.intervalMs }) : null;
  if (channel) {
    stops.push(() => channel.close());
    channel.on('report', onReport);
  }
  const { env, cpuProfDir } = await targetEnv({ channel, cpuProf: plan.cpuProf });
  logger.info({ command: plan.target.command, port: plan.target.port, cpuProfDir }, 'server start');
  const target = await startTarget({
    command: plan.target.command,
    port: plan.target.port,
    env,
    readyTimeoutMs: plan.target.readyTimeoutMs,
    signal,
    onOutput: (line, stream) => logger.info({ stream }, line),
  });
  const server = { ...target, channel, cpuProfDir, stopping: false };
  stops.push(async () => {
    server.stopping = true;
    const { code, signal: killedBy, containment } = await target.stop();
    server.containment = containment;
    logger.info({ code, signal: killedBy, containment }, 'server stopped');
  });
  logger.info({ pid: target.proc.pid, host: target.host, port: target.port }, 'server ready');
  return server;
}

/** Where the profiles are and the busiest one's top functions. */
function profileSummary(dir, since) {
  const profiles = readProfiles(dir, { since });
  return {
    dir,
    files: profiles.map((p) => p.file),
    top: profiles[0] ? { file: profiles[0].file, busyMs: profiles[0].busyMs, functions: profiles[0].functions } : null,
  };
}

