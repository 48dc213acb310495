/**
 * The samplers that run inside spawnbench: every interval, CPU % and RSS of each
 * process (and probed thread) of the strategy, the spawned commands as one line,
 * system CPU per core and the load generator's own figures, joined with the
 * latest probe report of each thread. Emits the Samples shape of src/README.md
 * and, on stop, a per-process summary.
 */
import { EventEmitter } from 'node:events';
import { HAS_PROC, isClusterWorker, programOf, readStat, uidOf, environHas } from './proc.js';
import { createOtherUsers } from './other-users.js';
import { createDownstreams } from './downstreams.js';
import { createProcSampler } from './proc-sampler.js';
import { createPortableSampler, PORTABLE_NOTE } from './portable-sampler.js';
import { createRecorder } from './recorder.js';
import { liveFigures } from './live-figures.js';
import { threadBusy } from './thread-busy.js';
import { createThrottleSampler } from './throttling.js';
import { SAMPLE_INTERVAL_MS, STALE_INTERVALS, WIDE_SCAN_INTERVAL_MS, DOWNSTREAMS_KEPT } from '../base/thresholds.js';



/** Reports kept for the next live sample of a thread; more pile up only for a process no sample lists. */
const MAX_PENDING_REPORTS = 8;

/**
 * Says whether the in-process probe can run on a runtime, and why not.
 * @param {string} runtime 'node' | 'bun' | 'deno'
 * @returns {{ available: boolean, reason: string|null }}
 */
export function probeSupport(runtime = 'node') {
  return runtime === 'node'
    ? { available: true, reason: null }
    : { available: false, reason: `probe not available on ${runtime}` };
}

/**
 * Starts sampling a strategy's process tree.
 *
 * @param {object} options
 * @param {number} options.rootPid the process spawnbench started (the strategy's main process, or a user's command)
 * @param {number} [options.serverPid] the process that listens, when a launcher started it (npm → sh → node
 *   app.js: node app.js; see src/runner/find-server.js); default `rootPid`. It is the `main` process.
 * @param {Array<{ pid: number, name: string }>} [options.launchers] the resident processes above the server:
 *   sampled with role `launcher` and label `launcher <name>`, never taken for the server or a worker
 * @param {(import('node:events').EventEmitter & { intervalMs?: number })|null} [options.channel] from openProbeChannel()
 *   (its reports come every `intervalMs`); null: no probe figures
 * @param {number} [options.intervalMs] sampling interval (default 250)
 * @param {string} [options.runtime] runtime of the strategy's main process; on 'bun'/'deno' the
 *   summary says "probe not available on <runtime>" unless a probe (in Node workers) reported anyway
 * @param {() => ({ elu: number, cpuPct: number } | null)} [options.getGeneratorStats] the load generator's own load
 * @param {() => number|null} [options.findServer] the process that listens on the server's port now (a user's
 *   server: src/runner/server-tree.js); asked when the server process is gone, so a server that a launcher
 *   restarts (nodemon) is followed to its new process, and the summary's `serverRestarts` lists each change
 * @param {() => Array<{ id: number, pid: number, threadId: number|null, completed: number|null }>} [options.getWorkers]
 *   the strategy's latest merged `workers` list: names workers and gives their request counts
 * @returns {EventEmitter & { stop: () => Promise<object>, reset: () => void }}
 *   Emits `sample`: the Samples shape of src/README.md, each process entry with `requests` and
 *   `inFlight` too (the worker's `completed` and in-flight count, or null), and its main thread's
 *   `loopCpuPct` and `waitPct` (on a CPU, and runnable but waiting for one, % of wall time, from
 *   /proc/<pid>/schedstat, a thread's from its own; null where there is none). A process's `cpuPct` covers all its threads; a thread
 *   entry's covers that thread alone (100 = one core). `spawned` is `{ count (running at the
 *   sample), newlySeen, cpuPct (reaped children, from cutime + cstime), rssBytes: null (not read: see
 *   proc-sampler.js) }`.
 *   `reset()` restarts the summary and series (call it when the measured phase starts if sampling
 *   began at boot). `stop()` ends sampling and resolves to (idempotent)
 *   `{ processes: [{ key, pid, threadId, role, label, requests, series: [{ t, cpuPct, rssBytes, requests, probe }],
 *   summary: { elu, blockedFraction, msPerSpawn, spawnsPerSec, loopDelayP50Ms, loopDelayP99Ms, loopDelayMaxMs,
 *   gcMs, cpuPct, rssBytes (peak), heapUsedBytes (peak), loopCpuPct, waitPct, inFlight, spawnTiming,
 *   runtime: { kind, version, libuv, spawnMechanism }|null, routes: [{ route, requests, loopMs, loopMsPerRequest,
 *   spawnsPerRequest, blockedMsPerRequest, busyShare }]|null (probe-totals.js) } }], spawnTiming, spawned: { seen, spawns, cpuPct, rssBytes, failures: [{ command, code, count }]|null },
 *   system: { cpus: [mean %] }, generator: { cpuPct, elu }, probe: { available, reason }, notes: [],
 *   throttling: [Throttling over the measured phase, src/sample/throttling.js],
 *   serverRestarts: [{ from, to, t }] (the server process replaced by another that listens, in the measured phase;
 *   a replaced one's entry has role `replaced`) }`; each sample carries `throttling`
 *   for its own interval (one entry per CPU quota that binds the server or spawnbench; [] without a quota).
 *   `spawnTiming` ('diagnostics-channel', 'patch', 'mixed' run-wide, or null): how blocked-in-spawn was timed.
 *   `requests` there is the count completed while sampling, and null figures were not measured.
 */
