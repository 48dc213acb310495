/**
 * The file spawnbench injects into a strategy's Node processes with
 * `NODE_OPTIONS=--import=<this file's URL>` (worker threads get it through their
 * own execArgv, see worker-patch.js). With no channel configured it does nothing.
 * It never prints, never throws into the host and never keeps it alive.
 *
 * Settings come from this module's URL query (`?socket=…&interval=…`, used for
 * worker threads, whose env the strategy may replace) or else from the
 * environment (SPAWNBENCH_PROBE_SOCKET, SPAWNBENCH_PROBE_INTERVAL).
 */
import { SOCKET_ENV, INTERVAL_ENV, ROOT_ENV, parseInterval } from './protocol.js';

/**
 * A worker started with its own execArgv runs NODE_OPTIONS' --import as well as
 * the one the probe added (seen on Node 20.20), so the probe can be loaded twice
 * in one thread under two URLs: the first one wins.
 */
const LOADED = Symbol.for('spawnbench.probe.loaded');

/**
 * True for worker threads (settings in the URL), the root process, and IPC
 * children of it. The root marks its environment for its descendants: one
 * without an IPC channel is not a fork()ed or cluster worker but a command the
 * strategy runs per request (`node script.js`), which inherits NODE_OPTIONS and
 * is left unprobed so the workload is not slowed.
 */
function wanted(url) {
  if (url.searchParams.has('socket')) return true;
  if (!process.env[ROOT_ENV]) {
    process.env[ROOT_ENV] = String(process.pid);
    return true;
  }
  return Boolean(process.channel);
}

try {
  const url = new URL(import.meta.url);
  const socketPath = url.searchParams.get('socket') ?? process.env[SOCKET_ENV];
  if (socketPath && !globalThis[LOADED] && wanted(url)) {
    Object.defineProperty(globalThis, LOADED, { value: true });
    const intervalMs = parseInterval(url.searchParams.get('interval') ?? process.env[INTERVAL_ENV]);
    const threadProbeUrl = new URL(url.pathname, url);
    threadProbeUrl.search = new URLSearchParams({ socket: socketPath, interval: String(intervalMs) }).toString();
    const { startProbe } = await import('./start.js');
    startProbe({ socketPath, intervalMs, threadProbeUrl: threadProbeUrl.href });
  }
} catch {
  // A probe that cannot start leaves the server exactly as it was; spawnbench
  // notices the missing reports and says "probe not available".
}
