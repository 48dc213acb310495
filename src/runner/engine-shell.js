/**
 * The shell every engine shares (run, diagnose; tune and compare through
 * step-runner.js): start/stop, the load started from a plan, the server's crash
 * watcher, the cleanup stack, and the result envelope. The skeleton an engine
 * fills in: boot → sample → load → stop → result.
 */
import { EventEmitter } from 'node:events';
import { startLoad } from '../load/index.js';
import { checkTls } from '../load/tls-check.js';
import { RESULT_FORMAT } from '../result-format.js';

/** The note of a result measured until stop() (Ctrl-C, q, an aborted API call). */
export const STOPPED_EARLY_NOTE = 'stopped early: the figures cover the time measured until then';

/**
 * An engine: an EventEmitter with start() (once; resolves to the result) and stop()
 * (ends early; the result covers what was measured). `execute` keeps what stop()
 * must reach in `state`: `load` (a running load), `current` (a running sub-engine,
 * as a tune step's run), and `abort.signal` for waits such as readiness.
 * @param {(engine: EventEmitter, state: object) => Promise<object>} execute
 * @param {import('pino').Logger} logger
 * @param {string} [name] for the log
 * @returns {EventEmitter & { start: () => Promise<object>, stop: () => void }}
 */
export function createEngine(execute, logger, name = 'run') {
  const engine = new EventEmitter();
  const state = { stopRequested: false, load: null, current: null, started: null, lastTick: null, abort: new AbortController() };
  engine.start = () => (state.started ??= execute(engine, state));
  engine.stop = () => {
    if (state.stopRequested) return;
    state.stopRequested = true;
    logger.info(`${name}: stop requested`);
    state.abort.abort();
    state.load?.stop();
    state.current?.stop();
  };
  return engine;
}

/**
 * An https target's certificate is checked with one handshake before the load:
 * a refused one is a one-line error naming --insecure (http: nothing to do).
 * @param {object} plan a plan with `load` from buildLoad()
 * @param {string} url
 */
export function checkLoadTarget(plan, url) {
  return checkTls(url, { insecure: plan.load.insecure, timeoutMs: plan.load.timeoutMs });
}

/**
 * Starts the plan's load on `url` and forwards its phase and tick events through the engine.
 * @param {EventEmitter} engine
 * @param {object} state the engine's state (load and lastTick are set here)
 * @param {object} plan a plan with `load` from buildLoad()
 * @param {string} url
 * @param {Buffer|null} expectedBody
 */
export function startPlanLoad(engine, state, plan, url, expectedBody) {
  const l = plan.load;
  state.load = startLoad({
    url,
    method: l.method,
    headers: l.headers,
    body: l.body,
    connections: l.connections,
    durationMs: l.durationMs,
    requests: l.requests,
    warmupMs: l.warmupMs,
    rate: l.rate,
    timeoutMs: l.timeoutMs,
    expectedBody,
    threads: l.threads,
    insecure: l.insecure,
  });
  state.load.on('phase', (p) => engine.emit('phase', p));
  state.load.on('tick', (tick) => {
    state.lastTick = tick;
    engine.emit('tick', tick);
  });
  return state.load;
}

/** Runs cleanup steps in reverse order of starting (sampler, then server, then probe channel), logging failures. */
export async function runStops(stops, logger) {
  for (const stop of stops.splice(0).reverse()) {
    try {
      await stop();
    } catch (error) {
      logger.error({ err: error }, 'cleanup step failed');
    }
  }
}

/** "strategy 'x' was killed by SIGKILL during the run; its stderr ends: …" */
export function describeCrash(label, crash) {
  const why = crash.signal ? `was killed by ${crash.signal}` : `exited with code ${crash.code}`;
  return `${label} ${why} during the run${crash.stderr ? `; its stderr ends:\n${crash.stderr}` : ''}`;
}

/**
 * Watches a server process for an exit nobody asked for: records it, logs it,
 * and ends the load (its figures stop there). `crash()` is the exit or null.
 * @param {{ exited: Promise<{ code: number|null, signal: string|null }>, stderrTail: () => string }} proc
 * @param {{ isStopping: () => boolean, state: object, logger: import('pino').Logger, what: string }} options
 * @returns {{ crash: () => ({ code: number|null, signal: string|null, stderr: string }|null) }}
 */
