/**
 * What the probe and spawnbench agree on: the environment variables that switch
 * the probe on, and the line format it reports in. Shared by both sides so the
 * names live in one place.
 *
 * A report is one JSON object per line on the probe's own Unix socket:
 * `{ v, pid, tid, threadId, isMainThread, source, t, intervalMs,
 *    elu, loopDelay: { count, p50Ms, p99Ms, maxMs, percentiles: [[pct, ms], ...] } | null,
 *    spawn: { count, blockedMs, timing, failures: [{ command, code, count }] | null } | null, gcMs, rssBytes, heapUsedBytes,
 *    runtime: { kind: 'node'|'bun', version, libuv },
 *    routes: [{ route, requests, loopMs, spawns, blockedMs }] | null, routeSampling: { seen, sampled } | null }`
 * where every figure covers the interval since the previous report of the same
 * thread. `source` is 'probe' (measured inside the thread) or 'parent' (a worker
 * thread seen from the thread that created it: ELU and its kernel `tid` only, with
 * `probed`: whether the probe runs inside it too, whose reports then come first;
 * every Worker is reported so, since a probed thread waiting in `Atomics.wait` never
 * reports from inside). `spawn.timing`
 * says how the thread's asynchronous spawns are timed: 'diagnostics-channel' (Node's
 * own channel), 'patch', 'posix_spawn' (only spawns made without child_process, which
 * their maker published), or null before its first spawn (see spawn-timer.js); a
 * probe that predates the field sends none; `spawn.failures`: the spawns that failed, by
 * command and errno (null when none did, or from a probe that predates it). `routes` (null in a 'parent' report, or with
 * the attribution off): each HTTP route the thread served in the interval, by method and
 * path template (`GET /items/:id`), with its requests, the event-loop time its callbacks
 * and continuations ran, its spawns and the time blocked in them, over the requests timed
 * (a sample: `routeSampling.sampled` of the `seen` requests the thread started; see route-timer.js).
 */
import { SAMPLE_INTERVAL_MS } from '../base/thresholds.js';

/** Path of the Unix socket the probe reports to; the probe does nothing when unset. */
export const SOCKET_ENV = 'SPAWNBENCH_PROBE_SOCKET';

/**
 * Set by the strategy's main process for its descendants (see preload.js); the
 * channel's env clears it, so the process spawnbench starts is always the root.
 */
export const ROOT_ENV = 'SPAWNBENCH_PROBE_ROOT';

/**
 * Set (to its pid) by a probed process once its Node children without an IPC
 * channel are commands it runs per request rather than the server: by a pool
 * worker (an IPC child) or a worker thread as soon as it starts, and by any other
 * probed process when it starts to listen (see preload.js). The channel's env
 * clears it, like the root.
 */
export const COMMANDS_ENV = 'SPAWNBENCH_PROBE_COMMANDS_FROM';

/**
 * '0' turns the probe's per-route attribution off (route-timer.js): its async hook is
 * the one part of the probe whose cost grows with the server's callbacks, so
 * bench/probe-overhead.js measures the probe with it and without it.
 */
export const ROUTES_ENV = 'SPAWNBENCH_PROBE_ROUTES';

/** Report interval in ms. */
export const INTERVAL_ENV = 'SPAWNBENCH_PROBE_INTERVAL';

/** Format version of a report line, so a stale probe is recognised rather than misread. */
export const PROTOCOL_VERSION = 1;


/** The smallest interval accepted: below 50 ms the probe's own cost stops being negligible. */
export const MIN_INTERVAL_MS = 50;

/**
 * Parses the interval setting, falling back to the default on anything unusable.
 * @param {string|number|undefined|null} value
 * @returns {number} ms
 */
export function parseInterval(value) {
  const ms = Number(value);
  if (!Number.isFinite(ms) || ms <= 0) return SAMPLE_INTERVAL_MS; // the samplers' interval (src/base/thresholds.js); four reports a second cost the host ~0.1% of a core
  return Math.max(MIN_INTERVAL_MS, ms);
}
