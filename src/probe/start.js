/**
 * Runs the probe in the current thread: measures every interval and reports on
 * the channel until the channel closes. Main threads and worker threads run the
 * same code; a thread also reports the worker threads it started but could not enter.
 */
import { isMainThread, threadId } from 'node:worker_threads';
import { readlinkSync } from 'node:fs';
import { startMeter } from './meter.js';
import { installSpawnTimer } from './spawn-timer.js';
import { installRouteTimer } from './route-timer.js';
import { installWorkerPatch } from './worker-patch.js';
import { connectReporter } from './reporter.js';
import { PROTOCOL_VERSION } from './protocol.js';

/**
 * Starts probing this thread.
 * @param {{ socketPath: string, intervalMs: number, threadProbeUrl: string, routes?: boolean }} config
 *   `threadProbeUrl`: what new worker threads `--import` (the probe entry with its settings in the query);
 *   `routes`: attribute the loop's time and the spawns to the HTTP routes served (route-timer.js)
 * @returns {() => void} stops the probe and restores everything it patched
 */
export function startProbe({ socketPath, intervalMs, threadProbeUrl, routes = true }) {
  // Which runtime this thread is, so spawnbench can tell how it spawns (libuv's version decides for Node).
  const runtime = process.versions.bun
    ? { kind: 'bun', version: process.versions.bun, libuv: null }
    : { kind: 'node', version: process.versions.node, libuv: process.versions.uv ?? null };
  const identity = {
    v: PROTOCOL_VERSION,
    pid: process.pid,
    tid: osThreadId(),
    threadId,
    isMainThread,
  };
  const meter = startMeter({ intervalMs, withRss: isMainThread, onError: () => stop() });
  // Bun publishes no http.server.request.start: no routes there rather than a hook that finds none.
  const routeTimer = routes && !process.versions.bun ? installRouteTimer() : null;
  const spawnTimer = installSpawnTimer({ onSpawn: routeTimer?.onSpawn });
  // Bun's workers take no --import; its threads go unprobed rather than risk the strategy's Worker.
  const workerPatch = process.versions.bun ? null : installWorkerPatch(threadProbeUrl);
  let stopped = false;

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearInterval(timer);
    try {
      meter.stop();
      spawnTimer.uninstall();
      routeTimer?.uninstall();
      workerPatch?.uninstall();
      reporter.close();
    } catch {
      // Stopping runs from socket events: nothing may escape into the host.
    }
  };
  const reporter = connectReporter(socketPath, stop);

  const report = (figures) => {
    try {
      const t = Date.now();
      const timed = routeTimer ? routeTimer.take() : null;
      // One literal of a fixed shape, not spreads: this runs cold four times a second,
      // where spreading two objects took ~47 µs (measured) and a literal a fraction of it.
      reporter.send({
        v: identity.v, pid: identity.pid, tid: identity.tid, threadId: identity.threadId,
        isMainThread: identity.isMainThread, source: 'probe', t,
        intervalMs: figures.intervalMs, elu: figures.elu, loopDelay: figures.loopDelay, gcMs: figures.gcMs,
        rssBytes: figures.rssBytes, heapUsedBytes: figures.heapUsedBytes, spawn: spawnTimer.take(), runtime,
        routes: timed ? timed.routes : null, routeSampling: timed ? { seen: timed.seen, sampled: timed.sampled } : null,
      });
      for (const worker of workerPatch?.takeWorkers() ?? []) {
        reporter.send({
          ...identity, tid: worker.tid, threadId: worker.threadId, isMainThread: false, source: 'parent', probed: worker.probed, t,
          intervalMs: worker.intervalMs, elu: worker.elu, loopDelay: null, spawn: null, gcMs: null,
          rssBytes: null, heapUsedBytes: null,
        });
      }
    } catch {
      stop();
    }
  };
  const tick = () => {
    try {
      meter.take(report);
    } catch {
      stop();
    }
  };
  const timer = setInterval(tick, intervalMs);
  timer.unref();
  return stop;
}

/**
 * The kernel's id for this thread (Linux: `/proc/thread-self` → `<pid>/task/<tid>`),
 * so spawnbench can read a worker thread's own CPU time. Null where there is no /proc.
 */
function osThreadId() {
  try {
    return Number(readlinkSync('/proc/thread-self').split('/').pop());
  } catch {
    return null;
  }
}
