/**
 * Rule for a server seen only from outside (--url with --pid, no probe): slow
 * responses while its process keeps a core busy. Without the probe, JavaScript,
 * spawn and GC cannot be told apart.
 */
import { ms, pct } from '../report/format.js';
import { num, outsideBusy } from './verdict-common.js';
import { SLOW_P50_MS } from './verdict-downstream.js';
import { BUSY_FRACTION, SLOW_P99_MS, LONG_TAIL_RATIO } from '../thresholds.js';
export { BUSY_FRACTION, SLOW_P99_MS, LONG_TAIL_RATIO } from '../thresholds.js';

/** "p99 is 8× p50: …" when the latency has a long tail, else null. */
export function tailShape(load) {
  if (!(num(load.p50Ms) > 0) || num(load.p99Ms) === null) return null;
  const ratio = load.p99Ms / load.p50Ms;
  if (ratio < LONG_TAIL_RATIO) return null;
  return `p99 is ${Math.round(ratio)}× p50 (from ${LONG_TAIL_RATIO}×): a long tail, some requests wait behind stalls`;
}

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function cpuBoundFromOutside(evidence) {
  if (evidence.probe) return null;
  const seen = outsideBusy(evidence);
  if (!seen || seen.busy < BUSY_FRACTION) return null;
  const { load } = evidence;
  const slow = (num(load.p99Ms) ?? 0) >= SLOW_P99_MS || (num(load.p50Ms) ?? 0) >= SLOW_P50_MS;
  if (!slow) return null;
  return {
    id: 'cpu-bound',
    kind: 'problem',
    title: 'the server is CPU-bound, seen from outside',
    where: seen.where,
    evidence: [
      `${seen.text} (threshold ${pct(BUSY_FRACTION)})`,
      `latency p50 ${ms(load.p50Ms)}, p99 ${ms(load.p99Ms)} (threshold p99 ≥ ${ms(SLOW_P99_MS)} or p50 ≥ ${ms(SLOW_P50_MS)})`,
      ...[tailShape(load)].filter(Boolean),
      'without the probe spawnbench cannot tell JavaScript from time blocked in spawn or GC',
    ],
    next: [
      'run the server under spawnbench to see inside it: spawnbench diagnose -- <the command that starts it>',
      'or profile it: spawnbench diagnose --cpu-prof -- <command>',
    ],
    figures: { busy: seen.busy, p50Ms: num(load.p50Ms), p99Ms: num(load.p99Ms) },
  };
}

/**
 * Fires when responses are slow and nothing inside or around the server was
 * measured (--url without --pid): the symptom, and how to see its cause.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function slowUnexplained(evidence) {
  if (evidence.probe || outsideBusy(evidence)) return null;
  const { load } = evidence;
  const slow = (num(load.p99Ms) ?? 0) >= SLOW_P99_MS || (num(load.p50Ms) ?? 0) >= SLOW_P50_MS;
  if (!slow) return null;
  return {
    id: 'slow-unexplained',
    kind: 'problem',
    title: 'responses are slow, and the cause cannot be seen from outside',
    where: null,
    evidence: [
      `latency p50 ${ms(load.p50Ms)}, p99 ${ms(load.p99Ms)} (threshold p99 ≥ ${ms(SLOW_P99_MS)} or p50 ≥ ${ms(SLOW_P50_MS)})`,
      ...[tailShape(load)].filter(Boolean),
    ],
    next: [
      'pass the server\'s process id with --pid to see whether it is busy (CPU-bound) or waiting (I/O, downstream)',
      'or run it under spawnbench: spawnbench diagnose -- <the command that starts it>',
    ],
    figures: { p50Ms: num(load.p50Ms), p99Ms: num(load.p99Ms) },
  };
}
