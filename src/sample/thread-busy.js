/**
 * How busy a worker thread was, and from which figure. ELU says how much of the
 * time its event loop was not idle; for a worker thread that is not the same as
 * working: a thread blocked in `Atomics.wait` (piscina's idle threads wait for
 * work that way by default) reads as busy to ELU, since its loop never gets to
 * idle. Its CPU time cannot be fooled so: when ELU exceeds what the thread's time
 * on a CPU, waiting for one and blocked in spawn explain by ELU_CPU_DISAGREE or
 * more, the thread's busy figure is its CPU time (on a CPU plus runnable and waiting
 * for one, from /proc/<pid>/task/<tid>/schedstat, as ELU counts that wait too), and
 * says so.
 *
 * Main threads keep their ELU: a main thread that waits synchronously (on a
 * worker through Atomics, on a file) is blocked, not idle, and its clients wait.
 */
import { ELU_CPU_DISAGREE } from '../base/thresholds.js';

/**
 * @param {{ role: 'main'|'worker'|'thread', elu?: number|null, cpuPct?: number|null, loopCpuPct?: number|null,
 *   waitPct?: number|null, blockedFraction?: number|null }} figures a process's main thread or a worker
 *   thread: `cpuPct` % of one core (a thread's own for role 'thread'), `loopCpuPct`/`waitPct` the thread's
 *   time on a CPU and runnable but waiting, % of wall time (schedstat), `blockedFraction` inside spawn, 0..1
 * @returns {{ busy: number|null, busyFrom: 'elu'|'cpu'|null }} busy share of wall time, 0..1; a process's
 *   main thread: its ELU (null without the probe, where callers fall back on its CPU as before)
 */
export function threadBusy({ role, elu = null, cpuPct = null, loopCpuPct = null, waitPct = null, blockedFraction = null }) {
  if (role !== 'thread') return finite(elu) ? { busy: elu, busyFrom: 'elu' } : { busy: null, busyFrom: null };
  const onCpu = finite(loopCpuPct) ? loopCpuPct / 100 : finite(cpuPct) ? cpuPct / 100 : null;
  if (onCpu === null) return finite(elu) ? { busy: elu, busyFrom: 'elu' } : { busy: null, busyFrom: null };
  // Runnable: on a CPU or in the run queue waiting for one. ELU counts both, so the CPU
  // figure does too, and the two stay comparable on a crowded machine.
  const runnable = onCpu + (finite(waitPct) ? waitPct / 100 : 0);
  if (!finite(elu)) return { busy: Math.min(1, runnable), busyFrom: 'cpu' };
  const explained = runnable + (finite(blockedFraction) ? blockedFraction : 0);
  return elu - explained >= ELU_CPU_DISAGREE ? { busy: Math.min(1, runnable), busyFrom: 'cpu' } : { busy: elu, busyFrom: 'elu' };
}

function finite(value) {
  return Number.isFinite(value);
}
