/**
 * Keeps what the sampler saw: a time series per process or thread, probe totals,
 * and the run-wide aggregates, and turns them into the summary `stop()` returns.
 */
import { spawnMechanism } from '../machine/spawn-mechanism.js';
import { createProbeTotals, addFailures } from './probe-totals.js';
import { threadBusy } from './thread-busy.js';

/** Order of the summary's process list: the main process first, then workers, then threads, then the launchers above it, then server processes a restart replaced. */
const ROLE_ORDER = { main: 0, worker: 1, thread: 2, launcher: 3, replaced: 4 };

/**
 * @returns {{ addReport: (key: string, report: object) => void, addSample: (sample: object) => void, sampleCount: () => number, has: (key: string) => boolean,
 *   note: (text: string) => void, reset: () => void, summary: (extra: object) => object }}
 */
export function createRecorder() {
  let entries;
  let totals;
  let spawned;
  let system;
  let generator;
  const notes = new Set();

  let samples = 0;
  const reset = () => {
    samples = 0;
    entries = new Map();
    totals = new Map();
    spawned = { seen: 0, cpu: mean(), rssPeak: null, series: [] };
    system = [];
    generator = { cpu: mean(), elu: mean() };
  };
  reset();

  return {
    addReport(key, report) {
      if (!totals.has(key)) totals.set(key, createProbeTotals());
      totals.get(key).add(report);
    },
    /** Samples added since the last reset (the measured phase's). */
    sampleCount: () => samples,
    /** Whether a process or thread (by key) was in a sample since the last reset. */
    has: (key) => entries.has(key),
    addSample(sample) {
      samples++;
      for (const proc of sample.processes) {
        const entry = entries.get(proc.key) ?? {
          key: proc.key,
          pid: proc.pid,
          threadId: proc.threadId,
          cpu: mean(),
          loopCpu: mean(),
          wait: mean(),
          inFlight: mean(),
          other: { count: 0, busy: mean(), cpu: mean(), max: mean(), kinds: {}, poolSize: null },
          rssPeak: null,
          firstRequests: proc.requests,
          series: [],
        };
        Object.assign(entry, { role: proc.role, label: proc.label, lastRequests: proc.requests });
        entry.firstRequests ??= proc.requests;
        entry.cpu.add(proc.cpuPct);
        entry.loopCpu.add(proc.loopCpuPct);
        entry.wait.add(proc.waitPct);
        entry.inFlight.add(proc.inFlight);
        if (proc.otherThreads) {
          entry.other.count = Math.max(entry.other.count, proc.otherThreads.count);
          entry.other.busy.add(proc.otherThreads.busy);
          entry.other.cpu.add(proc.otherThreads.cpuPct);
          entry.other.max.add(proc.otherThreads.maxCpuPct);
          entry.other.poolSize = proc.otherThreads.poolSize ?? entry.other.poolSize;
          for (const [kind, k] of Object.entries(proc.otherThreads.kinds ?? {})) {
            const into = (entry.other.kinds[kind] ??= { count: 0, busy: mean(), cpu: mean(), wait: mean() });
            into.count = Math.max(into.count, k.count);
            into.busy.add(k.busy);
            into.cpu.add(k.cpuPct);
            into.wait.add(k.waitPct);
          }
        }
        if (proc.rssBytes != null) entry.rssPeak = Math.max(entry.rssPeak ?? 0, proc.rssBytes);
        entry.series.push({
          t: sample.t,
          cpuPct: proc.cpuPct,
          rssBytes: proc.rssBytes,
          requests: proc.requests,
          probe: proc.probe,
        });
        entries.set(proc.key, entry);
      }
      spawned.seen += sample.spawned.newlySeen ?? 0;
      spawned.cpu.add(sample.spawned.cpuPct);
      // Over time too: the spawned commands are often the biggest CPU user (the HTML report's CPU chart).
      spawned.series.push({ t: sample.t, cpuPct: sample.spawned.cpuPct ?? null });
      if (sample.spawned.rssBytes != null) spawned.rssPeak = Math.max(spawned.rssPeak ?? 0, sample.spawned.rssBytes);
      sample.system.cpus.forEach((pct, i) => {
        system[i] ??= mean();
        system[i].add(pct);
      });
      generator.cpu.add(sample.generator.cpuPct);
      generator.elu.add(sample.generator.elu);
    },
    note(text) {
      notes.add(text);
    },
    reset,
    summary(extra) {
      const processes = [...entries.values()]
        .sort((a, b) => ROLE_ORDER[a.role] - ROLE_ORDER[b.role] || a.label.localeCompare(b.label, 'en', { numeric: true }))
        .map((entry) => {
          const probe = totals.get(entry.key)?.result() ?? null;
          const { busy, busyFrom } = threadBusy({
            role: entry.role, elu: probe?.elu, cpuPct: entry.cpu.value(), loopCpuPct: entry.loopCpu.value(),
            waitPct: entry.wait.value(), blockedFraction: probe?.blockedFraction,
          });
          return {
            key: entry.key,
            pid: entry.pid,
            threadId: entry.threadId,
            role: entry.role,
            label: entry.label,
            requests: entry.lastRequests != null ? entry.lastRequests - (entry.firstRequests ?? 0) : null,
            series: entry.series,
            summary: {
              elu: probe?.elu ?? null,
              blockedFraction: probe?.blockedFraction ?? null,
              msPerSpawn: probe?.msPerSpawn ?? null,
              spawnsPerSec: probe?.spawnsPerSec ?? null,
              loopDelayP50Ms: probe?.loopDelayP50Ms ?? null,
              loopDelayP99Ms: probe?.loopDelayP99Ms ?? null,
              loopDelayMaxMs: probe?.loopDelayMaxMs ?? null,
              gcMs: probe?.gcMs ?? null,
              cpuPct: entry.cpu.value(),
              rssBytes: entry.rssPeak,
              heapUsedBytes: probe?.heapUsedBytes ?? null,
              loopCpuPct: entry.loopCpu.value(),
              waitPct: entry.wait.value(),
              inFlight: entry.inFlight.value(),
              busy,
              busyFrom,
              // libuv's pool and V8's threads: how many worked (mean per interval), their CPU, the busiest's.
              otherThreads: entry.other.cpu.value() === null
                ? null
                : { count: entry.other.count, busy: entry.other.busy.value(), cpuPct: entry.other.cpu.value(), maxCpuPct: entry.other.max.value(), ...otherKinds(entry.other) },
              spawnTiming: probe?.spawnTiming ?? null,
              // Each HTTP route the thread served, by the probe (route-timer.js): null without it.
              routes: probe?.routes ?? null,
              // A process whose spawns were all made with posix_spawn (spawnbench's Node workers on
              // a Node where node:ffi or koffi loads) spawned that way, whatever its libuv would have done.
              runtime: probe?.runtime
                ? { ...probe.runtime, spawnMechanism: probe.spawnTiming === 'posix_spawn' ? 'posix_spawn' : spawnMechanism(probe.runtime) }
                : null,
            },
          };
        });
      const threads = [...totals.values()].map((t) => t.result());
      const spawns = threads.reduce((sum, t) => sum + (t.spawns ?? 0), 0);
      // The spawns every probed thread saw fail, by command and errno (null: none did, or no probe said).
      const failed = threads.reduce((into, t) => (t.spawnFailures ? addFailures(into ?? new Map(), t.spawnFailures) : into), null);
      return {
        processes,
        spawnTiming: runSpawnTiming(processes),
        spawned: {
          seen: spawned.seen, spawns, cpuPct: spawned.cpu.value(), rssBytes: spawned.rssPeak, series: spawned.series,
          failures: failed ? [...failed.values()].sort((a, b) => b.count - a.count) : null,
        },
        system: { cpus: system.map((m) => m.value()) },
        generator: { cpuPct: generator.cpu.value(), elu: generator.elu.value() },
        ...extra,
        notes: [...notes],
      };
    },
  };
}

