/**
 * A server process whose probe went silent for the last part of the run while it kept a CPU busy:
 * its event loop was held by JavaScript or a synchronous call (a loop that never ends, a sync read
 * of a huge file, a catastrophic regex). The probe reports from that loop, so its ELU and loop delay
 * stop with it and read low ("main ELU 0.07, loop p99 4 ms" of a thread spinning for 2 s), while
 * /proc still counts the CPU. Read by the stopped-answering finding and advice: "a stopped process,
 * a lock, a downstream" was said of such a server.
 */
import { SILENT_PROBE_BUSY_PCT, SILENT_PROBE_MIN_MS } from '../base/thresholds.js';

/**
 * @typedef {{ pid?: number, label?: string, series?: Array<{ t: number, cpuPct?: number|null, probe?: object|null }> }} SampledProcess
 */

/**
 * The process (of the server's, in order) whose samples end in a silent probe over a busy CPU, or null.
 * A process that never had a probe report is not one: there was no probe to go silent.
 * @param {SampledProcess[]} processes
 * @returns {{ pid: number|null, label: string|null, silentMs: number, cpuPct: number }|null}
 */
export function busySilence(processes) {
  for (const p of processes ?? []) {
    const series = p.series ?? [];
    const lastReport = series.findLastIndex((s) => s.probe);
    if (lastReport < 0 || lastReport === series.length - 1) continue;
    const silent = series.slice(lastReport + 1);
    const cpu = silent.map((s) => s.cpuPct).filter(/** @returns {v is number} */ (v) => typeof v === 'number' && Number.isFinite(v));
    if (cpu.length < silent.length / 2 || cpu.length === 0) continue;
    const silentMs = series[series.length - 1].t - series[lastReport].t;
    const cpuPct = cpu.reduce((a, b) => a + b, 0) / cpu.length;
    if (silentMs >= SILENT_PROBE_MIN_MS && cpuPct >= SILENT_PROBE_BUSY_PCT) return { pid: p.pid ?? null, label: p.label ?? null, silentMs, cpuPct };
  }
  return null;
}

/**
 * A stall (load/stall.js stalledAtEnd) with `spinning`: the server process that held a CPU while its probe was silent, or null.
 * @template {{ count: number, oldestMs: number }} T
 * @param {T|null} stall
 * @param {SampledProcess[]} processes the server's sampled processes
 * @returns {(T & { spinning: ReturnType<typeof busySilence> })|null}
 */
export function withSpinning(stall, processes) {
  return stall ? Object.assign({}, stall, { spinning: busySilence(processes) }) : null;
}

/**
 * The server process that kept a CPU busy for the whole measured phase without its probe ever reporting: its event
 * loop was held from the start (a loop that began before the probe's first report), and a run where nothing was
 * answered read "the measured phase was too short for them; give a longer --duration" of it. Read only where no
 * response arrived at all: a process on another runtime has no probe either, and its CPU alone says nothing.
 * @param {SampledProcess[]} processes the server's sampled processes
 * @returns {{ pid: number|null, label: string|null, silentMs: number, cpuPct: number, fromStart: true }|null}
 */
export function busyFromStart(processes) {
  for (const p of processes ?? []) {
    const series = p.series ?? [];
    if (series.length < 2 || series.some((s) => s.probe)) continue;
    const cpu = series.map((s) => s.cpuPct).filter(/** @returns {v is number} */ (v) => typeof v === 'number' && Number.isFinite(v));
    if (cpu.length < series.length / 2 || cpu.length === 0) continue;
    const silentMs = series[series.length - 1].t - series[0].t;
    const cpuPct = cpu.reduce((a, b) => a + b, 0) / cpu.length;
    if (silentMs >= SILENT_PROBE_MIN_MS && cpuPct >= SILENT_PROBE_BUSY_PCT) return { pid: p.pid ?? null, label: p.label ?? null, silentMs, cpuPct, fromStart: true };
  }
  return null;
}