export function startSampler({
  rootPid,
  serverPid = rootPid,
  launchers = [],
  channel = null,
  intervalMs = SAMPLE_INTERVAL_MS,
  runtime = 'node',
  getGeneratorStats = null,
  getWorkers = null,
  findServer = null,
}) {
  const sampler = new EventEmitter();
  // The two readers give the same reading; only the portable one (pidusage) has history to close.
  /**
   * @type {{ read: (query: import('./proc-sampler.js').ProcQuery & { pids: number[] }) =>
   *   import('./proc-sampler.js').ProcReading|Promise<import('./proc-sampler.js').ProcReading>, close?: () => void, restartOtherThreads?: () => void }}
   */
  const reader = HAS_PROC ? createProcSampler({ rootPid }) : createPortableSampler({ rootPid });
  const recorder = createRecorder();
  const throttle = createThrottleSampler({ serverPid: rootPid ?? null });
  const wide = HAS_PROC && rootPid ? createWideScan(rootPid, serverPid) : null;
  /** key → { pid, tid, threadId, isMainThread, latest, latestAt, insideAt (the probe inside's last report), pending (reports not yet in a sample), figures } */
  const probed = new Map();
  const launcherPids = new Map(launchers.map((l) => [l.pid, l.name]));
  /**
   * The processes sampled once, kept while they live: a node:cluster worker whose loop hangs stops
   * reporting, and untracked it was gone from the samples: "worker 1 died at 0.8 s" while it spun at
   * 100% of a core, its CPU in no figure.
   */
  const kept = new Set();
  /**
   * The node:cluster workers of the server seen so far (see isClusterWorker): children of the server's process
   * whose environment holds NODE_UNIQUE_ID. Only its own children: a command a worker spawns carries the worker's
   * environment between its fork and its exec, and was read as one more worker. Only those found are kept: a worker
   * read before its own exec has its parent's environment, so a "no" is not final.
   */
  const clusterWorkers = new Set();
  const clusterWorker = (pid, parent) => {
    if (clusterWorkers.has(pid)) return true;
    if (parent !== serverPid || !isClusterWorker(pid)) return false;
    if (clusterWorkers.size >= 4096) clusterWorkers.clear();
    clusterWorkers.add(pid);
    return true;
  };
  /** The server processes a restart replaced (nodemon ends its child and starts another), and each change. */
  const replaced = new Set();
  let restarts = [];
  const roleOf = (pid) => (pid === serverPid ? 'main' : launcherPids.has(pid) ? 'launcher' : replaced.has(pid) ? 'replaced' : 'worker');
  // The server process is gone while its group lives on: the process that listens now is the server.
  const followServer = (alive, now) => {
    if (!findServer || alive.has(serverPid)) return;
    const next = findServer();
    if (!next || next === serverPid) return;
    replaced.add(serverPid);
    restarts.push({ from: serverPid, to: next, t: now });
    serverPid = next;
  };
  /** followServer() from the server's own /proc entry, without a reading: gone or a zombie, its successor is looked for. */
  const followIfGone = (now) => {
    if (!findServer || !serverPid) return;
    const stat = readStat(serverPid);
    followServer(new Set(stat && stat.state !== 'Z' ? [serverPid] : []), now);
  };
  const staleMs = (channel?.intervalMs ?? intervalMs) * STALE_INTERVALS;

  const onReport = (report) => {
    const key = report.isMainThread ? `${report.pid}` : `${report.pid}/${report.threadId}`;
    const now = Date.now();
    const entry = probed.get(key) ?? { pid: report.pid, threadId: report.isMainThread ? null : report.threadId, pending: [], figures: null, tid: null, insideAt: null };
    probed.set(key, entry);
    // A worker thread is reported by its parent too (its ELU, seen from outside, and its kernel
    // tid): the only reports of a thread whose probe never runs (eval workers, piscina's threads
    // waiting in Atomics.wait). Where the probe inside reports, its figures are the thread's.
    if (report.source === 'parent') {
      entry.tid = entry.tid ?? report.tid ?? null;
      entry.isMainThread = false;
      entry.latestAt = now;
      if (entry.insideAt !== null && now - entry.insideAt <= staleMs) return;
    } else {
      entry.insideAt = now;
      Object.assign(entry, { tid: report.tid ?? entry.tid, isMainThread: report.isMainThread, latestAt: now });
    }
    entry.latest = report;
    entry.pending.push(report);
    if (entry.pending.length > MAX_PENDING_REPORTS) entry.pending.shift();
    recorder.addReport(key, report);
  };
  channel?.on('report', onReport);

  let busy = false;
  const tick = async () => {
    if (busy) return;
    busy = true;
    try {
      const sample = await takeSample();
      recorder.addSample(sample);
      sampler.emit('sample', sample);
    } catch (error) {
      recorder.note(`sampling failed: ${error.message}`);
    } finally {
      busy = false;
    }
  };

  const takeSample = async () => {
    const now = Date.now();
    const workers = getWorkers?.() ?? [];
    const fresh = [...probed].filter(([, p]) => now - p.latestAt <= staleMs);
    const probedPids = new Set(fresh.filter(([, p]) => p.isMainThread).map(([, p]) => p.pid));
    const workerPids = new Set(workers.filter((w) => w.threadId == null).map((w) => w.pid));
    // The server's own process is tracked whether or not its probe reported lately: a
    // main thread blocked in spawn on a loaded machine can miss the stale window, and
    // without the probe it never reports; taken for a spawned command it was left out
    // of the samples (a server behind `npm start` or `sh -c` then had no main process).
    // A node:cluster worker is tracked without its probe too: one whose loop blocked before its probe first
    // reported (a worker that hangs as it starts, or starts late on a loaded machine) was read as a command the
    // server ran, and left out of the workers (a 2-worker cluster sampled as 1 in a full run of the suite).
    const isTracked = (pid, parent) => pid === serverPid || probedPids.has(pid) || workerPids.has(pid) || launcherPids.has(pid) || kept.has(pid) || clusterWorker(pid, parent);
    const threads = fresh.filter(([, p]) => !p.isMainThread).map(([key, p]) => ({ key, pid: p.pid, tid: p.tid }));
    // A probed Node process forks only from its JS threads: reading their children
    // is enough, and skips ~10 libuv/V8 threads per process (measured on a 5-process
    // fork-pool: 1.4 ms → 0.22 ms of CPU per reading, 0.09% of a core at 4 Hz).
    const forkingThreads = (pid) =>
      probedPids.has(pid) ? [pid, ...threads.filter((t) => t.pid === pid && t.tid).map((t) => t.tid)] : undefined;
    // A server a restart replaced is followed before the read, so that its successor is read in this
    // sample: followed only after it, the successor was left out of the sample that found it, and a
    // child a loaded machine's launcher replaced within 250 ms was in no sample at all (no `main`).
    followIfGone(now);
    const reading = await reader.read({ isTracked, forkingThreads, threads, pids: [...new Set([serverPid, ...probedPids, ...workerPids, ...kept])] });
    for (const pid of kept) if (!reading.processes.has(pid)) kept.delete(pid);
    for (const pid of reading.processes.keys()) kept.add(pid);
    followServer(reading.processes, now);
    if (reading.unreadable) recorder.note(unreadableNote(reading.unreadable));

    const processes = [];
    for (const [pid, usage] of reading.processes) {
      const report = probed.get(`${pid}`);
      processes.push({
        key: `${pid}`,
        pid,
        threadId: null,
        role: roleOf(pid),
        label: roleOf(pid) === 'launcher' ? `launcher ${launcherPids.get(pid)}` : labelOf(roleOf(pid), pid, null, workers),
        cpuPct: usage.cpuPct,
        rssBytes: usage.rssBytes,
        requests: workerOf(pid, null, workers)?.completed ?? null,
        probe: report && now - report.latestAt <= staleMs ? liveFigures(report) : null,
        loopCpuPct: usage.loopCpuPct ?? null,
        waitPct: usage.waitPct ?? null,
        inFlight: workerOf(pid, null, workers)?.inFlight ?? null,
        otherThreads: reading.otherThreads?.get(pid) ?? null,
      });
    }
    for (const { key, pid } of threads) {
      if (!reading.processes.has(pid)) continue;
      const entry = probed.get(key);
      const probe = liveFigures(entry);
      const sched = reading.threadSched?.get(key);
      const cpuPct = reading.threads.get(key) ?? null;
      processes.push({
        key,
        pid,
        threadId: entry.threadId,
        role: 'thread',
        label: labelOf('thread', pid, entry.threadId, workers),
        cpuPct,
        rssBytes: null,
        requests: workerOf(pid, entry.threadId, workers)?.completed ?? null,
        probe,
        loopCpuPct: sched?.loopCpuPct ?? null,
        waitPct: sched?.waitPct ?? null,
        inFlight: workerOf(pid, entry.threadId, workers)?.inFlight ?? null,
        ...threadBusy({
          role: 'thread', elu: probe?.elu, cpuPct, loopCpuPct: sched?.loopCpuPct, waitPct: sched?.waitPct,
          blockedFraction: probe?.spawn?.blockedFraction,
        }),
      });
    }
    const generator = getGeneratorStats?.() ?? null;
    return {
      t: now,
      processes,
      downstreams: wide?.maybeScan([...reading.processes.keys()]) ?? [],
      otherUsers: wide?.otherUsers() ?? null,
      spawned: reading.spawned,
      system: reading.system,
      generator: { cpuPct: generator?.cpuPct ?? null, elu: generator?.elu ?? null },
      throttling: throttle.read(),
    };
  };

  const timer = setInterval(tick, intervalMs);
  timer.unref();
  if (!HAS_PROC) recorder.note(PORTABLE_NOTE);

  let stopping = null;
  return Object.assign(sampler, {
    reset() {
      recorder.reset();
      reader.restartOtherThreads?.();
      restarts = [];
      throttle.reset();
      wide?.reset();
    },
    stop() {
      stopping ??= (async () => {
        clearInterval(timer);
        channel?.off('report', onReport);
        while (busy) await new Promise((resolve) => setTimeout(resolve, 5));
        // A measured phase that no tick reached (a short one, or spawnbench's own loop held up
        // on a loaded machine) still gets one reading, taken now while the server runs: without
        // it the summary had no process at all, and no `main`.
        if (recorder.sampleCount() === 0) {
          try {
            recorder.addSample(await takeSample());
          } catch (error) {
            recorder.note(`sampling failed: ${error.message}`);
          }
        }
        // A server replaced in the last interval: its successor is the main process of the summary too,
        // read once now if no tick caught it (a restart just before the end left no `main` at all).
        followIfGone(Date.now());
        if (serverPid && !recorder.has(`${serverPid}`)) {
          try {
            recorder.addSample(await takeSample());
          } catch (error) {
            recorder.note(`sampling failed: ${error.message}`);
          }
        }
        reader.close?.();
        throttle.read();
        const summary = recorder.summary({ probe: probeStatus(channel, runtime, probed.size > 0, serverPid ? programOf(serverPid) : null, serverPid ? uidOf(serverPid) : null, serverPid ? environHas(serverPid, 'SPAWNBENCH_PROBE_SOCKET') : null), throttling: throttle.summary(), serverRestarts: restarts });
        return { ...withReplaced(summary, replaced, serverPid), ...(wide ? wide.summary() : { otherUsers: null, downstreams: null }) };
      })();
      return stopping;
    },
  });
}

