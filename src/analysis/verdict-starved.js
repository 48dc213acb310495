/**
 * Rule: the server's main thread often waited for a CPU (other processes, the
 * load generator included, took the cores). Its loop delays and latency are then
 * inflated by the machine, not by the server's own work.
 */
import { num } from './verdict-common.js';
import { CPU_STARVED_FRACTION, CPU_STARVED_VERDICT_FRACTION } from '../thresholds.js';
export { CPU_STARVED_FRACTION, CPU_STARVED_VERDICT_FRACTION } from '../thresholds.js';

/** Whether the main thread waited for a CPU at least CPU_STARVED_FRACTION of the time. */
export function cpuStarved(evidence) {
  return (num(evidence.mainThread?.waitingForCpu) ?? 0) >= CPU_STARVED_FRACTION;
}

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function waitingForCpu(evidence) {
  if (!cpuStarved(evidence)) return null;
  const t = evidence.mainThread;
  return {
    id: 'cpu-starved',
    kind: t.waitingForCpu >= CPU_STARVED_VERDICT_FRACTION ? 'problem' : 'limit',
    where: `pid ${t.pid}`,
    figures: { waitingForCpu: t.waitingForCpu, onCpu: num(t.onCpu) },
  };
}
