/**
 * Per-worker accounting on stdout: the `{"spawnbench":"workers",...}` line of the
 * contract (strategies/README.md), printed while the strategy serves.
 */
import { report } from './config.js';

/** Often enough for a live dashboard (4 per second), rare enough to cost nothing. */
export const WORKERS_LINE_INTERVAL_MS = 250;

/**
 * @typedef {object} WorkerStats
 * @property {number} id stable per slot (a replacement keeps its slot's id)
 * @property {number} pid
 * @property {number|null} threadId
 * @property {number} inFlight requests handed to it and not answered yet
 * @property {number} completed requests answered
 * @property {number} failed requests that got a 5xx because the worker could not run them
 * @property {number} [restarts] how many times the slot's worker was replaced
 */

/**
 * Prints the workers line every WORKERS_LINE_INTERVAL_MS until stopped.
 * @param {() => WorkerStats[]} getWorkers
 * @returns {() => void} stop (prints one last line first)
 */
export function reportWorkers(getWorkers) {
  const print = () => report('workers', { workers: getWorkers() });
  print();
  const timer = setInterval(print, WORKERS_LINE_INTERVAL_MS);
  timer.unref?.();
  return () => {
    clearInterval(timer);
    print();
  };
}

/**
 * Says that a worker died while serving (not while the strategy stops): the
 * `{"spawnbench":"worker-exit",...}` line of the contract, printed at once, so
 * spawnbench can say which worker died, how and when, and count the slot's
 * incarnations as one worker.
 * @param {{ id: number, pid: number|null, threadId?: number|null, code: number|null, signal: string|null,
 *   replacedBy?: number|null, replacedByThreadId?: number|null }} exit `replacedBy`: the process (or thread) started in its place
 */
export function reportWorkerExit({ id, pid, threadId = null, code, signal, replacedBy = null, replacedByThreadId = null }) {
  report('worker-exit', { id, pid, threadId, code: code ?? null, signal: signal ?? null, at: Date.now(), replacedBy, replacedByThreadId });
}
