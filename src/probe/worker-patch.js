/**
 * Worker threads do not run NODE_OPTIONS' `--import`, so the probe follows them
 * itself: `worker_threads.Worker` is replaced by a subclass that appends
 * `--import=<probe URL>` to the new thread's `execArgv` (checked on Node 20.20:
 * a worker's own execArgv `--import` runs before its file, workerData and every
 * other option untouched; the parent's NODE_OPTIONS --import then runs too, which
 * preload.js ignores). The thread's settings travel in the URL's query, so
 * a worker started with `env: {}` is still probed.
 *
 * `eval: true` workers skip `--import` (checked on Node 20.20), and workers of a
 * parent started with flags of its own are left alone (see below); those are
 * watched from outside instead: the parent reads
 * `worker.performance.eventLoopUtilization()` each interval (ELU only).
 */
import workerThreads from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';

/**
 * Makes every Worker created from now on (in this thread) load the probe.
 * @param {string} probeUrl the thread probe's URL, query included
 * @returns {{ takeUnprobedWorkers: () => Array<{ threadId: number, intervalMs: number, elu: number }>, uninstall: () => void }}
 *   `takeUnprobedWorkers` returns the ELU since the previous call of each live worker the probe could not enter
 */
export function installWorkerPatch(probeUrl) {
  const Original = workerThreads.Worker;
  /** @type {Map<import('node:worker_threads').Worker, { elu: object, at: number }>} */
  const unprobedWorkers = new Map();

  const watchFromParent = (worker) => {
    try {
      unprobedWorkers.set(worker, { elu: worker.performance.eventLoopUtilization(), at: performance.now() });
      worker.once('exit', () => unprobedWorkers.delete(worker));
    } catch {
      // Without worker.performance the thread goes unwatched; the strategy's Worker is unaffected.
    }
  };

  class Worker extends Original {
    constructor(filename, options) {
      // Without its own execArgv a worker inherits the parent's parsed options. Spelling
      // them out would change meaning (`-e <code>`, `--input-type` and process-wide flags
      // such as --max-old-space-size are refused in a worker), so only a parent started
      // with no flags of its own (the way spawnbench starts strategies) gets the
      // probe added; otherwise the worker starts untouched.
      const probed = !options?.eval && (options?.execArgv !== undefined || process.execArgv.length === 0);
      super(filename, probed ? { ...options, execArgv: [...(options?.execArgv ?? []), `--import=${probeUrl}`] } : options);
      if (!probed) watchFromParent(this);
    }
  }
  Object.defineProperty(Worker, 'name', { value: Original.name });
  workerThreads.Worker = Worker;
  syncBuiltinESMExports();

  return {
    takeUnprobedWorkers() {
      const now = performance.now();
      const taken = [];
      for (const [worker, previous] of unprobedWorkers) {
        const elu = worker.performance.eventLoopUtilization();
        taken.push({
          threadId: worker.threadId,
          intervalMs: now - previous.at,
          elu: clamp01(worker.performance.eventLoopUtilization(elu, previous.elu).utilization),
        });
        unprobedWorkers.set(worker, { elu, at: now });
      }
      return taken;
    },
    uninstall() {
      workerThreads.Worker = Original;
      syncBuiltinESMExports();
      unprobedWorkers.clear();
    },
  };
}

/** Readings taken from another thread can come out a hair below 0. */
function clamp01(value) {
  return Math.min(1, Math.max(0, value));
}
