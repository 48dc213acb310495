/**
 * Forking pool workers on the configured worker runtime (node, bun or deno).
 * Node's fork() IPC is understood by Bun and Deno with the default 'json'
 * serialization; 'advanced' only works when both ends are the same runtime
 * (spawnbench refuses the other pairings at plan time, see src/strategies/runtimes.js).
 */
import { fork } from 'node:child_process';
import { basename } from 'node:path';

/** The runtime running this file. */
export function currentRuntime() {
  if (process.versions.bun) return 'bun';
  if (process.versions.deno) return 'deno';
  return 'node';
}

/** bun, deno or node, from an executable's file name (as src/strategies/runtimes.js does). */
export function runtimeKindOf(file) {
  const base = basename(file).toLowerCase();
  if (base.startsWith('bun')) return 'bun';
  if (base.startsWith('deno')) return 'deno';
  return 'node';
}

/** The configured worker runtime's kind: as spawnbench resolved it, else from its file name. */
export function workerKind(config) {
  return config.workerRuntimeKind ?? runtimeKindOf(config.workerRuntime);
}

/**
 * The flags a worker runtime needs before the script: node workers under a node
 * main inherit its flags (so an `--import` probe reaches them too); deno needs
 * `run --allow-all` unless the main process is deno (its fork adds them itself).
 */
export function workerExecArgv(config) {
  if (config.workerExecArgv) return config.workerExecArgv;
  const kind = workerKind(config);
  const main = currentRuntime();
  if (kind === 'deno') return main === 'deno' ? [] : ['run', '--allow-all'];
  if (kind === 'node' && main === 'node') return process.execArgv;
  return [];
}

/**
 * Forks one worker script. Its stdout/stderr go to the strategy's own (spawnbench's
 * log); it gets no stdin, and exits when the IPC channel closes (see onParentGone).
 * @param {string} file absolute path of the worker script
 * @param {object} config from readConfig()
 * @param {{args?: string[], serialization?: 'json'|'advanced', env?: Record<string, string>}} [options]
 *   `env`: added to this process's environment for the worker only (a secret that must not be on its command line)
 * @returns {import('node:child_process').ChildProcess}
 */
export function forkWorker(file, config, { args = [], serialization = 'json', env } = {}) {
  return fork(file, args, {
    execPath: config.workerRuntime,
    execArgv: workerExecArgv(config),
    serialization,
    ...(env && { env: { ...process.env, ...env } }),
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
}

/**
 * Worker side: exit when the main process is gone (the IPC channel closes), so a
 * killed main never leaves a worker serving nothing.
 */
export function onParentGone() {
  process.on('disconnect', () => process.exit(0));
  // A send in flight as the main dies fails before 'disconnect' is seen: unhandled, its EPIPE stack trace was the
  // stderr quoted for a strategy whose main was killed, in place of the main's own reason.
  process.on('error', (error) => {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    if (code === 'EPIPE' || code === 'ECONNRESET' || code === 'ERR_IPC_CHANNEL_CLOSED') process.exit(0);
    throw error;
  });
}
