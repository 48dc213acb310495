/**
 * DiagnoseResult → Evidence: the flat numbers the verdict rules read
 * (src/analysis/verdict-common.js). Only what was measured is filled in; the rest
 * is null, and the rules skip what they cannot see.
 */

import { median } from '../analysis/stats.js';
import { cpuView } from '../analysis/cpu-view.js';
import { ownCpuPct } from '../analysis/run-figures.js';
import { isServerEntry } from '../machine/process-roles.js';
import { targetOf } from '../base/target-kinds.js';
import { stalledAtEnd, pausedMidRun } from '../load/stall.js';
import { measuredDeaths } from '../analysis/worker-deaths.js';
import { withSpinning } from '../analysis/busy-silence.js';
import { listenerThread } from '../analysis/advice-input.js';

/**
 * @param {object} result DiagnoseResult (without its diagnosis)
 * @returns {import('../analysis/verdict-common.js').Evidence}
 */
export function buildEvidence(result) {
  const load = result.load ?? {};
  const samples = result.samples ?? null;
  const gc = result.gc ?? {};
  const requests = load.requests ?? 0;
  // A parse error with no request in flight (a response nobody asked for) failed no request: it is its own finding.
  const unsolicited = load.unsolicited ?? 0;
  const errors = Math.max(0, (load.errors?.total ?? 0) - unsolicited);
  // `requests` counts every response (2xx or not); connect, reset, timeout and parse errors had none.
  const attempts = requests + errors - (load.errors?.non2xx ?? 0) - (load.errors?.mismatch ?? 0);
  // A launcher (npm, sh) above the server is not the server: no verdict is drawn from its figures.
  const processes = (samples?.processes ?? []).filter(isServerEntry).map((p) => {
    const s = p.summary ?? {};
    return {
      label: p.label,
      pid: p.pid,
      role: p.role ?? null,
      busy: s.busy ?? null,
      busyFrom: s.busyFrom ?? null,
      elu: s.elu ?? null,
      loopDelayP50Ms: s.loopDelayP50Ms ?? null,
      loopDelayTypicalMs: median((p.series ?? []).map((x) => x.probe?.loopDelay?.p50Ms)),
      loopDelayP99Ms: s.loopDelayP99Ms ?? null,
      loopDelayMaxMs: s.loopDelayMaxMs ?? null,
      cpuPct: s.cpuPct ?? null,
      blockedFraction: s.blockedFraction ?? null,
      spawnsPerSec: s.spawnsPerSec ?? null,
      msPerSpawn: s.msPerSpawn ?? null,
      spawnMechanism: s.runtime?.spawnMechanism ?? null,
      gcFraction: gc[p.key]?.gcFraction ?? null,
      gcPeakMsPerSec: gc[p.key]?.gcPeakMsPerSec ?? null,
      otherThreads: s.otherThreads ?? null,
      routes: s.routes ?? null,
    };
  });
  // A process of its own that is no worker of it (no IPC, no cluster worker: a job or a helper it started beside it, as
  // the tree at the end of the load shows): counted as the server's CPU, not as a pool worker. Taken for one, an idle
  // helper beside a server blocked by JavaScript read "the main thread's hand-off is the limit … 1 worker process have room".
  const shape = result.server ?? null;
  if (shape && Array.isArray(shape.workers) && shape.pid) {
    const incarnations = new Set((result.workerDeaths ?? []).flatMap((d) => [d.pid, d.replacedBy]).filter((pid) => pid != null));
    for (const p of processes) if (p.role === 'worker' && !shape.workers.includes(p.pid) && !incarnations.has(p.pid)) p.role = 'child';
  }
  // A server whose HTTP server runs in a worker thread: that thread's loop is the server's, the main thread one more thread.
  const main = processes.find((p) => p.role === 'main');
  const listener = listenerThread({ main, threads: processes.filter((p) => p.role === 'thread'), workers: processes.filter((p) => p.role === 'worker').length }, (p) => p.routes);
  if (main && listener) {
    listener.role = 'main';
    main.role = 'thread';
  }
  return {
    mode: targetOf(result.plan?.target).external ? 'url' : 'command',
    probe: Boolean(samples?.probe?.available),
    probeReason: probeReason(result),
    load: {
      mode: load.mode ?? 'closed',
      rps: load.rps ?? 0,
      requests,
      attempts,
      connections: load.connections ?? null,
      rate: load.rate ?? null,
      missed: load.missed ?? 0,
      errors,
      errorRate: attempts > 0 ? errors / attempts : 0,
      unsolicited,
      statuses: load.statuses ?? {},
      p50Ms: load.latency?.p50Ms ?? null,
      p99Ms: load.latency?.p99Ms ?? null,
      maxMs: load.latency?.maxMs ?? null,
      errorKinds: typeof load.errors === 'object' && load.errors ? load.errors : {},
      bytes: load.bytes ?? 0,
      measuredMs: load.durationMs ?? null,
      plannedMs: result.plan?.load?.durationMs ?? null,
      timeoutMs: result.plan?.load?.timeoutMs ?? null,
      stoppedEarly: Boolean(result.stoppedEarly),
      begun: load.unanswered?.begun ?? 0,
      speaksTls: load.speaksTls === true,
      spinning: load.spinning ?? null,
      endpoints: (load.endpoints ?? []).map((e) => ({ name: e.name, requests: e.requests ?? 0, share: e.share ?? null, p50Ms: e.p50Ms ?? null, p99Ms: e.p99Ms ?? null })),
    },
    generator: {
      elu: load.generator?.elu ?? samples?.generator?.elu ?? null,
      cpuPct: load.generator?.cpuPct ?? samples?.generator?.cpuPct ?? null,
      threads: load.threads ?? result.plan?.load?.threads ?? 1,
    },
    processes,
    // The CPU budget (src/machine/cpu-budget.js: affinity, cpuset, cgroup quota; else availableParallelism())
    // and each core's busy share: what bounds the capacity estimate.
    machine: {
      cores: result.machine?.cpu?.budget ?? result.machine?.cores ?? null,
      cpus: samples?.system?.cpus ?? [],
      busyPct: cpuView({ machine: result.machine ?? null, cpus: samples?.system?.cpus ?? [], throttling: samples?.throttling, ownCpuPct: ownCpuPct(samples, load.generator ?? samples?.generator) }).busyPct,
    },
    spawnedCpuPct: samples?.spawned?.cpuPct ?? null,
    errorTexts: load.errorTexts ?? [],
    spawnFailures: result.spawnFailures ?? null,
    openFilesLimit: result.openFilesLimit ?? null,
    stderr: result.serverStderr ?? null,
    downstreams: samples?.downstreams ?? null,
    otherUsers: samples?.otherUsers ?? null,
    cores: result.machine?.cpu?.budget ?? result.machine?.cores ?? null,
    // Other processes are measured host-wide: under a narrower budget they are not "of" it.
    hostCpus: result.machine?.cpu?.hostThreads ?? null,
    mainThread: result.mainThread ?? null,
    serverExit: result.serverExit ?? null,
    stall: withSpinning(stalledAtEnd(load), (samples?.processes ?? []).filter(isServerEntry)),
    pause: pausedMidRun(load),
    generatorStopped: load?.generatorStopped ?? null,
    workerDeaths: measuredDeaths(/** @type {import('../analysis/worker-deaths.js').WorkerDeath[]|undefined} */ (result.workerDeaths)),
    pid: result.target?.pid ?? null,
    port: portOf(result.target),
    restarts: samples?.serverRestarts ?? [],
    quota: quotaOf(samples?.throttling),
  };
}

/** The port the target serves (a command's, or --url's). */
function portOf(target) {
  if (Number.isFinite(target?.port)) return target.port;
  try {
    const url = new URL(target?.url ?? '');
    return Number(url.port) || (url.protocol === 'https:' ? 443 : 80);
  } catch {
    return null;
  }
}

/** The most throttled quota of the measured phase (src/sample/throttling.js), or null. */
function quotaOf(throttling) {
  const measured = (throttling ?? []).filter((t) => Number.isFinite(t.fraction));
  if (measured.length === 0) return null;
  const t = measured.reduce((a, b) => (b.fraction > a.fraction ? b : a));
  return { quotaCpus: t.quotaCpus, throttledFraction: t.fraction, throttledMs: t.throttledMs, roles: t.roles, cgroup: t.cgroup ?? null, periodMs: Number.isFinite(t.periodMs) && t.periodMs > 0 ? t.periodMs : null };
}

/** Why there are no probe figures, in the words the "not seen" list uses. */
function probeReason(result) {
  if (result.samples?.probe?.available) return null;
  if (targetOf(result.plan?.target).external) return 'the server was not started by spawnbench';
  if (result.plan?.probe?.enabled === false) return '--no-probe';
  return result.samples?.probe?.reason ?? 'not measured';
}
