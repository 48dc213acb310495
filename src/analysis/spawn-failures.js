/**
 * The commands a server could not start, counted by errno. A strategy answers a
 * request whose command failed to start with 500 and Node's words for it
 * (`spawn echo EAGAIN`, strategies/README.md), and so do most servers that pass
 * the error on; the load generator counts the first line of every non-2xx body
 * (load.errorTexts). Each errno says which limit was reached, with the limit of the
 * processes that spawned where it was read (issue #25: under `ulimit -u 50`, 85% of
 * requests were 500 and nothing named EAGAIN or the limit). The probe counts the
 * failed spawns inside the server's processes too (src/probe/spawn-timer.js), which
 * sees those a server swallows: issue #36's server answered 200 with the empty output
 * of an `execFile('echo')` that had failed with EMFILE, 3,938 req/s and "Errors none".
 * Pure: figures in, ids and figures out (src/report/spawn-failures-text.js words them).
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
 * @property {number} answered    requests whose error response said so
 * @property {number} seen        failed spawns the probe saw in the server's processes (0 without it)
 */

/**
 * @typedef {object} SpawnFailures
 * @property {number} total     failed spawns, each counted once
 * @property {SpawnFailure[]} failures by command and errno, the most first
 * @property {number} swallowed failed spawns that no error response accounts for: their requests
 *   were answered as though the command had run (0 where every one came back as an error)
 */

/**
 * The failed spawns of a run: from the error responses' bodies and from the probe, merged. A failure a
 * server passes on (500 `spawn echo EMFILE`) is in both, so per command and errno the larger count is
 * taken, never the sum.
 * @param {Array<{ status: number|null, texts?: Array<{ text: string, count: number }> }>|undefined} errorTexts load.errorTexts
 * @param {{ processes: number|null, openFiles: number|null }|null} [limits] the lowest soft limits of the server's processes
 * @param {{ seen?: Array<{ command: string, code: string, count: number }>|null, errors?: number }} [probe] `seen`: the
 *   failed spawns the probe counted (samples.spawned.failures); `errors`: the requests that failed (load.errors.total)
 * @returns {SpawnFailures | null} null when no spawn failed
 */
export function spawnFailures(errorTexts, limits = null, { seen = null, errors = 0 } = {}) {
  /** @type {Map<string, SpawnFailure>} */
  const byKey = new Map();
  /** @param {string} command @param {string} code */
  const entryOf = (command, code) => {
    const key = `${command}\u0000${code}`;
    const limit = LIMIT_OF[code] ?? null;
    const known = byKey.get(key) ?? { command, code, count: 0, limit, limitValue: limitValue(limit, limits), answered: 0, seen: 0 };
    byKey.set(key, known);
    return known;
  };
  for (const entry of errorTexts ?? []) {
    for (const { text, count } of entry.texts ?? []) {
      const match = SPAWN_ERROR.exec(String(text).trim());
      if (!match) continue;
      entryOf(match[1], match[2]).answered += count;
    }
  }
  for (const f of seen ?? []) {
    if (isFiniteNumber(f?.count) && f.count > 0) entryOf(String(f.command), String(f.code)).seen += f.count;
  }
  if (byKey.size === 0) return null;
  for (const f of byKey.values()) f.count = Math.max(f.answered, f.seen);
  const failures = [...byKey.values()].sort((a, b) => b.count - a.count);
  const answered = failures.reduce((sum, f) => sum + f.answered, 0);
  const unanswered = failures.reduce((sum, f) => sum + Math.max(0, f.seen - f.answered), 0);
  // Errors whose body named no failed spawn (a 500 'internal error') may be those requests: not counted as swallowed.
  const otherErrors = Math.max(0, (isFiniteNumber(errors) ? errors : 0) - answered);
  return { total: failures.reduce((sum, f) => sum + f.count, 0), failures, swallowed: Math.max(0, unanswered - otherErrors) };
}

/**
 * The share of the requests whose command failed while they were answered as though it ran, where it is at least
 * `minShare` of them (null below, or with nothing swallowed): their req/s is not the server's work.
 * @param {SpawnFailures|{ total: number, swallowed?: number }|null|undefined} failures
 * @param {number} attempts the requests sent (load.attempts, or requests + errors)
 * @param {number} minShare
 * @returns {{ swallowed: number, attempts: number, share: number } | null}
 */
export function swallowedSpawns(failures, attempts, minShare) {
  const swallowed = failures?.swallowed ?? 0;
  if (!(swallowed > 0) || !(attempts > 0)) return null;
  const share = Math.min(1, swallowed / attempts);
  return share >= minShare ? { swallowed, attempts, share } : null;
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
