/**
 * How busy an event loop really was once CPU contention is taken out. A loop that
 * waits for a core looks busy to ELU: on a crowded machine a worker at ELU 0.95
 * may have done a third of that on a CPU, the rest in the run queue, or asleep
 * while the command it forked waited for a core to exec on. Pure: figures in,
 * a share of wall time out.
 */
import { EXEC_WAIT_SHARE_OF_CHILD_CPU, EXEC_WAIT_SHARE_OF_CHILD_CPU_POSIX_SPAWN } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';

/**
 * @typedef {object} BusyShare
 * @property {number|null} busy     corrected busy share of wall time, 0..1 (null: nothing measured)
 * @property {number|null} measured what the run showed (ELU, or CPU without the probe)
 * @property {number} stretch       (on CPU + waiting for one) ÷ on CPU of its main thread; 1 = no contention
 * @property {'elu'|'cpu'|null} source  ELU from the probe, or on-CPU time alone (a lower bound)
 */

/**
 * Busy share of one loop, contention taken out. Its own wait in the run queue
 * (schedstat) comes off; the time it slept inside its busy periods (waiting for a
 * forked child to exec, which needs a core too) is shrunk by the same stretch
 * its own CPU time suffered, but not below the share of its children's CPU that
 * comes before exec (EXEC_WAIT_SHARE_OF_CHILD_CPU, or its posix_spawn twin for a loop
 * that spawns that way): at a large stretch the
 * division alone would leave almost nothing of a wait every spawn has.
 * @param {import('./advice-input.js').ThreadFigures} t
 * @param {number|null} [childCpu] CPU of the commands this loop spawned, as a share of wall time (1 = one core)
 * @param {{ throttled?: boolean }} [options] throttled: a CPU quota throttled the run (its stops stay in: the quota is permanent)
 * @returns {BusyShare}
 */
export function busyShare(t, childCpu = null, { throttled = false } = {}) {
  const on = isFiniteNumber(t.loopCpuPct) ? t.loopCpuPct / 100 : null;
  const wait = isFiniteNumber(t.waitPct) ? t.waitPct / 100 : null;
  const stretch = on !== null && wait !== null && on > 0 ? (on + wait) / on : 1;
  const elu = t.elu;
  if (isFiniteNumber(elu)) {
    // Contention is taken out because it comes and goes with other programs. A CPU quota that
    // throttled is where the server will run: its stops (counted as run-queue wait, and the
    // children's exec they delay) are the deployed cost of each request, so ELU stands as measured.
    // Measured under a 1.5-CPU quota here: the stretch-corrected demand (2.0 ms a request) sized
    // the pool at 2 where tune measured 305, 344, 359 req/s at 2, 3, 4 workers; ELU sizes it at 4.
    if (on === null || wait === null || throttled) return { busy: elu, measured: elu, stretch, source: 'elu' };
    const asleepWhileBusy = Math.max(0, elu - on - wait);
    const share = t.spawnTiming === 'posix_spawn' ? EXEC_WAIT_SHARE_OF_CHILD_CPU_POSIX_SPAWN : EXEC_WAIT_SHARE_OF_CHILD_CPU;
    const floor = isFiniteNumber(childCpu) ? Math.min(asleepWhileBusy, share * childCpu) : 0;
    const asleep = Math.max(asleepWhileBusy / stretch, floor);
    return { busy: Math.min(elu, on + asleep), measured: elu, stretch, source: 'elu' };
  }
  // Without the probe: on-CPU time of the loop (or of the whole process), which
  // misses the time asleep waiting for each exec, so the pool estimate is a floor.
  const cpu = on ?? (isFiniteNumber(t.cpuPct) ? t.cpuPct / 100 : null);
  return cpu === null ? { busy: null, measured: null, stretch, source: null } : { busy: Math.min(1, cpu), measured: cpu, stretch, source: 'cpu' };
}
