/**
 * Rule for a server seen only from outside (--url with --pid, no probe): slow
 * responses while its process keeps a core busy. Without the probe, JavaScript,
 * spawn and GC cannot be told apart.
 */
import { ms } from '../report/format.js';
import { where, worst, num } from './verdict-common.js';
import { SLOW_P50_MS } from './verdict-downstream.js';

/** 90% of one core: a single-threaded server this busy has no idle time left to answer promptly. */
export const BUSY_CPU_PCT = 90;
/** p99 latency of 50 ms on loopback: requests queue behind work, they are not just slow to compute. */
export const SLOW_P99_MS = 50;

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function cpuBoundFromOutside(evidence) {
  if (evidence.probe) return null;
  const p = worst(evidence.processes, (x) => num(x.cpuPct));
  if (!p || p.cpuPct < BUSY_CPU_PCT) return null;
  const { load } = evidence;
  const slow = (num(load.p99Ms) ?? 0) >= SLOW_P99_MS || (num(load.p50Ms) ?? 0) >= SLOW_P50_MS;
  if (!slow) return null;
  return {
    id: 'cpu-bound',
    kind: 'problem',
    title: 'the server is CPU-bound (seen from outside)',
    where: where(p),
    evidence: [
      `CPU ${Math.round(p.cpuPct)}% of a core (threshold ${BUSY_CPU_PCT}%)`,
      `latency p50 ${ms(load.p50Ms)}, p99 ${ms(load.p99Ms)} (threshold p99 ≥ ${ms(SLOW_P99_MS)} or p50 ≥ ${ms(SLOW_P50_MS)})`,
      'without the probe spawnbench cannot tell JavaScript from time blocked in spawn or GC',
    ],
    next: [
      'run the server under spawnbench to see inside it: spawnbench diagnose -- <the command that starts it>',
      'or profile it: spawnbench diagnose --cpu-prof -- <command>',
    ],
    figures: { cpuPct: p.cpuPct, p50Ms: num(load.p50Ms), p99Ms: num(load.p99Ms) },
  };
}
