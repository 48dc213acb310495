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
 * parent started with flags of its own are left alone (see below). And a probed
 * thread may never get to report: piscina's idle threads wait for work in
 * `Atomics.wait` (its default `atomics: 'sync'`) and go from task to task without
 * turning their event loop, so the probe's timer inside never fires. So the parent
 * watches every Worker it creates, probed or not: each interval it reads
 * `worker.performance.eventLoopUtilization()` and passes on the thread's kernel id,
 * which spawnbench needs to read the thread's own CPU time from
 * `/proc/<pid>/task/<tid>` (the figure that tells a thread's work from its waiting:
 * a thread inside `Atomics.wait` reads as busy to ELU).
 */
import workerThreads from 'node:worker_threads';
import { readdirSync, readFileSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';

/**
 * Makes every Worker created from now on (in this thread) load the probe.
 * @param {string} probeUrl the thread probe's URL, query included
 * @returns {{ takeWorkers: () => Array<{ threadId: number, tid: number|null, probed: boolean, intervalMs: number, elu: number }>,
 *   uninstall: () => void }}
 *   `takeWorkers` returns each live worker's ELU since the previous call, read from this thread,
 *   its kernel thread id (null where /proc does not say) and whether the probe runs inside it
 */
export function installWorkerPatch(probeUrl) {
  const Original = workerThreads.Worker;
  /** @type {Map<import('node:worker_threads').Worker, { elu: object, at: number, tid: number|null, probed: boolean }>} */
  const workers = new Map();

  const watchFromParent = (worker, tid, probed) => {
    try {
      workers.set(worker, { elu: worker.performance.eventLoopUtilization(), at: performance.now(), tid, probed });
      worker.once('exit', () => workers.delete(worker));
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
      const before = taskIds();
      super(filename, probed ? { ...options, execArgv: [...(options?.execArgv ?? []), `--import=${probeUrl}`] } : options);
      watchFromParent(this, newThread(before), probed);
    }
  }
  Object.defineProperty(Worker, 'name', { value: Original.name });
  workerThreads.Worker = Worker;
  syncBuiltinESMExports();

  return {
    takeWorkers() {
      const now = performance.now();
      const taken = [];
      for (const [worker, previous] of workers) {
        let elu;
        try {
          elu = worker.performance.eventLoopUtilization();
        } catch {
          continue; // the thread is ending: its 'exit' removes it
        }
        taken.push({
          threadId: worker.threadId,
          tid: previous.tid,
          probed: previous.probed,
          intervalMs: now - previous.at,
          elu: clamp01(worker.performance.eventLoopUtilization(elu, previous.elu).utilization),
        });
        workers.set(worker, { ...previous, elu, at: now });
      }
      return taken;
    },
    uninstall() {
      workerThreads.Worker = Original;
      syncBuiltinESMExports();
      workers.clear();
    },
  };
}

/** Readings taken from another thread can come out a hair below 0. */
function clamp01(value) {
  return Math.min(1, Math.max(0, value));
}

/**
 * This process's kernel thread ids (Linux), or null without /proc. ~20 µs for a dozen
 * threads; a Worker's start costs milliseconds.
 * @returns {Set<string>|null}
 */
function taskIds() {
  try {
    return new Set(readdirSync('/proc/self/task'));
  } catch {
    return null;
  }
}

/**
 * The kernel id of the thread the Worker constructor just started: Node creates it
 * inside the constructor (uv_thread_create), so it is the task that was not there
 * before. Should another thread start at the same moment (libuv's pool starts on
 * first use), the one the kernel calls `WorkerThread` wins (Node 22+ names its
 * threads; Node 20 calls them all `node`); still ambiguous, null.
 * @param {Set<string>|null} before
 * @returns {number|null}
 */
function newThread(before) {
  const after = before && taskIds();
  if (!after) return null;
  const fresh = [...after].filter((tid) => !before.has(tid));
  if (fresh.length === 1) return Number(fresh[0]);
  const named = fresh.filter((tid) => threadName(tid) === 'WorkerThread');
  return named.length === 1 ? Number(named[0]) : null;
}

function threadName(tid) {
  try {
    return readFileSync(`/proc/self/task/${tid}/comm`, 'utf8').trim();
  } catch {
    return null;
  }
}
