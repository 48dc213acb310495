/**
 * What every engine (run, diagnose) shares: the start/stop shell, the load started
 * from a plan, the cleanup stack, and how a crash of the server is worded.
 */
import { EventEmitter } from 'node:events';
import { startLoad } from '../load/index.js';
import { checkTls } from '../load/tls-check.js';

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
