/**
 * The per-interval measurements of one thread: event-loop delay and utilization,
 * GC pause time and memory. Everything here is cheap enough to run four times a
 * second inside the server being measured.
 */
import { performance, PerformanceObserver } from 'node:perf_hooks';
import { startLoopDelay } from './loop-delay.js';

/**
 * The thread's memory, or null where it cannot be read now: `process.memoryUsage()` opens
 * /proc/self/stat, and throws EMFILE in a host whose descriptors are all taken (a server
 * under `ulimit -n 64` with 30 connections spawning per request, issue #36), which is a
 * moment, not a reason to stop probing it.
 * @returns {NodeJS.MemoryUsage|null}
 */
function memoryUsage() {
  try {
    return process.memoryUsage();
  } catch {
    return null;
  }
}

/**
 * Starts measuring the current thread.
 * @param {{ intervalMs: number, withRss?: boolean, onError?: (error: Error) => void }} options
 *   `intervalMs`: how often `take` will be called; `withRss`: report the process RSS (main thread
 *   only: RSS belongs to the process, not to a thread); `onError`: a reading failed (it may run in
 *   a timer of its own, so it must never throw into the host)
 * @returns {{ take: (done: (figures: object) => void) => void, stop: () => void }} `take` calls
 *   `done` with the figures since the previous take, at once or, when the take was held up by a
 *   blocked loop, a few ms later: `{ intervalMs, elu, loopDelay, gcMs, rssBytes, heapUsedBytes }`
 */
export function startMeter({ intervalMs, withRss = true, onError = () => {} }) {
  const loopDelay = startLoopDelay({ intervalMs });
  let gcMs = 0;
  const gcObserver = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcMs += entry.duration;
  });
  gcObserver.observe({ entryTypes: ['gc'] });
  // Bun (1.4) answers eventLoopUtilization() with zeros: no figure beats a false one.
  const hasElu = !process.versions.bun;
  let previousElu = performance.eventLoopUtilization();
  let previousAt = performance.now();

  const read = (delay) => {
    const now = performance.now();
    const elu = performance.eventLoopUtilization();
    // process.memoryUsage(), not node:v8's getHeapStatistics(): importing node:v8
    // adds 0.43 MB of resident memory to the host, and every resident MB makes
    // each of its forks slower (see loop-delay.js).
    const memory = memoryUsage();
    const figures = {
      intervalMs: now - previousAt,
      elu: hasElu ? performance.eventLoopUtilization(elu, previousElu).utilization : null,
      loopDelay: delay,
      gcMs,
      rssBytes: withRss && memory ? memory.rss : null,
      heapUsedBytes: memory ? memory.heapUsed : null,
    };
    gcMs = 0;
    previousElu = elu;
    previousAt = now;
    return figures;
  };

  return {
    take(done) {
      loopDelay.take((delay) => {
        let figures;
        try {
          figures = read(delay);
        } catch (error) {
          onError(error);
          return;
        }
        done(figures);
      });
    },
    stop() {
      loopDelay.stop();
      gcObserver.disconnect();
    },
  };
}
