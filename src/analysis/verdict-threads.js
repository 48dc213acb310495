/**
 * Rule: the server's work runs on threads outside its event loop (libuv's
 * threadpool for crypto.pbkdf2, bcrypt, zlib, fs; libvips's for sharp; an addon's
 * own), and those threads are the limit. The loop looks idle, so without this rule
 * the slow requests read as waiting on a downstream. Two cases, with opposite fixes:
 * - `threads-cores-full`: the threads fill the cores. More threads (a larger
 *   UV_THREADPOOL_SIZE) or more processes only share the same cores: more cores,
 *   cheaper work (a lower bcrypt cost, smaller images) or fewer connections help.
 * - `threadpool-full`: every libuv pool thread is busy, requests queue for them
 *   (more in flight than threads), and the cores have room: a larger
 *   UV_THREADPOOL_SIZE (set at start: libuv reads it once) uses it.
 */
import { num } from './verdict-common.js';
import { OFF_LOOP_SHARE, OFF_LOOP_BUSY_CORES, MACHINE_CPU_LIMIT_PCT, POOL_BUSY_FRACTION } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';
import { waitingForCpu } from './verdict-starved.js';
export { OFF_LOOP_SHARE, OFF_LOOP_BUSY_CORES } from '../base/thresholds.js';

/** Kinds whose CPU is the server's work beside the loop (Node's signal thread is not). */
const WORKING_KINDS = ['threadpool', 'v8', 'libvips', 'native'];

/**
 * The server's threads outside its event loops, summed over its processes:
 * cores used per kind, and libuv's pool (threads seen, working, runnable share).
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {{ cores: number, runnableCores: number, byKind: Record<string, number>, serverCores: number|null,
 *   pool: { threads: number, size: number|null, busy: number, cpuPct: number, runnable: number|null } } | null}
 *   null when no thread of the server was read; `runnableCores`: on a CPU or waiting for one (a thread off-CPU
 *   is neither: it sleeps, on I/O or for work), the same as `cores` where the wait was not read
 */
