/**
 * Words for the runtimes of a run and how each spawns (ids from
 * src/analysis/spawn-mechanism.js): the header line of the summaries and the
 * sentence that points a forking Node at the faster spawn.
 */
import { POSIX_SPAWN_LIBUV } from '../base/thresholds.js';

/** @type {Record<string, string>} */
const KIND_NAMES = { node: 'Node', bun: 'Bun', deno: 'Deno' };

/**
 * "Node 20.20.2, libuv 1.46.0" · "Bun 1.4.5" · "Deno 2.9.5"; the path when it did not say.
 * @param {{ kind: string, version?: string|null, libuv?: string|null, path?: string }} runtime
 */
export function describeRuntime(runtime) {
  const name = KIND_NAMES[runtime.kind] ?? runtime.kind;
  if (!runtime.version) return `${name} at ${runtime.path} (version unknown)`;
  return runtime.libuv ? `${name} ${runtime.version}, libuv ${runtime.libuv}` : `${name} ${runtime.version}`;
}

/**
 * "fork" · "posix_spawn" · "vfork" · "an unknown mechanism".
 * @param {{ spawnMechanism?: string|null }} runtime
 */
function mechanism(runtime) {
  return runtime.spawnMechanism ?? 'an unknown mechanism';
}

/**
 * "spawns by fork (Node 20.20.2, libuv 1.46.0)", or with workers on another runtime
 * "main spawns by fork (Node 20.20.2, libuv 1.46.0) · workers by vfork (Bun 1.4.5)";
 * null when the runtimes are not known (a --url run, an older result file).
 * @param {Array<{ role: string, kind: string, version: string|null, libuv: string|null, spawnMechanism: string|null }>|undefined} runtimes
 * @returns {string|null}
 */
export function formatSpawnLine(runtimes) {
  if (!runtimes?.length) return null;
  if (runtimes.length === 1) return `spawns by ${mechanism(runtimes[0])} (${describeRuntime(runtimes[0])})`;
  return runtimes
    .map((r, i) => `${i === 0 ? `${r.role} spawns` : `${r.role}`} by ${mechanism(r)} (${describeRuntime(r)})`)
    .join(' · ');
}

/**
 * For results over several strategies (compare), or the runtimes a diagnosed server's
 * probed processes reported: each distinct runtime once,
 * "Node 20.20.2, libuv 1.46.0 spawns by fork · Bun 1.4.5 spawns by vfork"; null when none is known.
 * @param {import('../base/result-types.js').ProcessRuntime[]|undefined} runtimes
 */
export function formatRuntimeList(runtimes) {
  const seen = new Map();
  // Runtimes read from an executable have a path; those a probe reported have their versions.
  for (const r of runtimes ?? []) {
    const key = r.path ?? `${r.kind} ${r.version} ${r.libuv}`;
    if (!seen.has(key)) seen.set(key, r);
  }
  if (seen.size === 0) return null;
  return [...seen.values()].map((r) => `${describeRuntime(r)} spawns by ${mechanism(r)}`).join(' · ');
}

/**
 * The option a forking Node has, worded so it stays true before and after a Node
 * release bundles libuv 1.53; null unless the runtime that runs the commands (the
 * workers', listed last, or the only one) is a Node that forks: a main process that
 * forks only its workers at start is not what each request waits on.
 * @param {Array<{ kind: string, spawnMechanism: string|null }>|undefined} runtimes
 * @returns {string|null}
 */
export function fasterSpawnHint(runtimes) {
  const spawner = runtimes?.at(-1);
  if (!(spawner?.kind === 'node' && spawner.spawnMechanism === 'fork')) return null;
  return FASTER_SPAWN_SENTENCE;
}

/** One sentence, shared by the run, tune and diagnose reports. */
export const FASTER_SPAWN_SENTENCE =
  `this Node forks to spawn; a Node built with libuv ≥ ${POSIX_SPAWN_LIBUV.replace(/\.0$/, '')} spawns with posix_spawn instead ` +
  'of fork, which does not copy the process, so the time blocked per spawn stops growing with its size ' +
  '(`node -p process.versions.uv` tells which libuv a Node has)';
