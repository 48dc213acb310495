/**
 * Worker threads do not run NODE_OPTIONS' `--import`, so the probe follows them
 * itself: `worker_threads.Worker` is replaced by a subclass that appends
 * `--import=<probe URL>` to the new thread's `execArgv` (checked on Node 20.20:
 * a worker's own execArgv `--import` runs before its file, workerData and every
 * other option untouched). The thread's settings travel in the URL's query, so
 * a worker started with `env: {}` is still probed.
 *
 * `eval: true` workers skip `--import` (checked on Node 20.20), so those are
 * watched from outside instead: the parent reads
 * `worker.performance.eventLoopUtilization()` each interval (ELU only).
 */
import workerThreads from 'node:worker_threads';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';

/**
 * Makes every Worker created from now on (in this thread) load the probe.
 * @param {string} probeUrl the thread probe's URL, query included
 * @returns {{ takeEvalWorkers: () => Array<{ threadId: number, intervalMs: number, elu: number }>, uninstall: () => void }}
 *   `takeEvalWorkers` returns the ELU since the previous call of each live eval worker
 */
export function installWorkerPatch(probeUrl) {
  const Original = workerThreads.Worker;
  /** @type {Map<import('node:worker_threads').Worker, { elu: object, at: number }>} */
  const evalWorkers = new Map();

  class Worker extends Original {
    constructor(filename, options = {}) {
      const isEval = Boolean(options?.eval);
      const probed = isEval
        ? options
        : { ...options, execArgv: [...(options?.execArgv ?? process.execArgv), `--import=${probeUrl}`] };
      super(filename, probed);
      if (isEval) {
        evalWorkers.set(this, { elu: this.performance.eventLoopUtilization(), at: performance.now() });
        this.once('exit', () => evalWorkers.delete(this));
      }
    }
  }
  Object.defineProperty(Worker, 'name', { value: Original.name });
  workerThreads.Worker = Worker;
  syncBuiltinESMExports();

  return {
    takeEvalWorkers() {
      const now = performance.now();
      const taken = [];
      for (const [worker, previous] of evalWorkers) {
        const elu = worker.performance.eventLoopUtilization();
        taken.push({
          threadId: worker.threadId,
          intervalMs: now - previous.at,
          elu: clamp01(worker.performance.eventLoopUtilization(elu, previous.elu).utilization),
        });
        evalWorkers.set(worker, { elu, at: now });
      }
      return taken;
    },
    uninstall() {
      workerThreads.Worker = Original;
      syncBuiltinESMExports();
      evalWorkers.clear();
    },
  };
}

/** Readings taken from another thread can come out a hair below 0. */
function clamp01(value) {
  return Math.min(1, Math.max(0, value));
}
