/**
 * What limited a run, from its sampler signals (src/analysis/run-figures.js).
 * Pure: signals in, findings out, so each verdict is tested on made-up figures.
 */
import {
  MAIN_ELU_LIMIT, MACHINE_CPU_LIMIT_PCT, OTHER_PROCESSES_CORES, SPAWN_BLOCKED_LIMIT_FRACTION, GENERATOR_BUSY_CPU_PCT, GENERATOR_BUSY_ELU,
} from '../thresholds.js';
export { MAIN_ELU_LIMIT, MACHINE_CPU_LIMIT_PCT, OTHER_PROCESSES_CORES } from '../thresholds.js';

/**
 * @typedef {object} Finding
 * @property {'generator'|'main-thread'|'machine'} kind
 * @property {string} text one sentence with the figures behind it
 */

/**
 * Every limit the signals show, most decisive first: a generator-bound run makes
 * the other figures suspect; a saturated main thread explains a flat curve
 * whatever the cores do; a saturated machine is the last word.
 * @param {import('./run-figures.js').RunSignals} s
 * @returns {{ primary: Finding|null, findings: Finding[], text: string }}
 */
export function findBottleneck(s) {
  const findings = [];
  const threads = Math.max(1, s.generatorThreads ?? 1);
  const genPerThread = Number.isFinite(s.generatorCpuPct) ? s.generatorCpuPct / threads : null;
  // CPU when the generator could read it (/proc); its ELU only otherwise, since a
  // loop can look busy while waiting in the kernel.
  const generatorBound = genPerThread !== null ? genPerThread >= GENERATOR_BUSY_CPU_PCT : (s.generatorElu ?? 0) >= GENERATOR_BUSY_ELU;
  if (generatorBound) {
    const busy = genPerThread !== null ? `${Math.round(genPerThread)}% of a core per thread` : `event loop busy ${pct(s.generatorElu)}`;
    findings.push({
      kind: 'generator',
      text: `the load generator is the limit (${busy}): results are generator-bound; add --generator-threads ${threads * 2}`,
    });
  }
  const eluBound = (s.mainElu ?? 0) >= MAIN_ELU_LIMIT;
  const spawnBound = (s.mainBlocked ?? 0) >= SPAWN_BLOCKED_LIMIT_FRACTION;
  if (eluBound || spawnBound) {
    const parts = [];
    if (Number.isFinite(s.mainElu)) parts.push(`event loop busy ${pct(s.mainElu)}`);
    if (Number.isFinite(s.mainBlocked)) parts.push(`blocked in spawn ${pct(s.mainBlocked)}`);
    findings.push({
      kind: 'main-thread',
      text: `the main thread is the limit (${parts.join(', ')}): more workers will not help`,
    });
  }
  if ((s.systemCpuPct ?? 0) >= MACHINE_CPU_LIMIT_PCT) {
    const shares = [
      ['workers', s.workersCpuPct],
      ['spawned commands', s.spawnedCpuPct],
      ['main', s.mainCpuPct],
      ['generator', s.generatorCpuPct],
    ].filter(([, v]) => Number.isFinite(v)).map(([name, v]) => `${name} ${(v / 100).toFixed(1)}`);
    const cores = s.cores ? ` of ${s.cores}` : '';
    const seen = sumOf([s.workersCpuPct, s.spawnedCpuPct, s.mainCpuPct, s.generatorCpuPct]) / 100;
    const others = s.cores ? (s.systemCpuPct / 100) * s.cores - seen : 0;
    const otherText = others >= OTHER_PROCESSES_CORES ? `, other processes ${others.toFixed(1)}` : '';
    findings.push({
      kind: 'machine',
      text: `the machine is the limit (cores ${Math.round(s.systemCpuPct)}% busy${shares.length ? `; cores used${cores}: ${shares.join(', ')}${otherText}` : ''}): more workers only compete for the same cores`,
    });
  }
  const primary = findings[0] ?? null;
  const known = [s.mainElu, s.systemCpuPct, s.generatorCpuPct, s.generatorElu].some(Number.isFinite);
  const text = primary
    ? findings.map((f) => f.text).join('; ')
    : known
      ? 'no limit reached in the samples (main thread, generator and cores all had room)'
      : 'no sampler figures to say what the limit was';
  return { primary, findings, text };
}

function sumOf(values) {
  return values.filter(Number.isFinite).reduce((sum, v) => sum + v, 0);
}

function pct(fraction) {
  return `${Math.round(fraction * 100)}%`;
}
