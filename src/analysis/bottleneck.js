/**
 * What limited a run, from its sampler signals (src/analysis/run-figures.js).
 * Pure: signals in, findings out, so each verdict is tested on made-up figures.
 */

/**
 * Event-loop utilisation of the strategy's main thread (0..1) from which it is
 * the limit. Clinic Doctor flags a median ELU ≥ 0.95 per 10 ms sample; averaged
 * over a whole run, 0.9 already means most requests wait behind others on that
 * loop, and adding workers behind it cannot raise throughput.
 */
export const MAIN_ELU_LIMIT = 0.9;

/**
 * Fraction of the main thread's time blocked inside child_process.spawn (0..1)
 * from which spawning in the main thread is the limit. The write-up behind
 * spawnbench measured ~30% when a Node server could not start more than ~40
 * processes at a time; 25% leaves room for sampling noise below that.
 */
export const SPAWN_BLOCKED_LIMIT = 0.25;

/**
 * CPU of the load generator per generator thread, in % of one core, from which
 * the generator (not the server) may be what caps the figures: a thread that is
 * busy 85% of the time cannot send much faster, and its own latency leaks into p99.
 */
export const GENERATOR_CPU_LIMIT_PCT = 85;

/** Event-loop utilisation of the generator threads (0..1) that means the same as GENERATOR_CPU_LIMIT_PCT. */
export const GENERATOR_ELU_LIMIT = 0.9;

/**
 * Mean busy share of all cores, in %, from which the machine itself is the limit:
 * the remaining 10% is what the kernel, interrupts and the samplers take on a
 * loaded box, so nothing is left for more workers.
 */
export const MACHINE_CPU_LIMIT_PCT = 90;

/**
 * Cores busy beyond what spawnbench saw the strategy, its commands and the
 * generator use, from which the machine-limit finding names other processes:
 * below half a core, the gap is within the difference between /proc readings
 * taken at slightly different moments.
 */
export const OTHER_PROCESSES_CORES = 0.5;

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
  const generatorBound = genPerThread !== null ? genPerThread >= GENERATOR_CPU_LIMIT_PCT : (s.generatorElu ?? 0) >= GENERATOR_ELU_LIMIT;
  if (generatorBound) {
    const busy = genPerThread !== null ? `${Math.round(genPerThread)}% of a core per thread` : `event loop busy ${pct(s.generatorElu)}`;
    findings.push({
      kind: 'generator',
      text: `the load generator is the limit (${busy}): results are generator-bound; add --generator-threads ${threads * 2}`,
    });
  }
  const eluBound = (s.mainElu ?? 0) >= MAIN_ELU_LIMIT;
  const spawnBound = (s.mainBlocked ?? 0) >= SPAWN_BLOCKED_LIMIT;
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