/** The note of /proc reads that failed for want of a file descriptor: what is left out, and the fix. */
export function unreadableNote(code) {
  return `spawnbench ran out of file descriptors (${code}) reading /proc: the CPU figures of those moments (per core, spawned commands, other processes) are left out; raise the limit (ulimit -n) or use fewer --connections`;
}

/** Distinct downstream peers remembered over a run (count): the summary lists the DOWNSTREAMS_KEPT busiest. */
const MAX_PEERS_TRACKED = 256;

/**
 * The reads of all of /proc, once a second (WIDE_SCAN_INTERVAL_MS): the other CPU users
 * and the server's downstream connections. Their summary covers the measured phase
 * (from reset()): `otherUsers` (src/sample/other-users.js) and `downstreams`, per peer the
 * most connections seen at once and the mean over the reads.
 */
export function createWideScan(rootPid, serverPid = rootPid) {
  const leader = readStat(rootPid)?.pgrp === rootPid;
  // The server's own process is never another CPU user, even where it left the tree spawnbench started (a daemon).
  const others = createOtherUsers({ roots: () => [process.pid, rootPid, serverPid], groups: () => (leader ? [rootPid] : []) });
  const downstreams = createDownstreams();
  let lastAt = -Infinity;
  let latest = [];
  let reads = 0;
  /** The server's processes at the last tick, for a read at the end where the measured phase had none. */
  let lastPids = /** @type {number[]} */ ([]);
  /** peer → { peer, transport, name, pid, connections (max), sum } */
  let peers = new Map();
  const readDownstreams = (/** @type {number[]} */ pids) => {
    latest = downstreams.read(pids, rootPid);
    reads++;
    for (const d of latest) {
      // Bounded: a server that talks to ever new peers keeps the first few hundred.
      if (!peers.has(d.peer) && peers.size >= MAX_PEERS_TRACKED) continue;
      const entry = peers.get(d.peer) ?? { ...d, connections: 0, sum: 0 };
      entry.connections = Math.max(entry.connections, d.connections);
      entry.sum += d.connections;
      peers.set(d.peer, entry);
    }
  };
  return {
    maybeScan(pids) {
      lastPids = pids;
      const now = performance.now();
      if (now - lastAt < WIDE_SCAN_INTERVAL_MS) return latest;
      lastAt = now;
      others.scan();
      readDownstreams(pids);
      return latest;
    },
    /** Other CPU users so far (the live advice reads them as the finished run does). */
    otherUsers: () => others.summary(),
    reset() {
      others.reset();
      peers = new Map();
      reads = 0;
      lastAt = performance.now();
    },
    summary() {
      others.scan();
      // A measured phase with no read (a short one, or ticks a loaded machine delayed past WIDE_SCAN_INTERVAL_MS):
      // read once now, while the server still runs, rather than name no downstream (a loaded CI run read none for
      // a 2 s diagnose of a cluster that held 18 PostgreSQL connections).
      if (reads === 0 && lastPids.length > 0) readDownstreams(lastPids);
      const list = [...peers.values()].map(({ sum, ...d }) => ({ ...d, meanConnections: Math.round((sum / Math.max(1, reads)) * 10) / 10 }));
      return { otherUsers: others.summary(), downstreams: list.sort((a, b) => b.connections - a.connections).slice(0, DOWNSTREAMS_KEPT) };
    },
  };
}

