/**
 * The programmatic API. Options take the CLI's names in camelCase, with typed values
 * (durations in ms, counts as numbers, lists as arrays) or the CLI's text ('10s', '1,2,4');
 * one left out takes its declared default (src/plan/option-declarations.js); every function resolves to the same plain result
 * the CLI prints with --json, and stops every process it started before resolving.
 *
 *   import { run } from 'spawnbench';
 *   const result = await run({ strategy: 'fork-pool', poolSize: 4, duration: '5s' });
 *   console.log(result.load.rps, result.load.latency.p99Ms);
 */
import { buildRunPlan } from './plan/run-plan.js';
import { buildOwnRunPlan } from './plan/server-command-plan.js';
import { createRun } from './runner/run-engine.js';
import { buildTunePlan } from './tune/tune-plan.js';
import { createTune } from './tune/tune-engine.js';
import { buildComparePlan } from './compare/compare-plan.js';
import { createCompare } from './compare/compare-engine.js';
import { buildDiagnosePlan } from './diagnose/diagnose-plan.js';
import { createDiagnose } from './diagnose/diagnose-engine.js';
import { createLogger, closeLogger } from './output/logger.js';
import { RunError } from './base/errors.js';
import { ENGINE_EVENTS } from './runner/engine-shell.js';
import { withWords } from './report/words.js';

export { startLoad } from './load/index.js';
export { listStrategies, getStrategy } from './strategies/registry.js';
export { formatSummary } from './report/summary.js';
export { formatTune } from './report/tune-text.js';
export { formatCompare, formatCompareMarkdown } from './report/compare-text.js';
export { readResultFile, writeResultFile } from './report/result-file.js';
export { UsageError, RunError } from './base/errors.js';
export { createRun, createTune, createCompare, createDiagnose };

/**
 * Starts the plan's engine with its --log-file logger, forwards its events to `onEvent` (name,
 * payload), and resolves to its result with its words filled in (src/report/words.js), as the
 * CLI's --json prints it. The log is put in place once the engine ended; a log that could not
 * be written rejects with a RunError (after a run that itself failed, that failure is kept).
 * @param {{ output: { logFile: string|null } }} plan
 * @param {(plan: any, deps: { logger: any }) => { start: () => Promise<object>, stop: () => void, on: Function }} createEngine
 * @param {(name: string, payload: unknown) => void} [onEvent]
 * @param {AbortSignal} [signal] aborting stops the engine early (the result covers what was measured)
 */
async function drive(plan, createEngine, onEvent, signal) {
  const logger = createLogger(plan.output.logFile);
  const engine = createEngine(plan, { logger });
  if (onEvent) for (const name of ENGINE_EVENTS) engine.on(name, (payload) => onEvent(name, name === 'done' ? withWords(payload) : payload));
  const stop = () => engine.stop();
  signal?.addEventListener('abort', stop, { once: true });
  let logFailure = null;
  let result;
  try {
    result = withWords(await engine.start());
  } finally {
    signal?.removeEventListener('abort', stop);
    closeLogger(logger, (line) => {
      logFailure = new RunError(line);
    });
  }
  if (logFailure) throw logFailure;
  return result;
}

/**
 * Boots a strategy (or takes `url`, or starts the user's own server: `command`, its argv as after `--`),
 * drives it, returns the RunResult (for a command, with its `server` shape, `sizeKnob` and a recommendation for it).
 * @param {object} [options] e.g. { strategy, poolSize, balance, workload, connections, duration, warmup, rate, url, logFile }
 *   or { command: ['node', 'server.js', '--workers', '3'], duration: '5s' } (`sizeEnv`, `port`, `path` as on the CLI)
 * @param {{ onEvent?: (name: string, payload: unknown) => void, signal?: AbortSignal }} [hooks]
 */
export async function run({ command, ...options } = {}, { onEvent, signal } = {}) {
  // The knob is looked for in the environment the server inherits: this process's.
  const plan = command ? buildOwnRunPlan(options, command, process.env) : buildRunPlan(options);
  return drive(plan, createRun, onEvent, signal);
}

/**
 * Sweeps pool sizes and balancing policies of a pool strategy, or of the user's own server
 * (`command`: its argv, as after `--`); resolves to the TuneResult with its recommendation.
 * @param {object} [options] e.g. { strategy, sizes: [1, 2, 4], balancePolicies: ['round-robin', 'p2c'], repeat, search: 'adaptive' }
 *   (lists as arrays, or as the CLI's comma-separated text: sizes: '1,2,4')
 *   or { command: ['node', 'server.js'], sizeEnv: 'WEB_CONCURRENCY', sizes: [1, 2, 4] }
 * @param {{ onEvent?: (name: string, payload: unknown) => void, signal?: AbortSignal }} [hooks]
 */
export async function tune({ command, ...options } = {}, { onEvent, signal } = {}) {
  const plan = buildTunePlan(options, command ?? null);
  return drive(plan, createTune, onEvent, signal);
}

/**
 * Runs several strategies and workloads under the same load; resolves to the CompareResult (the table).
 * @param {object} [options] e.g. { strategies: ['baseline', 'fork-pool'], workloads: ['echo', 'large'], repeat } (or comma-separated text)
 *   and the user's own servers as `command: ['mine=node server.js', …]` (--command)
 * @param {{ onEvent?: (name: string, payload: unknown) => void, signal?: AbortSignal }} [hooks]
 */
export async function compare(options = {}, { onEvent, signal } = {}) {
  const plan = buildComparePlan(options);
  return drive(plan, createCompare, onEvent, signal);
}

/**
 * Starts the user's server `command` (or takes `url`), loads it, and resolves to the DiagnoseResult with its verdict.
 * @param {object} options e.g. { path: '/api', connections, duration, cpuProf: true } or { url, pid }
 * @param {string[]} [command] the server command and its arguments
 * @param {{ onEvent?: (name: string, payload: unknown) => void, signal?: AbortSignal }} [hooks]
 */
export async function diagnose(options = {}, command = [], { onEvent, signal } = {}) {
  const plan = buildDiagnosePlan(options, command);
  return drive(plan, createDiagnose, onEvent, signal);
}
