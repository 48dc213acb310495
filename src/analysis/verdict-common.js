/**
 * What the diagnose verdict rules share: the Evidence they read, how they name a
 * process, and how they pick the process that shows a signal most.
 *
 * @typedef {object} ProcessEvidence one process (or thread) of the target
 * @property {string} label          'main', 'pid 1234', 'thread 2'
 * @property {number|null} pid
 * @property {'main'|'worker'|'thread'|null} [role] the server's main process, a worker process, or a worker thread
 * @property {number|null} [busy]     busy share of wall time, 0..1: ELU, or CPU time where ELU counted waiting (src/sample/thread-busy.js)
 * @property {'elu'|'cpu'|null} [busyFrom] which of the two `busy` is
 * @property {number|null} elu              event-loop utilisation, 0..1 (probe)
 * @property {number|null} loopDelayP50Ms   event-loop delay, resolution subtracted (probe)
 * @property {number|null} loopDelayTypicalMs median of the per-interval p50s: each interval counts the
 *   same, whereas the run-wide p50 counts delay samples, and a blocked loop takes few of them
 * @property {number|null} loopDelayP99Ms
 * @property {number|null} loopDelayMaxMs
 * @property {number|null} cpuPct           % of one core (/proc), whole process
 * @property {number|null} blockedFraction  share of wall time inside spawn, 0..1 (probe)
 * @property {number|null} spawnsPerSec
 * @property {'fork'|'posix_spawn'|'vfork'|null} [spawnMechanism] how its runtime spawns (probe; null unknown)
 * @property {number|null} msPerSpawn
 * @property {number|null} gcFraction       share of wall time in GC pauses, 0..1 (probe)
 * @property {number|null} gcPeakMsPerSec   most GC pause time in any one-second window, ms (probe)
 * @property {{ count: number, cpuPct: number|null, poolSize?: number|null,
 *   kinds?: Record<string, { count: number, busy: number|null, cpuPct: number|null, waitPct: number|null }> }|null} [otherThreads]
 *   its threads outside the event loops, in all and by kind (libuv's pool, V8's, an addon's: src/sample/thread-kinds.js), /proc
 * @property {import('./route-costs.js').RouteCost[]|null} [routes] the HTTP routes it served, each with its event-loop
 *   time and spawns per request (probe; null without it)
 *
 * @typedef {object} Evidence everything the rules read, plain numbers (see src/diagnose/evidence.js)
 * @property {'command'|'url'} mode
 * @property {boolean} probe          whether probe figures exist
 * @property {string|null} probeReason why not, when they do not
 * @property {{ mode: 'closed'|'open', rps: number, requests: number, attempts: number, connections: number, rate: number|null,
 *   missed: number, errors: number, errorRate: number, unsolicited?: number, statuses: Record<string, number>,
 *   p50Ms: number|null, p99Ms: number|null, maxMs: number|null,
 *   errorKinds?: Record<string, number>, bytes?: number, measuredMs?: number|null, plannedMs?: number|null, timeoutMs?: number|null,
 *   stoppedEarly?: boolean, begun?: number, speaksTls?: boolean, spinning?: { pid: number|null, cpuPct: number, silentMs: number, fromStart?: boolean }|null,
 *   endpoints?: Array<{ name: string, requests: number, share: number|null, p50Ms: number|null, p99Ms: number|null }> }} load
 *   errorKinds: the errors by kind (LoadResult.errors); measuredMs: the measured time; plannedMs: --duration;
 *   begun: requests unanswered at the end whose response had begun (its head arrived);
 *   speaksTls: nothing succeeded and a TLS handshake did, where plain HTTP was sent;
 *   stoppedEarly: the diagnose was stopped (Ctrl-C, a signal) before its measured phase ended;
 *   errors: the requests that failed; unsolicited: the responses no request asked for (in errorKinds.parse, not in errors);
 *   endpoints: a --mix's entries, each with its own requests, share and latency (LoadResult.endpoints)
 * @property {{ elu: number|null, cpuPct: number|null, threads: number }} generator
 * @property {ProcessEvidence[]} processes
 * @property {{ cores: number|null, cpus: number[], busyPct?: number|null }} [machine] the CPU budget (cores), each core's busy %
 *   and the budget's busy % (src/analysis/cpu-view.js)
 * @property {number|null} [spawnedCpuPct] CPU of the commands the server spawned, % of one core
 * @property {import('../base/result-types.js').ErrorTexts[]} [errorTexts] the load's error texts by status and kind (LoadResult.errorTexts)
 * @property {import('../base/result-types.js').OpenFilesLimit|null} [openFilesLimit] the server's open-files limit, where it is below
 *   the connections and they were reset (error-reasons.js openFilesShort)
 * @property {{ total: number, failures: import('../base/result-types.js').SpawnFailureCount[] }|null} [spawnFailures] the commands the
 *   server could not start, by errno and the limit it points at (src/analysis/spawn-failures.js)
 * @property {{ lines: Array<{ text: string, count: number }>, other: number, total: number }|null} [stderr] the server's stderr lines
 * @property {Array<{ peer: string, name: string|null, connections: number }>|null} [downstreams] its outbound connections by peer
 * @property {{ users: Array<{ name: string, count: number, cores: number }>, cores?: number|null }|null} [otherUsers] other CPU users by name (cores: all of them together)
 * @property {number|null} [cores] the machine's cores
 * @property {number|null} [hostCpus] the host's CPUs (hardware threads), where the budget may be fewer
 * @property {{ pid: number, onCpu: number, waitingForCpu: number, runnable: number }|null} mainThread
 *   the root process's main thread from /proc/<pid>/schedstat: shares of wall time on a CPU,
 *   waiting in the run queue, and the two together
 * @property {{ code: number|null, signal: string|null, stderr: string }|null} serverExit the server exited mid-run
 * @property {import('./worker-deaths.js').WorkerDeath[]} [workerDeaths] worker processes of the server that died while measured, seen in its process tree
 * @property {{ count: number, oldestMs: number, inWarmup?: boolean, warmupAnswered?: number, answeredMaxMs?: number, spinning?: ReturnType<typeof import('./busy-silence.js').busySilence> }|null} [stall] measured requests unanswered at the end, one longer than
 *   any answered: the server stopped answering (src/load/stall.js); `inWarmup`: it stopped in the warm-up, nothing measured answered
 * @property {ReturnType<typeof import('../load/stall.js').pausedMidRun>} [pause] seconds of the measured phase the server
 *   answered nothing in, between seconds it answered (a SIGSTOP, a debugger, a VM pause)
 * @property {{ ms: number, longestMs: number, inWarmup?: boolean }|null} [generatorStopped] spawnbench itself did not run
 *   while measuring (Ctrl-Z, SIGSTOP), or in an open loop's warm-up (load.generatorStopped)
 * @property {number|null} pid         --pid given in url mode
 * @property {number|null} [port]      the port the target serves
 * @property {Array<{ from: number, to: number, t: number }>} [restarts] the server process replaced by another
 *   that listens, in the measured phase (a launcher such as nodemon restarted it; src/sample/index.js)
 * @property {{ quotaCpus: number, throttledFraction: number, throttledMs: number, roles: string[], cgroup: string|null, periodMs?: number|null }|null} [quota]
 *   the most throttled CPU quota binding the server or spawnbench over the measured phase (cpu.stat)
 *
 * @typedef {object} Finding what a rule found: an id and its figures, no words. The title, evidence
 *   and next steps are made from them in src/report/diagnose-words.js.
 * @property {string} id            stable name, e.g. 'spawn-blocked'
 * @property {'problem'|'limit'|'healthy'} kind
 * @property {string|null} where    which process ("main, pid 1234", "pid 1234")
 * @property {Record<string, number|string|boolean|null|object>} figures the numbers behind it (and, where the
 *   wording depends on it, the id of how it was measured, e.g. `busyFrom: 'schedstat'`; a list or a
 *   record where it names several, e.g. the error statuses or the processes that took the cores)
 */

