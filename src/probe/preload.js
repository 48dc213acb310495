/**
 * The file spawnbench injects into a strategy's Node processes with
 * `NODE_OPTIONS=--import=<this file's URL>` (worker threads get it through their
 * own execArgv, see worker-patch.js). With no channel configured it does nothing.
 * It never prints, never throws into the host and never keeps it alive.
 *
 * Settings come from this module's URL query (`?socket=…&interval=…`, used for
 * worker threads, whose env the strategy may replace) or else from the
 * environment (SPAWNBENCH_PROBE_SOCKET, SPAWNBENCH_PROBE_INTERVAL, SPAWNBENCH_PROBE_ROUTES).
 */
import diagnosticsChannel from 'node:diagnostics_channel';
import { SOCKET_ENV, INTERVAL_ENV, ROOT_ENV, COMMANDS_ENV, ROUTES_ENV, parseInterval } from './protocol.js';

/**
 * A worker started with its own execArgv runs NODE_OPTIONS' --import as well as
 * the one the probe added (seen on Node 20.20), so the probe can be loaded twice
 * in one thread under two URLs: the first one wins.
 */
const LOADED = Symbol.for('spawnbench.probe.loaded');

/** Published by `net.Server.listen()` before it binds (Node 20.20, 22, 24, 26; node PR 53136). */
const LISTEN_CHANNEL = 'tracing:net.server.listen:asyncStart';

/**
 * Whether this process (or thread) is one to probe: the server, its pool workers
 * and threads, and whatever launches it, but not a command it runs per request.
 *
 * Probed: worker threads (settings in the URL), the root (the process spawnbench
 * started, or the first Node process under it), IPC children (fork()ed pool and
 * cluster workers, a server nodemon forks), and any other Node process unless a
 * probed ancestor had already said its Node children are per-request commands.
 * That is said (COMMANDS_ENV in its environment, which its later children
 * inherit) by a pool worker or thread as soon as it starts, and by any other
 * probed process once it listens on a TCP port: a launcher (npm, npx, yarn, pnpm,
 * nodemon, a shell) never listens, so the server it starts through `sh -c` (no
 * IPC channel) is probed, while the `node script.js` a listening server or a pool
 * worker runs per request is left alone so the workload is not slowed.
 */
function wanted(url) {
  if (url.searchParams.has('socket')) return commandsFromHere();
  if (!process.env[ROOT_ENV]) {
    process.env[ROOT_ENV] = String(process.pid);
    return commandsOnceListening();
  }
  if (process.channel) return commandsFromHere();
  if (process.env[COMMANDS_ENV]) return false;
  return commandsOnceListening();
}

/** From now on, this process's Node children without an IPC channel are per-request commands. */
function commandsFromHere() {
  process.env[COMMANDS_ENV] = String(process.pid);
  return true;
}

/**
 * The same from this process's first TCP listen on (a Unix socket is a launcher's
 * or a pool's own channel, not the server). Bun publishes no listen event: a Bun
 * process is only probed as a strategy's main (Bun ignores NODE_OPTIONS, so it is
 * never a launcher here), and is taken for the server at once, as before.
 */
function commandsOnceListening() {
  if (process.versions.bun) return commandsFromHere();
  const onListen = (message) => {
    if (message?.options?.path != null) return;
    diagnosticsChannel.unsubscribe(LISTEN_CHANNEL, onListen);
    commandsFromHere();
  };
  diagnosticsChannel.subscribe(LISTEN_CHANNEL, onListen);
  return true;
}

try {
  const url = new URL(import.meta.url);
  const socketPath = url.searchParams.get('socket') ?? process.env[SOCKET_ENV];
  if (socketPath && !globalThis[LOADED] && wanted(url)) {
    Object.defineProperty(globalThis, LOADED, { value: true });
    const intervalMs = parseInterval(url.searchParams.get('interval') ?? process.env[INTERVAL_ENV]);
    const routes = (url.searchParams.get('routes') ?? process.env[ROUTES_ENV]) !== '0';
    const threadProbeUrl = new URL(url.pathname, url);
    threadProbeUrl.search = new URLSearchParams({ socket: socketPath, interval: String(intervalMs), routes: routes ? '1' : '0' }).toString();
    const { startProbe } = await import('./start.js');
    startProbe({ socketPath, intervalMs, threadProbeUrl: threadProbeUrl.href, routes });
  }
} catch {
  // A probe that cannot start leaves the server exactly as it was; spawnbench
  // notices the missing reports and says "probe not available".
}
