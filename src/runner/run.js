/**
 * The run engine: boots the target, warms it up, drives the load, samples it, stops
 * everything it started and returns a plain result. It emits; renderers listen
 * (events in src/README.md). It never prints.
 */
import { openProbeChannel, preloadArgs } from '../probe/channel.js';
import { startSampler } from '../sample/index.js';
import { readMachine } from '../machine.js';
import { createLogger } from '../logger.js';
import { describeWorkload } from '../workloads.js';
import { scriptArgs, workerForkConfig } from '../strategies/runtimes.js';
import { startStrategyProcess } from './strategy-process.js';
import { trackDir } from './cleanup.js';
import { makeOwnedTempDir } from './owned-temp-dir.js';
import { noResponseFailure } from '../load/host-check.js';
import { RESULT_FORMAT } from '../report/result-file.js';
import { createEngine, startPlanLoad, runStops, describeCrash } from './engine-parts.js';

/**
 * @param {object} plan from buildRunPlan()
 * @param {{ logger?: import('pino').Logger }} [options]
 * @returns {import('node:events').EventEmitter & { start: () => Promise<object>, stop: () => void }}
 */
export function createRun(plan, { logger = createLogger(null) } = {}) {
  return createEngine((run, state) => execute(run, plan, logger, state), logger);
}

async function execute(run, plan, logger, state) {
  const machine = await readMachine();
  logger.info({ plan: planForJson(plan), machine }, 'run start');
  run.emit('start', { plan: planForJson(plan), machine });
  run.emit('phase', { phase: 'booting' });
  const stops = [];
  const notes = [];
  let server = null;
  let sampler = null;
  let crash = null;
  let brokeProtocol = null;
  try {
    if (plan.target.kind === 'strategy') {
      server = await bootStrategy(plan, logger, run, stops, state.abort.signal);
      server.proc.exited.then(({ code, signal }) => {
        if (server.stopping) return;
        crash = { code, signal, stderr: server.proc.stderrTail() };
        logger.error(crash, 'strategy exited mid-run');
        state.load?.stop();
      });
      server.proc.on('protocol-error', (error) => {
        if (brokeProtocol) return;
        brokeProtocol = error.message;
        logger.error({ error: brokeProtocol }, 'strategy broke the protocol');
        state.load?.stop();
      });
      sampler = startSampler({
        rootPid: server.proc.pid,
        channel: server.channel,
        intervalMs: plan.probe.intervalMs,
        runtime: plan.target.runtime.kind,
        getGeneratorStats: () => state.lastTick?.generator ?? null,
        getWorkers: () => server.proc.workers(),
      });
      sampler.on('sample', (s) => run.emit('sample', s));
      stops.push(() => sampler.stop()); // stop() is idempotent: the normal path calls it first for the summary
    }
    if (state.stopRequested) throw Object.assign(new Error('stopped before the load started'), { stoppedEarly: true });

    const url = server ? `http://127.0.0.1:${server.proc.port}/` : plan.target.url;
    const loadRun = startPlanLoad(run, state, plan, url, plan.load.expected);
    logger.info({ url }, 'load start');
    // Samples summarise the measured phase only, like the load figures.
    loadRun.on('phase', ({ phase }) => phase === 'measure' && sampler?.reset());
    const load = await state.load.done;
    run.emit('phase', { phase: 'stopping' });
    const samples = sampler ? await sampler.stop() : null;
    const workers = server?.proc.workers() ?? [];
    if (server) server.stopping = true;
    await runStops(stops, logger);

    notes.push(...(load.notes ?? []));
    const failures = [];
    if (brokeProtocol) failures.push(brokeProtocol);
    if (crash) failures.push(describeCrash(`strategy '${plan.target.strategy}'`, crash));
    if (workloadNotFound(plan, load)) failures.push(`workload command not found: ${plan.workload.command}`);
    const silent = noResponseFailure(load, state.stopRequested);
    if (silent && failures.length === 0) failures.push(silent);
    if (state.stopRequested) notes.push('stopped early: the figures cover the time measured until then');

    const result = {
      tool: 'spawnbench',
      format: RESULT_FORMAT,
      kind: 'run',
      createdAt: new Date().toISOString(),
      plan: planForJson(plan),
      machine,
      strategy: server ? { name: plan.target.strategy, pid: server.proc.pid, port: server.proc.port, workers, containment: server.containment ?? null } : null,
      load,
      samples,
      notes,
      failures,
      stoppedEarly: state.stopRequested,
      exitCode: failures.length > 0 ? 1 : 0,
    };
    logger.info({ requests: load.requests, rps: load.rps, errors: load.errors, failures }, 'run done');
    run.emit('phase', { phase: 'done' });
    run.emit('done', result);
    return result;
  } catch (error) {
    if (server) server.stopping = true;
    await runStops(stops, logger);
    if (crash && !error.stoppedEarly) logger.error({ err: error }, 'run failed after a crash');
    throw error;
  }
}

async function bootStrategy(plan, logger, run, stops, signal) {
  const { target, workload } = plan;
  // Node loads the probe through NODE_OPTIONS (workers too), Bun through --preload; Deno cannot preload it.
  const useProbe = plan.probe.enabled && preloadArgs(target.runtime.kind) !== null;
  const channel = useProbe ? await openProbeChannel({ intervalMs: plan.probe.intervalMs }) : null;
  if (channel) stops.push(() => channel.close());
  // Pushed before the strategy's stop, so it runs after it: the strategy may be
  // killed before it can remove its own files, and this removes them anyway.
  const tempDir = await makeOwnedTempDir('run');
  stops.push(trackDir(tempDir));
  const config = {
    host: '127.0.0.1',
    port: 0,
    command: workload.command,
    args: workload.args,
    poolSize: target.poolSize,
    balance: target.balance,
    ...workerForkConfig(target.workerRuntime, target.runtime),
    workerRuntimeKind: target.workerRuntime.kind,
    seed: target.seed,
    tempDir,
  };
  logger.info({ strategy: target.strategy, config }, 'strategy start');
  const proc = await startStrategyProcess({
    command: target.runtime.path,
    args: [...(channel ? preloadArgs(target.runtime.kind) : []), ...scriptArgs(target.runtime, target.entry)],
    env: { SPAWNBENCH_STRATEGY_CONFIG: JSON.stringify(config), ...(channel?.env ?? {}) },
    label: `strategy '${target.strategy}'`,
    readyTimeoutMs: target.readyTimeoutMs,
    signal,
    onOutput: (line, stream) => logger.info({ stream }, line),
  });
  const server = { proc, channel, stopping: false, containment: null };
  stops.push(async () => {
    const { code, signal, containment } = await proc.stop();
    server.containment = containment;
    logger.info({ strategy: target.strategy, code, signal, containment }, 'strategy stopped');
  });
  proc.on('workers', (workers) => run.emit('workers', workers));
  logger.info({ strategyPid: proc.pid, port: proc.port }, 'strategy ready');
  return server;
}

/** A workload command that cannot be started shows up as 500s whose body is the spawn error. */
function workloadNotFound(plan, load) {
  if (plan.target.kind !== 'strategy') return false;
  const sample = load.bodySamples?.['500'] ?? '';
  return /ENOENT|EACCES|not found/i.test(sample);
}

/** The plan as plain JSON: runtimes by name and path, the expected body by its length. */
export function planForJson(plan) {
  const { workload, load, ...rest } = plan;
  const { expected, ...loadRest } = load;
  return { ...rest, workload: describeWorkload(workload), load: { ...loadRest, expectedBytes: expected?.length ?? null } };
}