/**
 * A server process that a restart replaced was `main` while it served: in the summary it is
 * `replaced`, after the server, so no reader takes it for the server or for a worker of it.
 */
function withReplaced(summary, replaced, serverPid) {
  if (replaced.size === 0) return summary;
  const roleOf = (p) => (p.threadId !== null ? p : replaced.has(p.pid) ? { ...p, role: 'replaced', label: `pid ${p.pid} (replaced)` } : p.pid === serverPid ? { ...p, role: 'main', label: 'main' } : p);
  const processes = summary.processes.map(roleOf);
  const late = processes.filter((p) => p.role === 'replaced');
  const main = processes.filter((p) => p.role === 'main');
  return { ...summary, processes: [...main, ...processes.filter((p) => p.role !== 'replaced' && p.role !== 'main'), ...late] };
}

function workerOf(pid, threadId, workers) {
  return workers.find((w) => w.pid === pid && (w.threadId ?? null) === threadId);
}

function labelOf(role, pid, threadId, workers) {
  if (role === 'main') return 'main';
  if (role === 'replaced') return `pid ${pid} (replaced)`;
  const worker = workerOf(pid, threadId, workers);
  if (worker) return `worker ${worker.id}`;
  return role === 'thread' ? `thread ${threadId}` : `pid ${pid}`;
}

