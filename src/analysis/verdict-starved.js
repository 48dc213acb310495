/**
 * Rule: the server's main thread often waited for a CPU (other processes, the
 * load generator included, took the cores). Its loop delays and latency are then
 * inflated by the machine, not by the server's own work. Under a CPU quota that
 * throttled the server, the wait is the quota's stops (verdict-quota.js), not a
 * machine short of CPU, unless the machine's cores were full too.
 */
import { num } from './verdict-common.js';
import { downstreamOf } from './error-reasons.js';
import { quotaThrottled } from './verdict-quota.js';
import { MACHINE_CPU_LIMIT_PCT, OTHER_PROCESSES_CORES, OTHER_USER_SHARE } from '../base/thresholds.js';
import { CPU_STARVED_FRACTION, CPU_STARVED_VERDICT_FRACTION } from '../base/thresholds.js';
export { CPU_STARVED_FRACTION, CPU_STARVED_VERDICT_FRACTION } from '../base/thresholds.js';

/**
 * Whether the main thread waited for a CPU at least CPU_STARVED_FRACTION of the time.
 * @param {Pick<import('./verdict-common.js').Evidence, 'mainThread'>} evidence
 */
export function cpuStarved(evidence) {
  return (num(evidence.mainThread?.waitingForCpu) ?? 0) >= CPU_STARVED_FRACTION;
}

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function waitingForCpu(evidence) {
  if (!cpuStarved(evidence)) return null;
  // The server's own CPU quota stopped it (the verdict says so): its wait for a CPU is the quota's stops, and a
  // machine whose cores had room is not short of CPU (it said "diagnose on a quieter machine" at 26% and 31% busy).
  if (quotaThrottled(evidence)?.id === 'cpu-quota' && !((num(evidence.machine?.busyPct) ?? 0) >= MACHINE_CPU_LIMIT_PCT)) return null;
  // cpuStarved(): the main thread was read
  const t = /** @type {NonNullable<import('./verdict-common.js').Evidence['mainThread']>} */ (evidence.mainThread);
  const taken = takenBy(evidence);
  return {
    id: 'cpu-starved',
    kind: t.waitingForCpu >= CPU_STARVED_VERDICT_FRACTION ? 'problem' : 'limit',
    where: `pid ${t.pid}`,
    figures: { waitingForCpu: t.waitingForCpu, onCpu: num(t.onCpu), cores: evidence.cores ?? null, hostCpus: evidence.hostCpus ?? null, takenBy: taken, ...ownThreads(evidence, t) },
  };
}

/**
 * Whether the server's own threads beside its main thread took the cores: those threads
 * (libuv's threadpool, a worker pool, its other processes) used more CPU than every other
 * program and the load generator together. Then a quieter machine would change little: under
 * pbkdf2, libuv's 4 threads used 1.5 of 2 cores, the main thread waited for a core 22% of the
 * time, and the finding said "diagnose on a quieter machine" with the other programs at 0.2 cores.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @param {{ onCpu: number }} main the main thread's schedstat shares
 * @returns {{ ownThreadsCores: number, othersCores: number }|{}}
 */
function ownThreads(evidence, main) {
  const cpu = evidence.processes.map((p) => num(p.cpuPct)).filter((v) => v !== null);
  if (cpu.length === 0) return {};
  // The commands it spawns are its own too: a server spawning per request on 0.5 of 2 cores, others at 0.14, was told
  // "the machine is short of CPU … diagnose on a quieter machine".
  const serverCores = (cpu.reduce((a, b) => a + b, 0) + (num(evidence.spawnedCpuPct) ?? 0)) / 100;
  const ownThreadsCores = Math.max(0, serverCores - (num(main.onCpu) ?? 0));
  // What the machine's busy time leaves beside the server counts too (as the threads verdict reads it), where it is
  // more than the processes seen: the two read "other programs 1.1" and "0.8" of one run, one saying "diagnose on a
  // quieter machine", the other "a quieter machine would change little".
  const cores = num(evidence.machine?.cores ?? evidence.cores ?? null);
  const busyPct = num(evidence.machine?.busyPct);
  const machineOthers = cores !== null && busyPct !== null ? Math.max(0, (cores * busyPct) / 100 - serverCores) : 0;
  const othersCores = Math.max(machineOthers, (num(evidence.otherUsers?.cores) ?? 0) + (num(evidence.generator?.cpuPct) ?? 0) / 100);
  return ownThreadsCores > othersCores ? { ownThreadsCores, othersCores } : {};
}

/**
 * Who took the cores: the other CPU users that used at least a quarter of
 * OTHER_PROCESSES_CORES (an eighth of a core), busiest first, each marked with the
 * downstream peer it listens on when the server talks to it; `competes` when that
 * downstream also took OTHER_USER_SHARE of the cores or more (the server and it
 * then fight over the same CPUs, and a quieter machine would not change that).
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {Array<{ name: string, count: number, cores: number, downstream: string|null, competes: boolean }>}
 */
function takenBy(evidence) {
  const downstreams = evidence.downstreams ?? [];
  const budget = evidence.cores ?? null;
  return (evidence.otherUsers?.users ?? [])
    .filter((u) => u.cores >= OTHER_PROCESSES_CORES / 4)
    .slice(0, 3)
    .map((u) => {
      const downstream = downstreamOf(u, downstreams)?.peer ?? null;
      return { ...u, downstream, competes: Boolean(downstream && budget && u.cores >= OTHER_USER_SHARE * budget) };
    });
}
