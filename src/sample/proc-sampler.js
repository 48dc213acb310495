/**
 * One /proc reading of a strategy's process tree per call: CPU % and RSS of its
 * long-lived processes and threads, and the short-lived spawned commands as one
 * aggregate (how many are running, their CPU). Spawned commands live ~1 ms, so sampling sees few of them; their
 * CPU is taken instead from the growth of `cutime + cstime` (the CPU time of
 * reaped children) of the long-lived processes.
 */
import { readdirSync } from 'node:fs';
import { readStat, readChildren, readCpuTimes, procUnits, readSchedstat, readProcText, descriptorFailureCount } from './proc.js';
import { threadKinds, threadpoolSize, mapsLibvips, THREAD_KINDS } from './thread-kinds.js';
import { OTHER_THREAD_BUSY_PCT, OTHER_THREADS_EVERY_MS, OTHER_THREADS_FIRST_MS } from '../base/thresholds.js';

/**
 * A descendant too deep means a loop in what /proc said (pids reused mid-walk);
 * no real strategy nests this far.
 */
const MAX_TREE_DEPTH = 16;

/**
 * @param {{ rootPid: number }} options
 * @returns {{ read: (query: ProcQuery) => ProcReading, restartOtherThreads: () => void }}
 *
 * @typedef {{ isTracked: (pid: number, parent: number) => boolean, forkingThreads: (pid: number) => number[] | undefined,
 *   threads: Array<{ key: string, pid: number, tid: number }>, pids?: number[] }} ProcQuery
 *   `pids`: the Node processes (probed, or pool workers) whose other threads (libuv's pool, V8's) are read
 *   `isTracked`: the pid (a child of `parent`) is a worker or the root, not a spawned command; `forkingThreads`: the
 *   threads of a process that may fork (undefined: all of them)
 * @typedef {{ elapsedMs: number, processes: Map<number, { cpuPct: number|null, rssBytes: number, loopCpuPct: number|null, waitPct: number|null }>,
 *   threads: Map<string, number|null>, threadSched: Map<string, { loopCpuPct: number|null, waitPct: number|null }>,
 *   otherThreads: Map<number, OtherThreads>, spawned: { count: number, newlySeen: number, cpuPct: number|null, rssBytes: number },
 *   system: { cpus: Array<number|null> }, unreadable?: string|null }} ProcReading
 *   `unreadable`: the code (EMFILE, ENFILE) of the reads that failed for want of a file descriptor, whose figures are left out
 * @typedef {{ count: number, busy: number|null, cpuPct: number|null, maxCpuPct: number|null,
 *   kinds: Record<string, { count: number, busy: number|null, cpuPct: number|null, waitPct: number|null }>, poolSize: number }} OtherThreads
 *   `kinds`: the same per kind of thread (src/sample/thread-kinds.js), with the time its threads were
 *   runnable but waiting for a CPU (% of wall time, summed); `poolSize`: UV_THREADPOOL_SIZE as the process has it
 */