import { isFiniteNumber } from './stats.js';
import { OPEN_LOOP_BEYOND_SHARE } from '../base/thresholds.js';

/**
 * "main, pid 1234" or "pid 1234".
 * @param {{ label?: string|null, pid?: number|null }|null|undefined} process
 * @returns {string|null}
 */
export function where(process) {
  if (!process) return null;
  if (process.label && process.pid && process.label !== `pid ${process.pid}`) return `${process.label}, pid ${process.pid}`;
  return process.label ?? (process.pid ? `pid ${process.pid}` : null);
}

/**
 * The process with the highest finite `score`, or null when none has one.
 * @param {ProcessEvidence[]} processes
 * @param {(p: ProcessEvidence) => number|null} score
 */
export function worst(processes, score) {
  /** @type {ProcessEvidence|null} */
  let best = null;
  let bestScore = -Infinity;
  for (const p of processes) {
    const s = score(p);
    if (isFiniteNumber(s) && s > bestScore) {
      best = p;
      bestScore = s;
    }
  }
  return best;
}

/**
 * A finite number or null (so `>=` on a missing figure is never true by accident).
 * @param {unknown} value
 * @returns {number|null}
 */
export function num(value) {
  return isFiniteNumber(value) ? value : null;
}

/**
 * How busy the server looks from outside: its main thread's runnable share
 * (/proc/<pid>/schedstat), else the busiest process's CPU; null when unmeasured.
 * @param {Evidence} evidence
 * @returns {{ busy: number, where: string|null, figures: { busyFrom: 'schedstat'|'cpu', runnable?: number,
 *   onCpu?: number|null, waitingForCpu?: number|null, cpuPct?: number } } | null} `busy` 0..1
 */
export function outsideBusy(evidence) {
  const t = evidence.mainThread;
  if (t && num(t.runnable) !== null) {
    return {
      busy: t.runnable,
      where: `pid ${t.pid}`,
      figures: { busyFrom: 'schedstat', runnable: t.runnable, onCpu: num(t.onCpu), waitingForCpu: num(t.waitingForCpu) },
    };
  }
  const p = worst(evidence.processes, (x) => num(x.cpuPct));
  if (!p) return null;
  // worst() picked it by a finite cpuPct
  const cpuPct = /** @type {number} */ (p.cpuPct);
  return { busy: cpuPct / 100, where: where(p), figures: { busyFrom: 'cpu', cpuPct } };
}

/**
 * The median latency the server gave. An open loop far beyond what was answered (under OPEN_LOOP_BEYOND_SHARE of its
 * rate) kept a request on every connection: its latency, timed from when each request was due, is mostly the
 * schedule's wait, and each request's own time on its connection is at most connections / throughput (Little's law).
 * Seen: hello-world at --rate 30000 on 1 connection, 10,435 req/s at ELU 0.49, p50 585 ms, read "requests wait on I/O
 * or a downstream … time the calls each request waits on (database, HTTP, file system)".
 * @param {Evidence['load']} load
 * @returns {number|null}
 */
export function serverP50(load) {
  const { rate, connections, rps, p50Ms } = load;
  if (!isFiniteNumber(rate) || !(connections > 0) || !(rps > 0) || !(rps < rate * OPEN_LOOP_BEYOND_SHARE)) return p50Ms;
  return Math.min(p50Ms ?? Infinity, (connections / rps) * 1000);
}