/** The runtimes the probe loads into (through NODE_OPTIONS), by their executable's name. */
const PROBED_PROGRAM = /^(node|nodejs|bun|deno)/i;

/**
 * Whether probe figures are in the summary, and if not, why.
 * @param {object|null} channel
 * @param {string} runtime the strategy's runtime ('node' for a user's server)
 * @param {boolean} reported a probe reported
 * @param {string|null} [program] the server process's executable name: a user's server on another
 *   runtime (python3) has no probe, and "was NODE_OPTIONS replaced by the strategy?" sent its user after NODE_OPTIONS
 * @param {number|null} [uid] the server process's user id: a server a launcher runs as another user (runuser,
 *   setpriv, su) cannot write to the probe's channel, a directory only spawnbench's user may enter
 * @param {boolean|null} [probeEnv] whether the server process's environment still holds the probe's variables:
 *   `env -i` or a launcher that builds its own environment drops them (null: not known)
 */
export function probeStatus(channel, runtime, reported, program = null, uid = null, probeEnv = null) {
  if (reported) return { available: true, reason: null };
  const support = probeSupport(runtime);
  if (!support.available) return support;
  if (!channel) return { available: false, reason: 'probe not enabled' };
  if (program && !PROBED_PROGRAM.test(program)) return { available: false, reason: `no probe: the server runs ${program}, not Node.js, so it has no ELU or loop figures; its CPU is read from outside`, program };
  const own = typeof process.getuid === 'function' ? process.getuid() : null;
  if (uid !== null && own !== null && uid !== own) {
    return { available: false, reason: `no probe report received: the server runs as uid ${uid}, and the probe's channel only takes spawnbench's user (uid ${own}); run both as one user for ELU and loop figures (its CPU is read from outside)` };
  }
  if (probeEnv === false) {
    return { available: false, reason: 'no probe report received: the server\'s environment lost the probe\'s NODE_OPTIONS on the way (env -i, sudo, a launcher that builds its own environment); pass NODE_OPTIONS and the SPAWNBENCH_PROBE_* variables through for ELU and loop figures (its CPU is read from outside)' };
  }
  return { available: false, reason: GENERIC_PROBE_REASON };
}

