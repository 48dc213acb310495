/**
 * Runtimes a strategy's main process or its forked workers can run on: node (the
 * one running spawnbench), bun and deno (from this package's node_modules or from
 * PATH), or a path to an executable.
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join, isAbsolute, resolve, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../base/errors.js';

const PACKAGE_BIN = fileURLToPath(new URL('../../node_modules/.bin/', import.meta.url));
export const KNOWN_RUNTIMES = ['node', 'bun', 'deno'];

/** Whether `file` is there and this process may execute it. */
export function isExecutable(file) {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir && isExecutable(join(dir, name))) return join(dir, name);
  }
  return null;
}

/**
 * Which kind of runtime an executable is, from its file name (bun, deno, else node).
 * @param {string} file
 */
export function runtimeKind(file) {
  const base = basename(realpathSync(file)).toLowerCase();
  if (base.startsWith('bun')) return 'bun';
  if (base.startsWith('deno')) return 'deno';
  return 'node';
}

/**
 * Resolves --runtime / --worker-runtime values.
 * @param {string} value 'node' | 'bun' | 'deno' | a path to an executable
 * @param {string} flag the flag name, for the error message
 * @returns {{ name: string, kind: 'node'|'bun'|'deno', path: string }}
 */
export function resolveRuntime(value, flag = '--runtime') {
  if (value === 'node') return { name: 'node', kind: 'node', path: process.execPath };
  if (KNOWN_RUNTIMES.includes(value)) {
    const local = join(PACKAGE_BIN, value);
    const path = isExecutable(local) ? realpathSync(local) : findOnPath(value);
    if (!path) throw new UsageError(`${flag} ${value}: '${value}' is not installed; run 'npm install ${value}' or put it on PATH`);
    return { name: value, kind: /** @type {'bun'|'deno'} */ (value), path };
  }
  const path = isAbsolute(value) ? value : resolve(value);
  if (!isExecutable(path)) {
    throw new UsageError(`${flag} ${value}: not an executable file; use node, bun, deno or a path to a runtime`);
  }
  return { name: value, kind: runtimeKind(path), path };
}

/**
 * The argv that runs a script file on a runtime.
 * @param {{kind: string}} runtime
 * @param {string} entry script path
 * @param {string[]} [nodeArgs] options for node (like --import), ignored elsewhere
 */
export function scriptArgs(runtime, entry, nodeArgs = []) {
  if (runtime.kind === 'deno') return ['run', '--allow-all', entry];
  if (runtime.kind === 'bun') return [entry];
  return [...nodeArgs, entry];
}

function asRuntime(value, flag) {
  if (value === undefined || value === null) return null;
  return typeof value === 'string' ? resolveRuntime(value, flag) : value;
}

/**
 * Refuses, at plan time, a runtime a strategy cannot run on, in one line that says
 * what to use instead, and says which runtime its workers will really run on: the
 * one the user chose, else the main process's own (a Bun main forks Bun workers).
 * @param {import('./registry.js').StrategyInfo} strategy
 * @param {object} choice
 * @param {string|{name: string, kind: string, path: string}} [choice.runtime] default node
 * @param {string|{name: string, kind: string, path: string}} [choice.workerRuntime]
 * @param {boolean} [choice.workerRuntimeGiven] whether the user passed --worker-runtime
 *   (default: whether workerRuntime is set); a default one is never an error
 * @returns {{ runtime: {name: string, kind: string, path: string}, workerRuntime: {name: string, kind: string, path: string}|null }}
 *   workerRuntime: what to put in the strategy config (null when the strategy forks no workers)
 * @throws {UsageError}
 */
export function checkRuntimeSupport(strategy, { runtime = 'node', workerRuntime, workerRuntimeGiven } = {}) {
  const main = asRuntime(runtime, '--runtime');
  const given = workerRuntimeGiven ?? (workerRuntime !== undefined && workerRuntime !== null);
  const name = `strategy '${strategy.name}'`;
  if (!strategy.runtimes.includes(main.kind)) {
    const why = strategy.runtimeNotes?.[main.kind] ?? `it runs on ${strategy.runtimes.join(', ')}`;
    throw new UsageError(`${name} cannot run on ${main.kind}: ${why}; use --runtime ${strategy.runtimes.join(' or ')}`);
  }
  if (!given) return { runtime: main, workerRuntime: strategy.workerRuntimes.length ? main : null };
  const worker = asRuntime(workerRuntime, '--worker-runtime');
  if (strategy.workerRuntimes.length === 0) {
    throw new UsageError(`${name} forks no worker processes, so --worker-runtime does not apply; choose its runtime with --runtime`);
  }
  if (!strategy.workerRuntimes.includes(worker.kind)) {
    throw new UsageError(`${name} cannot run its workers on ${worker.kind}; use --worker-runtime ${strategy.workerRuntimes.join(' or ')}`);
  }
  if (main.kind === 'deno' && worker.kind !== 'deno') {
    throw new UsageError(`${name} cannot fork ${worker.kind} workers from deno: Deno's fork() always starts deno; use --worker-runtime deno or --runtime node`);
  }
  if (strategy.workerIpc === 'advanced' && worker.kind !== main.kind) {
    throw new UsageError(`${name} cannot run its workers on ${worker.kind} under a ${main.kind} main process: 'advanced' IPC serialization is each runtime's own format; use --worker-runtime ${main.kind} or --runtime ${worker.kind}`);
  }
  return { runtime: main, workerRuntime: worker };
}

/**
 * The strategy config fields that fork workers on a runtime (see strategies/lib/fork.js):
 * `workerExecArgv` null lets a node worker under a node main inherit the main's
 * flags (so an --import probe reaches the workers too).
 * @param {{kind: string, path: string}} workerRuntime
 * @param {{kind: string}} mainRuntime
 * @returns {{ workerRuntime: string, workerExecArgv: string[]|null }}
 */
export function workerForkConfig(workerRuntime, mainRuntime) {
  let workerExecArgv = [];
  if (workerRuntime.kind === 'node' && mainRuntime.kind === 'node') workerExecArgv = null;
  // Deno's own fork() adds `run -A`; Node's and Bun's need it spelled out.
  else if (workerRuntime.kind === 'deno' && mainRuntime.kind !== 'deno') workerExecArgv = ['run', '--allow-all'];
  return { workerRuntime: workerRuntime.path, workerExecArgv };
}
