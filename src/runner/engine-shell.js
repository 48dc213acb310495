/**
 * The shell every engine shares (run, diagnose; tune and compare through
 * step-runner.js): start/stop, the load started from a plan, the server's crash
 * watcher, the cleanup stack, and the result envelope. The skeleton an engine
 * fills in: boot → sample → load → stop → result.
 */
import { EventEmitter } from 'node:events';
import { startLoad } from '../load/index.js';
import { checkTls, speaksTls } from '../load/tls-check.js';
import { parseTarget } from '../load/target.js';
import { busySilence, busyFromStart } from '../analysis/busy-silence.js';
import { isServerEntry } from '../machine/process-roles.js';
import { probeWhileSpinning } from '../sample/index.js';
import { RESULT_FORMAT } from '../output/result-format.js';
import { describeDaemonised, portListened } from './listening-ports.js';
import { createStderrLines } from './stderr-lines.js';
import { ownStartFailure } from './start-limits.js';

/** The note of a result measured until stop() (Ctrl-C, q, an aborted API call). */
export const STOPPED_EARLY_NOTE = 'stopped early: the figures cover the time measured until then';

/**
 * Every event an engine emits, in one list: the API (`onEvent`) and the dashboard
 * subscribe to these names; emitting another name is a bug and throws.
 * - `start` {plan, machine, runtimes}; `phase` {phase: 'booting'|'warmup'|'measure'|'stopping'|'done'};
 *   `tick` LoadTick; `sample` a sampler's sample; `workers` the strategy's workers line; `log` a log entry;
 * - tune adds `tune-progress` (the step starting, null at the end) and `tune-step` (its figures);
 * - compare adds `compare-progress` and `compare-step`;
 * - `done` the result, last.
 */
export const ENGINE_EVENTS = Object.freeze(['start', 'phase', 'tick', 'sample', 'workers', 'log', 'tune-progress', 'tune-step', 'compare-progress', 'compare-step', 'done']);

/**
 * An engine owns one measurement's lifecycle. `start()` runs `execute(engine)` once and
 * resolves to the result; `stop()` ends it early (the result covers what was measured)
 * by aborting `signal`, which every sub-step listens to: the waits for readiness, the
 * load the engine started (startLoad), and a step's own engine (runStep). Nobody else
 * writes its state: sub-steps read `signal`, `stopRequested` and `lastTick`.
 */
export class Engine extends EventEmitter {
  #execute;
  #logger;
  #name;
  #abort = new AbortController();
  #started = null;
  #load = null;
  #lastTick = null;

  /**
   * @param {(engine: Engine) => Promise<object>} execute the engine's steps; returns the result
   * @param {import('pino').Logger} logger
   * @param {string} [name] for the log
   */
  constructor(execute, logger, name = 'run') {
    super();
    this.#execute = execute;
    this.#logger = logger;
    this.#name = name;
  }