const GENERIC_PROBE_REASON = 'no probe report received (was NODE_OPTIONS replaced by the strategy?)';

/**
 * The probe's status once the measured time is known: a probe that never reported in a measured phase shorter than its
 * interval had no time to. `-w 0 -d 1ms` read "no probe report received (was NODE_OPTIONS replaced by the strategy?)".
 * @param {{ available: boolean, reason: string|null }|null|undefined} probe samples.probe
 * @param {number|null|undefined} measuredMs the load's measured time
 * @param {number|null|undefined} intervalMs the probe's interval (--sample-interval)
 */
export function probeWithShortRun(probe, measuredMs, intervalMs) {
  if (!probe || probe.available || probe.reason !== GENERIC_PROBE_REASON || !(typeof measuredMs === 'number' && typeof intervalMs === 'number' && measuredMs < intervalMs)) return probe;
  return {
    ...probe,
    reason: `no probe report received: the measured phase (${Math.round(measuredMs)} ms) ended before the probe's first report (every ${Math.round(intervalMs)} ms); measure longer (-d) for ELU and loop figures`,
  };
}

/**
 * The probe's status once the run knows a server process kept a CPU busy from the start while nothing was answered
 * (analysis/busy-silence.js busyFromStart): its loop never ran the probe's report, and "was NODE_OPTIONS replaced by
 * the strategy?" was said of a server stuck in a loop.
 * @param {{ available: boolean, reason: string|null }|null|undefined} probe samples.probe
 * @param {{ pid: number|null, cpuPct: number, fromStart?: boolean }|null} spinning
 */