export function offLoopThreads(evidence) {
  const server = evidence.processes.filter((p) => p.role !== 'thread');
  // kept: the processes whose other threads' CPU was read
  const read = /** @type {Array<import('./verdict-common.js').ProcessEvidence & { otherThreads: { cpuPct: number } & NonNullable<import('./verdict-common.js').ProcessEvidence['otherThreads']> }>} */ (
    server.filter((p) => num(p.otherThreads?.cpuPct) !== null));
  if (read.length === 0) return null;
  /** @type {Record<string, number>} */
  const byKind = {};
  /** @type {{ threads: number, size: number|null, busy: number, cpuPct: number, waitPct: number }} */
  const pool = { threads: 0, size: null, busy: 0, cpuPct: 0, waitPct: 0 };
  let cores = 0;
  let waiting = 0;
  for (const p of read) {
    const kinds = p.otherThreads.kinds ?? null;
    if (!kinds) {
      // A result from before the kinds: their CPU together, kind unknown.
      cores += p.otherThreads.cpuPct / 100;
      continue;
    }
    for (const kind of WORKING_KINDS) {
      const k = kinds[kind];
      if (!k || !isFiniteNumber(k.cpuPct)) continue;
      byKind[kind] = (byKind[kind] ?? 0) + k.cpuPct / 100;
      cores += k.cpuPct / 100;
      waiting += (num(k.waitPct) ?? 0) / 100;
    }
    const t = kinds.threadpool;
    if (t) {
      pool.threads += t.count;
      pool.busy += num(t.busy) ?? 0;
      pool.cpuPct += num(t.cpuPct) ?? 0;
      pool.waitPct += num(t.waitPct) ?? 0;
      pool.size = (pool.size ?? 0) + (p.otherThreads.poolSize ?? t.count);
    }
  }
  const serverPct = server.reduce((sum, p) => sum + (num(p.cpuPct) ?? 0), 0);
  return {
    cores,
    runnableCores: cores + waiting,
    byKind,
    serverCores: serverPct > 0 ? serverPct / 100 : null,
    pool: {
      threads: pool.threads,
      size: pool.size,
      busy: pool.busy,
      cpuPct: pool.cpuPct,
      // On a CPU or waiting for one, per thread: a pool thread with work to do is runnable all the time.
      runnable: pool.threads > 0 ? (pool.cpuPct + pool.waitPct) / 100 / pool.threads : null,
    },
  };
}

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function threadsLimited(evidence) {
  const t = offLoopThreads(evidence);
  if (!t || t.serverCores === null || !(t.serverCores > 0)) return null;
  const serverCores = t.serverCores;
  // The threads are read once a second, the process every interval: the two can differ by a few percent.
  const share = Math.min(1, t.cores / serverCores);
  const cores = evidence.machine?.cores ?? evidence.cores ?? null;
  const busyPct = num(evidence.machine?.busyPct);
  const coresFull = busyPct !== null && busyPct >= MACHINE_CPU_LIMIT_PCT;
  const figures = {
    threadsCores: t.cores,
    byKind: t.byKind,
    share,
    serverCores: t.serverCores,
    cores,
    coresBusyPct: busyPct,
    otherCores: cores !== null && busyPct !== null ? Math.max(0, (cores * busyPct) / 100 - serverCores) : null,
    poolThreads: t.pool.threads,
    poolSize: t.pool.size,
    poolBusy: t.pool.busy,
    poolCores: t.pool.cpuPct / 100,
    poolRunnable: t.pool.runnable,
    inFlight: evidence.load.mode === 'closed' ? evidence.load.connections : null,
    runnableCores: t.runnableCores,
    threshold: OFF_LOOP_SHARE,
    coresThreshold: MACHINE_CPU_LIMIT_PCT,
  };
  // Most of little is not work: an idle server's V8 threads can be most of its CPU. Below
  // OFF_LOOP_BUSY_CORES runnable, the threads are off-CPU (verdict-downstream.js reads the same).
  if (share < OFF_LOOP_SHARE || t.runnableCores < OFF_LOOP_BUSY_CORES) return null;
  // Off-loop work that is mostly V8's (its GC and compiler threads) is the heap's: gc-pressure, a rule
  // further down, names it with the GC's own figures (an allocating server under outside load read
  // 0.21 cores on V8's threads, 0.69 of its CPU, and was called 'threads fill the cores').
  if ((t.byKind.v8 ?? 0) > t.cores / 2) return null;
  if (coresFull) {
    // Other programs held more of the full cores than the server, and its main thread waited for one as long as
    // the machine's verdict needs: the machine is the verdict, this a finding after it. It said "the cores are
    // full and the server's work runs on threads … more cores will" with libuv's pool at 0.4 of 2 cores and other
    // programs at 1.6, above "the machine is short of CPU … the other findings are unreliable".
    const othersFirst = figures.otherCores !== null && figures.otherCores > serverCores && waitingForCpu(evidence)?.kind === 'problem';
    return { id: 'threads-cores-full', kind: othersFirst ? 'limit' : 'problem', where: null, figures };
  }
  const poolFull = t.pool.threads > 0 && t.pool.busy >= t.pool.threads && (t.pool.runnable ?? 0) >= POOL_BUSY_FRACTION;
  const queued = figures.inFlight === null || figures.inFlight > t.pool.threads;
  if (poolFull && queued) {
    const size = t.pool.size ?? t.pool.threads;
    const idle = cores !== null && busyPct !== null ? cores * (1 - busyPct / 100) : null;
    // Enough threads to use the cores the pool left idle, at least one more.
    const trySize = Math.max(size + 1, Math.ceil(size + (idle ?? 1)));
    return { id: 'threadpool-full', kind: 'problem', where: null, figures: { ...figures, idleCores: idle, trySize, busyThreshold: POOL_BUSY_FRACTION } };
  }
  return null;
}