  /** Runs the engine (once: a second call returns the same promise). */
  start() {
    return (this.#started ??= this.#execute(this));
  }

  /** Ends the engine early: aborts `signal`; what listens to it stops. */
  stop() {
    if (this.#abort.signal.aborted) return;
    this.#logger.info(`${this.#name}: stop requested`);
    this.#abort.abort();
  }

  /** Aborted by stop(): sub-steps give up their waits and stop what they started. */
  get signal() {
    return this.#abort.signal;
  }

  get stopRequested() {
    return this.#abort.signal.aborted;
  }

  /** The load's latest tick (the generator's own figures, for the sampler), or null. */
  get lastTick() {
    return this.#lastTick;
  }

  /**
   * Only the declared events (ENGINE_EVENTS).
   * @param {string} name
   * @param {...unknown} args
   */
  emit(name, ...args) {
    if (!ENGINE_EVENTS.includes(name)) throw new Error(`engine event '${name}' is not in ENGINE_EVENTS (src/runner/engine-shell.js)`);
    return super.emit(name, ...args);
  }

  /**
   * Starts the plan's load on `url`, forwards its phase and tick events, and stops it
   * when the engine is stopped.
   * @param {object} plan a plan with `load` from buildLoad()
   * @param {string} url
   */
  startLoad(plan, url) {
    let load;
    try {
      // The plan's load is startLoad()'s input as it is (load-options.js LoadOptions); the URL is known now.
      // A tune step's -d is a minimum: its load runs up to the cap, ended once it has enough (enough-watch.js).
      load = startLoad({ ...plan.load, url, ...(plan.load.extendToMs != null ? { durationMs: plan.load.extendToMs } : {}) });
    } catch (error) {
      // Its threads could not start under the process limit (EAGAIN): one line, not a stack.
      throw ownStartFailure('the load generator', error);
    }
    this.#load = load;
    // `at`: when the phase began (epoch ms, the load's stamp), so a worker's death is placed in the measured time.
    load.on('phase', (p) => this.emit('phase', { ...p, at: p.at ?? Date.now() }));
    // An extended tune step plans its -d, not the cap: past -d, the time so far (enough-watch.js).
    const extended = plan.load.extendToMs != null;
    load.on('tick', (raw) => {
      const tick = extended && raw.phase === 'measure' ? { ...raw, plannedMs: Math.max(plan.load.durationMs, raw.elapsedMs) } : raw;
      this.#lastTick = tick;
      this.emit('tick', tick);
    });
    const stop = () => load.stop();
    if (this.stopRequested) stop(); // stopped while the load was being set up
    else this.signal.addEventListener('abort', stop, { once: true });
    load.done.finally(() => this.signal.removeEventListener('abort', stop)).catch(() => {});
    return load;
  }

  /** Ends the load now, its figures stopping there (the server crashed or broke the protocol). */
  endLoad() {
    this.#load?.stop();
  }

  /**
   * Runs a step's own engine (a tune or compare step) with its events forwarded
   * through this one; stopping this engine stops it.
   * @param {{ start: () => Promise<object>, stop: () => void, on: Function, off: Function }} step
   * @param {readonly string[]} forwarded the step's events passed through
   */
  async runStep(step, forwarded) {
    const forward = forwarded.map((name) => [name, (payload) => (name === 'phase' && payload?.phase === 'done' ? null : this.emit(name, payload))]);
    for (const [name, handler] of forward) step.on(name, handler);
    const stop = () => step.stop();
    if (this.stopRequested) stop();
    else this.signal.addEventListener('abort', stop, { once: true });
    try {
      return await step.start();
    } finally {
      this.signal.removeEventListener('abort', stop);
      for (const [name, handler] of forward) step.off(name, handler);
    }
  }
}

/**
 * An engine running `execute` (see Engine).
 * @param {(engine: Engine) => Promise<object>} execute
 * @param {import('pino').Logger} logger
 * @param {string} [name] for the log
 */
export function createEngine(execute, logger, name = 'run') {
  return new Engine(execute, logger, name);
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
  if (crash.daemonised) return describeDaemonised(label, crash.port, 'during the run');
  // A daemonised server is not spawnbench's child: it is seen gone, its exit status is not ours to read.
  const why = crash.signal ? `was killed by ${crash.signal}` : crash.code === null ? 'ended' : `exited with code ${crash.code}`;
  return `${label} ${why} during the run${crash.stderr ? `; its stderr ends:\n${crash.stderr}` : ''}`;
}

/**
 * Watches a server process for an exit nobody asked for: records it, logs it,
 * and ends the load (its figures stop there). `crash()` is the exit or null.
 * @param {{ exited: Promise<{ code: number|null, signal: string|null }>, stderrTail: () => string }} proc
 * @param {{ isStopping: () => boolean, onCrash: () => void, logger: import('pino').Logger, what: string, port?: number|null }} options
 *   port: the server's port; an exit with code 0 while something still listens there is a daemon's (`daemonised`)
 * @returns {{ crash: () => ({ code: number|null, signal: string|null, stderr: string, daemonised?: boolean, port?: number }|null) }}
 */
export function watchCrash(proc, { isStopping, onCrash, logger, what, port = null }) {
  let crash = null;
  proc.exited.then(({ code, signal }) => {
    if (isStopping()) return;
    crash = { code, signal, stderr: proc.stderrTail() };
    if (code === 0 && !signal && portListened(port)) Object.assign(crash, { daemonised: true, port });
    logger.error(crash, `${what} exited mid-run`);
    onCrash();
  });
  // The stderr tail as it is when the crash is described (after the stops): the exit can be
  // seen before the server's last lines are read from its pipe (seen: a cluster primary's
  // "worker N exited (SIGKILL)" missing from the crash line on a loaded machine).
  return { crash: () => (crash ? { ...crash, stderr: proc.stderrTail() || crash.stderr } : null) };
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
 * @param {Engine} engine emits `phase` booting/stopping, `sample`, and the load's events
 * @param {object} steps
 * @param {object} steps.plan a plan with `load` (buildLoad())
 * @param {import('pino').Logger} steps.logger
 * @param {string} steps.what the server, for the log ('strategy', 'server')
 * @param {(stops: Function[], onStderr: (line: string) => void) => Promise<{ proc: any, stopping: boolean, port?: number }|null>} steps.boot starts the
 *   server (null for --url), pushing each step's cleanup on `stops`, handing each stderr line of the server to `onStderr`
 * @param {(server: object|null) => object|null} steps.sample starts the sampler, or null
 * @param {(server: object|null) => string} steps.url the URL the load drives
 * @param {(phase: string, server: object|null, at: number) => void} [steps.onLoadPhase] the load's phases, after the sampler's reset at 'measure'; `at`: when the phase began (epoch ms), taken before the reset, which can take a while on a loaded machine
 * @param {(server: object|null) => void|Promise<void>} [steps.afterLoad] right after the measured load, before anything stops
 * @param {(server: object|null) => void} [steps.beforeStops] after the sampler's summary, before the server stops
 * @returns {Promise<{ server: object|null, load: object, samples: object|null, crash: object|null,
 *   stderr: { lines: Array<{ text: string, count: number }>, other: number, total: number }|null }>}
 *   `stderr`: the server's stderr lines of the measured phase, most frequent first (null for --url)
 */
export async function measureServer(engine, { plan, logger, what, boot, sample, url, onLoadPhase, afterLoad, beforeStops }) {
  engine.emit('phase', { phase: 'booting' });
  const stops = [];
  let server = null;
  let watcher = null;
  const stderrLines = createStderrLines();
  try {
    server = await boot(stops, stderrLines.add);
    watcher = server ? watchCrash(server.proc, { isStopping: () => server.stopping, onCrash: () => engine.endLoad(), logger, what, port: server.port ?? server.proc.port }) : null;
    const sampler = sample(server);
    if (sampler) {
      sampler.on('sample', (s) => engine.emit('sample', s));
      stops.push(() => sampler.stop()); // stop() is idempotent: the normal path calls it first for the summary
    }
    if (engine.stopRequested) throw Object.assign(new Error('stopped before the load started'), { stoppedEarly: true });

    const target = url(server);
    await checkLoadTarget(plan, target);
    const loadRun = engine.startLoad(plan, target);
    logger.info({ url: target }, 'load start');
    // Samples summarise the measured phase only, like the load figures.
    loadRun.on('phase', ({ phase, at }) => {
      if (phase === 'measure') {
        sampler?.reset();
        stderrLines.start();
      }
      onLoadPhase?.(phase, server, at);
    });
    const load = await loadRun.done;
    stderrLines.stop();
    await markTlsTarget(load, target);
    await afterLoad?.(server);
    engine.emit('phase', { phase: 'stopping' });
    const samples = sampler ? await sampler.stop() : null;
    beforeStops?.(server);
    if (server) server.stopping = true;
    await runStops(stops, logger);
    return { server, load, samples, crash: watcher?.crash() ?? null, stderr: server ? stderrLines.snapshot() : null };
  } catch (error) {
    if (server) server.stopping = true;
    await runStops(stops, logger);
    if (watcher?.crash() && !error.stoppedEarly) logger.error({ err: error }, `${what} failed after a crash`);
    throw error;
  }
}

/**
 * A plain-HTTP run where nothing succeeded and connections were closed unanswered: one
 * TLS handshake says whether the server speaks https there (`load.speaksTls`), so the
 * failure names that rather than "its own log says why".
 * @param {{ requests: number, errors?: Record<string, number> }} load
 * @param {string} url
 */
async function markTlsTarget(load, url) {
  if (load.requests > 0 || !(load.errors?.reset > 0)) return;
  const target = parseTarget(url);
  if (target.tls) return;
  if (await speaksTls(target.host, target.port)) Object.assign(load, { speaksTls: true });
}

/**
 * A run where no response arrived while a server process kept a CPU busy with its probe silent: `load.spinning` says
 * which (its failure names the held loop, not "the measured phase was too short"), and the probe's reason says why it
 * never reported.
 * @param {{ requests: number, errors?: Record<string, number> }} load
 * @param {{ processes?: object[], probe?: { available: boolean, reason: string|null } }|null} samples
 */
export function markSpinning(load, samples) {
  if (load.requests > 0 || (load.errors?.total ?? 0) > 0 || !samples) return;
  const processes = /** @type {import('../analysis/busy-silence.js').SampledProcess[]} */ ((samples.processes ?? []).filter(isServerEntry));
  // A server on another runtime (python3) never has a probe report: its CPU alone says nothing of an event loop.
  const otherRuntime = Boolean(/** @type {{ program?: string }|undefined} */ (samples.probe)?.program);
  const spinning = busySilence(processes) ?? (otherRuntime ? null : busyFromStart(processes));
  if (!spinning) return;
  Object.assign(load, { spinning });
  samples.probe = probeWhileSpinning(samples.probe, spinning);
}

/** The end of every engine: `phase: done`, then `done` with the result, which it returns. */
export function finishEngine(engine, result) {
  engine.emit('phase', { phase: 'done' });
  engine.emit('done', result);
  return result;
}