export function watchCrash(proc, { isStopping, state, logger, what }) {
  let crash = null;
  proc.exited.then(({ code, signal }) => {
    if (isStopping()) return;
    crash = { code, signal, stderr: proc.stderrTail() };
    logger.error(crash, `${what} exited mid-run`);
    state.load?.stop();
  });
  return { crash: () => crash };
}

/**
 * A result document: the envelope every kind shares, then its own fields.
 * @param {'run'|'tune'|'compare'|'diagnose'} kind
 * @param {object} fields
 */
export function resultEnvelope(kind, fields) {
  return { tool: 'spawnbench', format: RESULT_FORMAT, kind, createdAt: new Date().toISOString(), ...fields };
}

/**
 * The skeleton of an engine that measures one server: boot → sample → load →
 * stop. Run (a strategy, or --url) and diagnose (the user's server, or --url)
 * fill in the steps; the skeleton owns the order, the crash watcher, the
 * cleanup stack and what happens on every exit path.
 * @param {import('node:events').EventEmitter} engine emits `phase` booting/stopping, `sample`, and the load's events
 * @param {object} state the engine's state (createEngine)
 * @param {object} steps
 * @param {object} steps.plan a plan with `load` (buildLoad())
 * @param {import('pino').Logger} steps.logger
 * @param {string} steps.what the server, for the log ('strategy', 'server')
 * @param {(stops: Function[]) => Promise<{ proc: object, stopping: boolean }|null>} steps.boot starts the
 *   server (null for --url), pushing each step's cleanup on `stops`
 * @param {(server: object|null) => object|null} steps.sample starts the sampler, or null
 * @param {(server: object|null) => string} steps.url the URL the load drives
 * @param {Buffer|null} [steps.expectedBody]
 * @param {(phase: string, server: object|null) => void} [steps.onLoadPhase] the load's phases, after the sampler's reset at 'measure'
 * @param {(server: object|null) => void} [steps.afterLoad] right after the measured load, before anything stops
 * @param {(server: object|null) => void} [steps.beforeStops] after the sampler's summary, before the server stops
 * @returns {Promise<{ server: object|null, load: object, samples: object|null, crash: object|null }>}
 */
export async function measureServer(engine, state, { plan, logger, what, boot, sample, url, expectedBody = null, onLoadPhase, afterLoad, beforeStops }) {
  engine.emit('phase', { phase: 'booting' });
  const stops = [];
  let server = null;
  let watcher = null;
  try {
    server = await boot(stops);
    watcher = server ? watchCrash(server.proc, { isStopping: () => server.stopping, state, logger, what }) : null;
    const sampler = sample(server);
    if (sampler) {
      sampler.on('sample', (s) => engine.emit('sample', s));
      stops.push(() => sampler.stop()); // stop() is idempotent: the normal path calls it first for the summary
    }
    if (state.stopRequested) throw Object.assign(new Error('stopped before the load started'), { stoppedEarly: true });

    const target = url(server);
    await checkLoadTarget(plan, target);
    const loadRun = startPlanLoad(engine, state, plan, target, expectedBody);
    logger.info({ url: target }, 'load start');
    // Samples summarise the measured phase only, like the load figures.
    loadRun.on('phase', ({ phase }) => {
      if (phase === 'measure') sampler?.reset();
      onLoadPhase?.(phase, server);
    });
    const load = await state.load.done;
    afterLoad?.(server);
    engine.emit('phase', { phase: 'stopping' });
    const samples = sampler ? await sampler.stop() : null;
    beforeStops?.(server);
    if (server) server.stopping = true;
    await runStops(stops, logger);
    return { server, load, samples, crash: watcher?.crash() ?? null };
  } catch (error) {
    if (server) server.stopping = true;
    await runStops(stops, logger);
    if (watcher?.crash() && !error.stoppedEarly) logger.error({ err: error }, `${what} failed after a crash`);
    throw error;
  }
}

/** The end of every engine: `phase: done`, then `done` with the result, which it returns. */
export function finishEngine(engine, result) {
  engine.emit('phase', { phase: 'done' });
  engine.emit('done', result);
  return result;
}
