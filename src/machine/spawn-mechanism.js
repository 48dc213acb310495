/**
 * How a runtime creates a child process on Linux, from the versions it reports:
 * pure, wordless (ids only; src/report/ words them).
 *
 * - Node: libuv's uv_spawn, which forks below POSIX_SPAWN_LIBUV and uses
 *   posix_spawn from it on (src/base/thresholds.js);
 * - Bun: vfork (bun-spawn.cpp), whatever its version;
 * - Deno: Rust std's posix_spawn path.
 */
import { POSIX_SPAWN_LIBUV } from '../base/thresholds.js';

/**
 * @param {{ kind: string, libuv?: string|null }} runtime `kind`: 'node', 'bun' or 'deno';
 *   `libuv`: process.versions.uv of that Node
 * @returns {'fork'|'posix_spawn'|'vfork'|null} null when it cannot be told (a Node whose libuv is unknown)
 */
export function spawnMechanism({ kind, libuv = null }) {
  if (kind === 'bun') return 'vfork';
  if (kind === 'deno') return 'posix_spawn';
  if (kind !== 'node' || !parseVersion(libuv)) return null;
  return compareVersions(libuv, POSIX_SPAWN_LIBUV) >= 0 ? 'posix_spawn' : 'fork';
}

/**
 * Orders two "major.minor.patch" versions (a leading v and a -suffix are ignored).
 * @returns {number} < 0, 0 or > 0
 */
export function compareVersions(a, b) {
  const x = parseVersion(a);
  const y = parseVersion(b);
  for (let i = 0; i < 3; i += 1) if (x[i] !== y[i]) return x[i] - y[i];
  return 0;
}

function parseVersion(value) {
  const match = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(String(value ?? ''));
  return match ? [Number(match[1]), Number(match[2]), Number(match[3] ?? 0)] : null;
}