export function probeWhileSpinning(probe, spinning) {
  if (!probe || probe.available || probe.reason !== GENERIC_PROBE_REASON || !spinning?.fromStart) return probe;
  const who = spinning.pid !== null ? `pid ${spinning.pid}` : 'the server';
  return { ...probe, reason: `no probe report received: ${who} kept a CPU ${Math.round(spinning.cpuPct)}% busy all along, so its event loop never ran the probe's report (its CPU is read from outside)` };
}

/**
 * The probe's status once the run knows the server's open-files limit ran short (error-reasons.js openFilesShort): a
 * probe that never reported with no other cause found ran out of descriptors with it. `ulimit -n 48` and 30 connections
 * read "was NODE_OPTIONS replaced by the strategy?", where at `ulimit -n 200` the same server reported.
 * @param {{ available: boolean, reason: string|null }|null|undefined} probe samples.probe
 * @param {{ openFiles: number, connections: number, needed: number }|null} filesLimit
 */
export function probeWithFilesLimit(probe, filesLimit) {
  if (!probe || probe.available || probe.reason !== GENERIC_PROBE_REASON || !filesLimit) return probe;
  return {
    ...probe,
    reason: `no probe report received: the server's open-files limit is ${filesLimit.openFiles} (ulimit -n), too few for ${filesLimit.connections} connections and its own files, ` +
      `and the probe's channel is one of them; raise it where the server starts (ulimit -n ${filesLimit.needed} or more) for ELU and loop figures (its CPU is read from outside)`,
  };
}
