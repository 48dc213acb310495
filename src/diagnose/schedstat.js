/**
 * How a server's main thread spent the measured time, seen from outside through
 * Linux /proc/<pid>/schedstat (the thread-group leader, i.e. the thread that runs
 * the event loop): on a CPU, waiting in the run queue for one, or neither
 * (sleeping: waiting on I/O, timers, a downstream). CPU % alone misreads a busy
 * server on a crowded machine as idle; on-CPU plus run-queue time does not.
 */
import { readChildren, readSchedstat } from '../sample/proc.js';

const NS_PER_MS = 1e6;

/**
 * Starts measuring a process's main thread; `take()` returns the shares since
 * start (or the last restart()).
 * @param {number} pid
 * @returns {{ restart: () => void, take: () => ({ pid: number, onCpu: number, waitingForCpu: number, runnable: number } | null) }}
 */
export function startSchedMeter(pid) {
  let start = null;
  const restart = () => {
    const stat = readSchedstat(pid);
    start = stat ? { ...stat, at: performance.now() } : null;
  };
  restart();
  return {
    restart,
    take() {
      const end = readSchedstat(pid);
      if (!start || !end) return null;
      const wallNs = (performance.now() - start.at) * NS_PER_MS;
      if (wallNs <= 0) return null;
      const onCpu = Math.min(1, (end.cpuNs - start.cpuNs) / wallNs);
      const waitingForCpu = Math.min(1, (end.waitNs - start.waitNs) / wallNs);
      return { pid, onCpu, waitingForCpu, runnable: Math.min(1, onCpu + waitingForCpu) };
    },
  };
}

/**
 * Meters for several processes (the root and every probed Node process, which
 * may be children of a shell or npm); `take()` returns the busiest main thread,
 * which is the server's, not the idle wrapper's; the launchers given to it are left out (on a
 * machine short of CPU a launcher's wait for a core can outweigh the server's work).
 * @returns {{ watch: (pid: number) => void, restart: () => void,
 *   take: (skip?: Set<number>) => ({ pid: number, onCpu: number, waitingForCpu: number, runnable: number } | null) }}
 */
export function createSchedMeters() {
  const meters = new Map();
  return {
    watch(pid) {
      if (!meters.has(pid)) meters.set(pid, startSchedMeter(pid));
    },
    restart() {
      for (const meter of meters.values()) meter.restart();
    },
    take(skip = new Set()) {
      let busiest = null;
      for (const [pid, meter] of meters) {
        if (skip.has(pid)) continue;
        const taken = meter.take();
        if (taken && (!busiest || taken.runnable > busiest.runnable)) busiest = taken;
      }
      return busiest;
    },
  };
}

/** Deepest level of descendants looked at: no real server nests this far, and a pid reused mid-walk cannot loop. */
const MAX_DEPTH = 8;

/**
 * A process and all its descendants (a --pid that names `npm` or a shell still
 * reaches the node process under it).
 * @param {number} pid
 * @returns {number[]}
 */
export function processTree(pid) {
  const found = [];
  const visit = (p, depth) => {
    if (depth > MAX_DEPTH || found.includes(p)) return;
    found.push(p);
    for (const child of readChildren(p)) visit(child, depth + 1);
  };
  visit(pid, 0);
  return found;
}
