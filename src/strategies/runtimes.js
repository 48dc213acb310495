/**
 * Runtimes a strategy's main process or its forked workers can run on: node (the
 * one running spawnbench), bun and deno (from this package's node_modules or from
 * PATH), or a path to an executable.
 */
import { accessSync, constants, realpathSync } from 'node:fs';
import { delimiter, join, isAbsolute, resolve, basename } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError } from '../errors.js';

const PACKAGE_BIN = fileURLToPath(new URL('../../node_modules/.bin/', import.meta.url));
export const KNOWN_RUNTIMES = ['node', 'bun', 'deno'];

function isExecutable(file) {
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
    return { name: value, kind: value, path };
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