export function createProcSampler({ rootPid }) {
  const { ticksPerSec, pageBytes } = procUnits();
  let previousAt = performance.now();
  /** pid → { ticks, childTicks, allTicks } at the previous reading */
  let previous = new Map();
  /** pid → its main thread's schedstat ({ cpuNs, waitNs }) at the previous reading */
  let previousSched = new Map();
  const previousThreads = new Map();
  /** thread key → its schedstat at the previous reading */
  const previousThreadSched = new Map();
  /** pid → (tid → { cpuNs, waitNs }) of its other threads at the previous reading */
  const previousOther = new Map();
  /** pid → (tid → kind), and the pid's pool size: a thread's kind does not change */
  const kindsOf = new Map();
  let otherAt = -Infinity;
  // The wait before the next reading of the other threads: shorter once, right after a restart.
  let otherEvery = OTHER_THREADS_EVERY_MS;
  let otherThreads = new Map();
  /** The processes and known threads of the last read, for the baseline a restart takes. */
  let lastOther = { pids: /** @type {number[]} */ ([]), threads: /** @type {Array<{ pid: number, tid?: number|null }>} */ ([]), tracked: new Set() };
  let previousCores = readCpuTimes();
  let previousTransient = new Set();
  // CPU of tracked processes that were reaped: it reappears in their parent's
  // cutime and must not be counted as spawned commands.
  let reapedTicks = 0;

  const pct = (ticks, elapsedMs) => (elapsedMs > 0 ? (ticks / ticksPerSec / (elapsedMs / 1000)) * 100 : null);

  /** Reads every tracked process's other threads against the previous reading; `now` ends its window. */
  const readAllOtherThreads = (now) => {
    const otherMs = now - otherAt;
    otherAt = now;
    const { pids, threads, tracked } = lastOther;
    const read = new Map();
    for (const pid of pids) {
      if (!tracked.has(pid)) continue;
      const known = new Set([pid, ...threads.filter((t) => t.pid === pid && t.tid).map((t) => t.tid)]);
      read.set(pid, readOtherThreads(pid, known, previousOther, otherMs, kindsOf));
    }
    for (const pid of previousOther.keys()) if (!tracked.has(pid)) previousOther.delete(pid);
    for (const pid of kindsOf.keys()) if (!tracked.has(pid)) kindsOf.delete(pid);
    return read;
  };

  return {
    /**
     * The measured phase starts: the other threads' readings start again from now, so that none reaches back
     * into the boot or the warm-up; until the first, OTHER_THREADS_FIRST_MS later, samples carry none.
     */
    restartOtherThreads() {
      readAllOtherThreads(performance.now());
      otherThreads = new Map();
      otherEvery = OTHER_THREADS_FIRST_MS;
    },
    read({ isTracked, forkingThreads, threads, pids }) {
      const now = performance.now();
      const elapsedMs = now - previousAt;
      previousAt = now;
      const failuresBefore = descriptorFailureCount().count;

      const { tracked, transient } = walk(rootPid, isTracked, forkingThreads);
      const processes = new Map();
      const current = new Map();
      const currentSched = new Map();
      let childTicks = 0;
      for (const [pid, stat] of tracked) {
        const ticks = stat.utime + stat.stime;
        const children = stat.cutime + stat.cstime;
        const before = previous.get(pid);
        current.set(pid, { ticks, children, all: ticks + children });
        // The main thread's time on a CPU and waiting in the run queue for one: a
        // loop that waits for a core looks busy to ELU, and the recommendation
        // takes that wait back out (src/analysis/busy-time.js).
        const sched = readSchedstat(pid);
        if (sched) currentSched.set(pid, sched);
        processes.set(pid, {
          cpuPct: before && !before.stale ? pct(ticks - before.ticks, elapsedMs) : null,
          rssBytes: stat.rss * pageBytes,
          ...schedShares(sched, previousSched.get(pid), elapsedMs),
        });
        if (before && !before.stale) childTicks += Math.max(0, children - before.children);
      }
      previousSched = currentSched;
      // A read that failed for want of a file descriptor is no exit: the process keeps its last figures.
      const unreadable = descriptorFailureCount().count !== failuresBefore;
      // Kept stale: its next figures would span two intervals, so they are left out too.
      if (unreadable) for (const [pid, before] of previous) if (!current.has(pid)) current.set(pid, { ...before, stale: true });
      for (const [pid, before] of previous) if (!current.has(pid)) reapedTicks += before.all;
      const settled = Math.min(reapedTicks, childTicks);
      reapedTicks -= settled;
      childTicks -= settled;
      previous = current;

      let newlySeen = 0;
      for (const key of transient) if (!previousTransient.has(key)) newlySeen += 1;
      previousTransient = transient;

      const threadCpu = new Map();
      const threadSched = new Map();
      for (const { key, pid, tid } of threads) {
        const stat = tid ? readStat(pid, tid) : null;
        const ticks = stat ? stat.utime + stat.stime : null;
        const before = previousThreads.get(key);
        threadCpu.set(key, ticks !== null && before !== undefined ? pct(ticks - before, elapsedMs) : null);
        // A thread not read this time has no figure next time either (its delta would span two intervals).
        if (ticks !== null) previousThreads.set(key, ticks);
        else previousThreads.delete(key);
        const sched = tid ? readSchedstat(pid, tid) : null;
        threadSched.set(key, schedShares(sched, previousThreadSched.get(key), elapsedMs));
        if (sched) previousThreadSched.set(key, sched);
        else previousThreadSched.delete(key);
      }

      // At most once per OTHER_THREADS_EVERY_MS, the figures in between repeated: see readOtherThreads.
      lastOther = { pids: pids ?? [], threads, tracked: new Set(tracked.keys()) };
      if (now - otherAt >= otherEvery) {
        otherEvery = OTHER_THREADS_EVERY_MS;
        otherThreads = readAllOtherThreads(now);
      }

      const cores = readCpuTimes();
      // No reading (it failed), or none before it to compare with: no figure, not 0%.
      const cpus = (cores.length ? cores : previousCores).map((core, i) => {
        const before = previousCores[i];
        const total = cores.length && before ? core.total - before.total : 0;
        return total > 0 ? ((core.busy - before.busy) / total) * 100 : null;
      });
      if (cores.length) previousCores = cores;
      const failed = descriptorFailureCount();
      const failedCode = failed.count !== failuresBefore ? failed.code : null;

      return {
        elapsedMs,
        processes,
        threads: threadCpu,
        threadSched,
        otherThreads,
        spawned: { count: transient.size, newlySeen, cpuPct: failedCode ? null : pct(childTicks, elapsedMs), rssBytes: null },
        system: { cpus: failedCode ? cpus.map(() => null) : cpus },
        unreadable: failedCode,
      };
    },
  };
}

