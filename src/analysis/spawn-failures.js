/**
 * The commands a server could not start, counted by errno. A strategy answers a
 * request whose command failed to start with 500 and Node's words for it
 * (`spawn echo EAGAIN`, strategies/README.md), and so do most servers that pass
 * the error on; the load generator counts the first line of every non-2xx body
 * (load.errorTexts). Each errno says which limit was reached, with the limit of the
 * processes that spawned where it was read (issue #25: under `ulimit -u 50`, 85% of
 * requests were 500 and nothing named EAGAIN or the limit). Pure: figures in, ids
 * and figures out (src/report/spawn-failures-text.js words them).
 */

import { isFiniteNumber } from './stats.js';

/** `spawn <command> <ERRNO>`: how Node words a command that could not start. */
const SPAWN_ERROR = /^spawn (\S+) (E[A-Z0-9]+)$/;

/**
 * Which limit each errno of a failed start points at (null: not a limit).
 * @type {Record<string, SpawnFailure['limit']>}
 */
const LIMIT_OF = { EAGAIN: 'processes', EMFILE: 'openFiles', ENFILE: 'systemFiles', ENOMEM: 'memory' };

/**
 * @typedef {object} SpawnFailure
 * @property {string} command     what could not be started ('echo')
 * @property {string} code        its errno ('EAGAIN')
 * @property {number} count       requests that failed so
 * @property {'processes'|'openFiles'|'systemFiles'|'memory'|null} limit which limit it points at
 * @property {number|null} limitValue the lowest soft limit of that kind among the spawning processes (ulimit -u / -n), when read
 */

/**
 * @param {Array<{ status: number|null, texts?: Array<{ text: string, count: number }> }>|undefined} errorTexts load.errorTexts
 * @param {{ processes: number|null, openFiles: number|null }|null} [limits] the lowest soft limits of the server's processes
 * @returns {{ total: number, failures: SpawnFailure[] } | null} null when no request failed to spawn its command
 */
export function spawnFailures(errorTexts, limits = null) {
  /** @type {Map<string, SpawnFailure>} */
  const byKey = new Map();
  for (const entry of errorTexts ?? []) {
    for (const { text, count } of entry.texts ?? []) {
      const match = SPAWN_ERROR.exec(String(text).trim());
      if (!match) continue;
      const [, command, code] = match;
      const key = `${command}\u0000${code}`;
      const limit = LIMIT_OF[code] ?? null;
      const known = byKey.get(key) ?? { command, code, count: 0, limit, limitValue: limitValue(limit, limits) };
      known.count += count;
      byKey.set(key, known);
    }
  }
  if (byKey.size === 0) return null;
  const failures = [...byKey.values()].sort((a, b) => b.count - a.count);
  return { total: failures.reduce((sum, f) => sum + f.count, 0), failures };
}

/**
 * @param {SpawnFailure['limit']} limit
 * @param {Record<string, number|null>|null} limits
 * @returns {number|null}
 */
function limitValue(limit, limits) {
  const value = limit && limits ? limits[limit] : null;
  return isFiniteNumber(value) ? value : null;
}

/**
 * The lowest soft limits among some processes (the server's, read before it stopped).
 * @param {Array<{ processes: number|null, openFiles: number|null }|null>} readings
 * @returns {{ processes: number|null, openFiles: number|null } | null}
 */
export function lowestLimits(readings) {
  const known = readings.filter(/** @returns {r is { processes: number|null, openFiles: number|null }} */ (r) => Boolean(r));
  if (known.length === 0) return null;
  /** @param {'processes'|'openFiles'} key */
  const lowest = (key) => {
    const values = known.map((r) => r[key]).filter(/** @returns {v is number} */ (v) => v !== null && !Number.isNaN(v));
    return values.length ? Math.min(...values) : null;
  };
  return { processes: lowest('processes'), openFiles: lowest('openFiles') };
}