/** A running mean that ignores missing (null) readings. */
function mean() {
  let sum = 0;
  let count = 0;
  return {
    add(value) {
      if (value == null || Number.isNaN(value)) return;
      sum += value;
      count += 1;
    },
    value: () => (count > 0 ? sum / count : null),
  };
}

/**
 * How the run's spawns were timed: the one way every probed thread that said used,
 * 'mixed' when they differ (a Node main with workers on another Node), null when
 * no thread said (no probe, or nothing spawned).
 * @param {{ summary: { spawnTiming: string|null } }[]} processes
 */
export function runSpawnTiming(processes) {
  const ways = new Set(processes.map((p) => p.summary.spawnTiming).filter(Boolean));
  if (ways.size === 0) return null;
  return ways.size === 1 ? [...ways][0] : 'mixed';
}

/**
 * The other threads per kind (src/sample/thread-kinds.js) over the run: the most seen at
 * once, how many worked and their CPU and wait for a CPU (means of the readings, % of one
 * core), and the pool size the process started with.
 */
function otherKinds(other) {
  const kinds = Object.fromEntries(Object.entries(other.kinds).map(([kind, k]) => [kind, { count: k.count, busy: k.busy.value(), cpuPct: k.cpu.value(), waitPct: k.wait.value() }]));
  return { kinds, poolSize: other.poolSize };
}