/**
 * The threads of a Node process that are neither its main thread nor a Worker:
 * libuv's pool (`UV_THREADPOOL_SIZE`: fs, dns, crypto.pbkdf2, zlib), V8's platform
 * threads (GC, compiler), Node's signal thread, an addon's (libvips). Each is named
 * for its kind (src/sample/thread-kinds.js: its name, else when it started), and
 * counted: how many used at least OTHER_THREAD_BUSY_PCT of a core, their CPU together
 * and the busiest's, in all and per kind. schedstat, not stat: nanoseconds, where a
 * 250 ms interval holds 25 ticks. A reading of a 7-thread process cost ~250 µs of CPU
 * on a crowded 2-core VM (load 19), so it is taken once a second, not every interval;
 * a thread's name and start time are read once, when it is first seen.
 * @param {number} pid
 * @param {Set<number>} known the main thread and the Worker threads, read on their own
 * @param {Map<number, Map<number, { cpuNs: number, waitNs: number }>>} previous pid → (tid → schedstat); updated
 * @param {number} elapsedMs
 * @param {Map<number, { kinds: Map<number, string>, poolSize: number }>} kindsOf pid → its threads' kinds; updated
 * @returns {OtherThreads} figures null at the first reading
 */
function readOtherThreads(pid, known, previous, elapsedMs, kindsOf) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`).map(Number).filter((tid) => !known.has(tid));
  } catch {
    return { count: 0, busy: null, cpuPct: null, maxCpuPct: null, kinds: {}, poolSize: null };
  }
  const kinds = kindsFor(pid, tids, kindsOf);
  const before = previous.get(pid);
  const now = new Map();
  let total = 0;
  let max = 0;
  let busy = 0;
  const perKind = {};
  for (const tid of tids) {
    const sched = readSchedstat(pid, tid);
    if (!sched) continue;
    now.set(tid, sched);
    const kind = kinds.kinds.get(tid) ?? 'native';
    const k = (perKind[kind] ??= { count: 0, busy: before ? 0 : null, cpuPct: before ? 0 : null, waitPct: before ? 0 : null });
    k.count += 1;
    const was = before?.get(tid);
    if (was === undefined || !(elapsedMs > 0)) continue;
    const pct = ((sched.cpuNs - was.cpuNs) / (elapsedMs * 1e6)) * 100;
    total += pct;
    max = Math.max(max, pct);
    k.cpuPct += pct;
    k.waitPct += ((sched.waitNs - was.waitNs) / (elapsedMs * 1e6)) * 100;
    if (pct >= OTHER_THREAD_BUSY_PCT) {
      busy += 1;
      k.busy += 1;
    }
  }
  previous.set(pid, now);
  const ordered = Object.fromEntries(THREAD_KINDS.filter((kind) => perKind[kind]).map((kind) => [kind, perKind[kind]]));
  return before
    ? { count: now.size, busy, cpuPct: total, maxCpuPct: max, kinds: ordered, poolSize: kinds.poolSize }
    : { count: now.size, busy: null, cpuPct: null, maxCpuPct: null, kinds: ordered, poolSize: kinds.poolSize };
}

/**
 * The kinds of a process's threads, classified again only when a thread appeared
 * (libuv's pool starts on first use); the pool size from its environment, read once;
 * libvips (sharp) from its mapped libraries, where more threads than Node's own appeared.
 */
function kindsFor(pid, tids, kindsOf) {
  let entry = kindsOf.get(pid);
  if (!entry) {
    const environ = readProcText(`/proc/${pid}/environ`) ?? '';
    const line = environ.split('\0').find((e) => e.startsWith('UV_THREADPOOL_SIZE='));
    entry = { kinds: new Map(), poolSize: threadpoolSize(line?.slice('UV_THREADPOOL_SIZE='.length)) };
    kindsOf.set(pid, entry);
  }
  if (tids.every((tid) => entry.kinds.has(tid))) return entry;
  const processComm = (readProcText(`/proc/${pid}/comm`) ?? '').trim();
  const threads = tids.map((tid) => {
    const stat = readStat(pid, tid);
    return { tid, comm: stat?.name ?? '', startTime: stat?.starttime ?? Infinity };
  });
  // Read only when a thread appeared that is not the pool's or V8's: a few hundred kB for a Node process.
  const unexplained = threads.length > 6 + entry.poolSize;
  const libvips = unexplained && mapsLibvips(readProcText(`/proc/${pid}/maps`));
  entry.kinds = threadKinds(threads, { processComm, poolSize: entry.poolSize, libvips });
  return entry;
}

/**
 * A thread's time on a CPU and runnable but waiting for one between two schedstat
 * readings, % of wall time (nulls until there are two readings).
 * @returns {{ loopCpuPct: number|null, waitPct: number|null }}
 */
function schedShares(now, before, elapsedMs) {
  const wallNs = elapsedMs * 1e6;
  if (!now || !before || !(wallNs > 0)) return { loopCpuPct: null, waitPct: null };
  return { loopCpuPct: ((now.cpuNs - before.cpuNs) / wallNs) * 100, waitPct: ((now.waitNs - before.waitNs) / wallNs) * 100 };
}

/**
 * The root and its long-lived descendants with their stat, and the pids of the
 * spawned commands. A spawned command's stat is not read: under load each read
 * costs ~33 µs (~11 commands alive per reading of baseline at 30 connections),
 * and one caught between fork and exec shows its parent's whole RSS, so its RSS
 * would mislead. Nor are its children looked for: they are gone as fast, and their
 * CPU reaches a tracked process's cutime anyway.
 * @returns {{ tracked: Map<number, object>, transient: Set<number> }}
 */
function walk(rootPid, isTracked, forkingThreads) {
  const tracked = new Map();
  const transient = new Set();
  const visit = (pid, depth, parent) => {
    if (depth > MAX_TREE_DEPTH || tracked.has(pid)) return;
    if (pid !== rootPid && !isTracked(pid, parent)) {
      transient.add(pid);
      return;
    }
    const stat = readStat(pid);
    if (!stat) return;
    tracked.set(pid, stat);
    for (const child of readChildren(pid, forkingThreads(pid))) visit(child, depth + 1, pid);
  };
  visit(rootPid, 0, 0);
  return { tracked, transient };
}
