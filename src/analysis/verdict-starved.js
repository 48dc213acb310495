/**
 * Rule: the server's main thread often waited for a CPU (other processes, the
 * load generator included, took the cores). Its loop delays and latency are then
 * inflated by the machine, not by the server's own work.
 */
import { pct } from '../report/format.js';
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
  const verdict = t.waitingForCpu >= CPU_STARVED_VERDICT_FRACTION;
  return {
    id: 'cpu-starved',
    kind: verdict ? 'problem' : 'limit',
    title: 'the machine is short of CPU: the server waited for a core',
    where: `pid ${t.pid}`,
    evidence: [
      `main thread waited for a CPU ${pct(t.waitingForCpu)} of the time (threshold ${pct(CPU_STARVED_FRACTION)}), on a CPU ${pct(t.onCpu)}`,
      verdict
        ? `from ${pct(CPU_STARVED_VERDICT_FRACTION)} waiting, every time-based figure is mostly the machine's: the other findings are unreliable`
        : 'loop delays and latency include that wait',
    ],
    next: ['diagnose on a quieter machine, or drive the server from another one (spawnbench diagnose --url … --pid …)'],
    figures: { waitingForCpu: t.waitingForCpu, onCpu: num(t.onCpu) },
  };
}
