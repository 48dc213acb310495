/**
 * The versions a runtime reports about itself, and so how it spawns: read from the
 * executable that will run the strategy, not from spawnbench's own Node (a
 * `--runtime /path/to/node` or a Bun or Deno binary is another program). Each
 * executable is asked once per spawnbench process (~40 ms for a Node).
 */
import { execFile } from 'node:child_process';
import { spawnMechanism } from '../machine/spawn-mechanism.js';
import { targetOf } from '../base/target-kinds.js';

/** A runtime that does not answer within this long is reported with unknown versions. */
const VERSION_TIMEOUT_MS = 10_000;

const cache = new Map();

/**
 * @param {{ name: string, kind: 'node'|'bun'|'deno', path: string }} runtime from resolveRuntime()
 * @returns {Promise<{ name: string, kind: string, path: string, version: string|null, libuv: string|null,
 *   spawnMechanism: 'fork'|'posix_spawn'|'vfork'|null }>}
 */
export async function readRuntimeVersions(runtime) {
  const key = `${runtime.kind}\0${runtime.path}`;
  if (!cache.has(key)) cache.set(key, ask(runtime));
  const { version, libuv } = await cache.get(key);
  return {
    name: runtime.name,
    kind: runtime.kind,
    path: runtime.path,
    version,
    libuv,
    spawnMechanism: spawnMechanism({ kind: runtime.kind, libuv }),
  };
}

/**
 * The runtimes of a run's target, main process first, then its workers when a pool
 * strategy runs them on another executable.
 * @param {object} target plan.target
 * @returns {Promise<Array<object>>} `[{ role: 'main'|'workers', ...readRuntimeVersions() }]`; [] for --url
 */
export async function describeTargetRuntimes(target) {
  // A plan without resolved runtimes (made by hand, or a test's) has nothing to ask.
  if (targetOf(target).processes !== 'pool' || !target.runtime?.path) return [];
  const main = { role: 'main', ...(await readRuntimeVersions(target.runtime)) };
  const workers = target.pool ? target.workerRuntime : null;
  const runtimes = !workers?.path || workers.path === target.runtime.path ? [main] : [main, { role: 'workers', ...(await readRuntimeVersions(workers)) }];
  // A Node that runs the commands through strategies/lib/spawn-command.js spawns with posix_spawn where an FFI loads (node:ffi or koffi),
  // whatever its libuv does: the runtime that runs them (the workers', or the only one) says so.
  if (target.spawnsWith !== 'spawn-command') return runtimes;
  const spawner = runtimes.at(-1);
  if (spawner.kind !== 'node' || (await spawnCommandApi(spawner)) !== 'posix_spawn') return runtimes;
  const posix = { ...spawner, spawnMechanism: 'posix_spawn' };
  if (runtimes.length === 2) return [main, posix];
  return target.pool ? [main, { ...posix, role: 'workers' }] : [{ ...posix, role: 'main' }];
}

const SPAWN_COMMAND_URL = new URL('../../strategies/lib/spawn-command.js', import.meta.url).href;
const POSIX_SPAWN_URL = new URL('../../strategies/lib/posix-spawn.js', import.meta.url).href;

/**
 * How strategies/lib/spawn-command.js runs a command on this Node: its SPAWN_API ('posix_spawn'
 * or 'child_process'), asked of the executable with the environment the strategy gets
 * (SPAWNBENCH_SPAWN_API=child_process turns posix_spawn off): it depends on whether node:ffi or
 * koffi loads in that Node, not on its version alone.
 * @param {{ path: string }} runtime
 * @returns {Promise<string|null>}
 */
async function spawnCommandApi({ path }) {
  const key = `spawn-api\0${path}\0${process.env.SPAWNBENCH_SPAWN_API ?? ''}`;
  if (!cache.has(key)) cache.set(key, path === process.execPath ? spawnApiHere() : spawnApiOf(path));
  return cache.get(key);
}

/**
 * The Node running spawnbench answers for itself, as the strategy (this executable, this
 * environment) would: whether posix_spawn loads here (no process started, ~0.26 s and
 * 0.14 CPU-s less per run of a pool strategy on this machine).
 * @returns {Promise<string>}
 */
async function spawnApiHere() {
  const { loadPosixSpawn } = await import(POSIX_SPAWN_URL);
  return (await loadPosixSpawn(process.env)).run ? 'posix_spawn' : 'child_process';
}

/** Another Node executable says what spawn-command.js chooses in it. @param {string} path @returns {Promise<string|null>} */
function spawnApiOf(path) {
  const script = `const m = await import(${JSON.stringify(SPAWN_COMMAND_URL)}); console.log(m.SPAWN_API)`;
  return new Promise((resolve) => {
    execFile(path, ['--input-type=module', '-e', script], { timeout: VERSION_TIMEOUT_MS, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout) => resolve(error ? null : stdout.trim() || null));
  });
}

async function ask({ kind, path }) {
  if (kind === 'node' && path === process.execPath) return { version: process.versions.node, libuv: process.versions.uv };
  const args = kind === 'node' ? ['-p', 'process.versions.node + " " + process.versions.uv'] : ['--version'];
  const out = await new Promise((resolve) => {
    execFile(path, args, { timeout: VERSION_TIMEOUT_MS, env: { ...process.env, NODE_OPTIONS: '' } }, (error, stdout) => resolve(error ? '' : stdout));
  });
  if (kind === 'node') {
    const [version = null, libuv = null] = out.trim().split(' ');
    return { version: version || null, libuv: libuv || null };
  }
  // "1.4.5" (bun) or "deno 2.9.5 (stable, …)\nv8 …" (deno)
  const version = /(\d+\.\d+\.\d+\S*)/.exec(out)?.[1] ?? null;
  return { version, libuv: null };
}
