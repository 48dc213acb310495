/**
 * The words of --against: each figure before → after, its change, and whether
 * that change is beyond the run-to-run noise. Comparison in, strings out.
 */
import { int, msNumber, isFiniteNumber } from './text-format.js';

/** @typedef {import('../base/result-types.js').AgainstDelta} AgainstDelta */
/** @typedef {import('../base/result-types.js').DeltaNoise} DeltaNoise */
import { metricWords } from './metric-text.js';
import { cleanText } from '../base/untrusted-text.js';

/**
 * A value of a delta in its unit, without the unit for ms (the column says it).
 * @param {number|null|undefined} v
 * @param {string} unit
 */
function value(v, unit) {
  if (!isFiniteNumber(v)) return '–';
  return unit === 'ms' ? msNumber(v) : int(v);
}

/**
 * '+3.7%', '−12%', '–'
 * @param {number|null|undefined} pct
 */
export function formatChangePct(pct) {
  if (!isFiniteNumber(pct)) return '–';
  const digits = Math.abs(pct) < 10 ? 1 : 0;
  const text = Math.abs(pct).toFixed(digits);
  if (Number(text) === 0) return '±0%';
  return `${pct > 0 ? '+' : '−'}${text}%`;
}

/**
 * What a delta's mark says: 'better', 'worse', 'within noise', or why it cannot be judged.
 * @param {AgainstDelta} d
 */
export function verdictOf(d) {
  if (d.significant === null) {
    const noise = noiseOf(d);
    if (noise?.reason === 'single-sample') return 'one request: not judged';
    if (noise?.reason === 'no-noise-model') return 'not judged (no noise estimate)';
    if (noise?.reason === 'one-repeat') return 'one repeat: not judged (--repeat 2 or more)';
    if (noise?.reason === 'no-successes') return 'no request succeeded on a side: not judged';
    if (noise?.reason === 'too-few-requests') return `not judged (needs ${int(noise.minRequests)} requests per run)`;
    if (noise?.reason === 'too-few-seconds') return `noise unknown (under ${noise.minSeconds} s measured)`;
    return 'not judged';
  }
  if (!d.significant) return d.before === d.after ? 'same' : 'within noise';
  return d.better ? 'better' : 'worse';
}

/**
 * A delta's noise figures: which are there depends on its noise model (src/analysis/against-deltas.js
 * types them as a plain object).
 * @param {AgainstDelta} d
 * @returns {DeltaNoise|undefined}
 */
function noiseOf(d) {
  return /** @type {DeltaNoise|undefined} */ (d.noise);
}

/**
 * The noise behind a mark, in the delta's unit: '±42 req/s' or 'p99 between 587 and 703 ms before'.
 * @param {AgainstDelta} d
 */
function noiseText(d) {
  const noise = noiseOf(d);
  if (d.metric === 'rps' && isFiniteNumber(noise?.marginRps)) return `noise ±${int(noise.marginRps)} req/s`;
  // The repeats' and the intervals' models set `before` and `after` together (src/analysis/against-deltas.js).
  if (noise?.repeats) {
    const [lo, hi] = /** @type {[number, number]} */ (noise.after);
    const before = /** @type {[number, number]} */ (noise.before);
    return `repeats now ${value(lo, d.unit)}–${value(hi, d.unit)}${d.unit === 'ms' ? ' ms' : ''}, before ${value(before[0], d.unit)}–${value(before[1], d.unit)}`;
  }
  if (d.unit === 'ms' && noise?.before) {
    const [lo, hi] = /** @type {[number, number]} */ (noise.after);
    return `95% interval now ${msNumber(lo)}–${msNumber(hi)} ms`;
  }
  // The errors' model sets both shares.
  if (d.metric === 'errors' && isFiniteNumber(noise?.shareAfter)) {
    return `${(/** @type {number} */ (noise.shareBefore) * 100).toFixed(2)}% → ${(noise.shareAfter * 100).toFixed(2)}% of requests`;
  }
  return '';
}

/**
 * The block printed after a summary.
 * @param {import('../base/result-types.js').Against} against analysis/against-deltas.js result
 * @param {{ file: string, createdAt?: string }} baseline
 * @returns {string}
 */
export function formatAgainst(against, baseline) {
  const when = baseline.createdAt ? ` (${baseline.createdAt.replace('T', ' ').slice(0, 16)} UTC)` : '';
  const s = against.summary;
  const tally = s.changes === 0 ? 'no change beyond the noise' : `${s.changes} change${s.changes === 1 ? '' : 's'} beyond the noise: ${s.better} better, ${s.worse} worse`;
  const head = `Against ${baseline.file}${when}: ${tally}`;
  if (!against.rows) {
    // A mix: each endpoint's own changes under the totals'.
    const endpoints = (against.endpoints ?? []).flatMap((e) => [`  ${cleanText(e.name, 200)}: ${e.summary.changes === 0 ? 'no change beyond its noise' : `${e.summary.changes} beyond its noise (${e.summary.better} better, ${e.summary.worse} worse)`}`, ...deltaLines(e.deltas, '    ')]);
    // A run's comparison always has deltas (a compare's has rows): an edited file without them fails here, and `report` names the field.
    return [head, ...baselineCutLine(against.baselineCut), ...differentTargetsLine(against.differentTargets), ...differentLoadsLine(against.differentLoads), ...differentMachinesLine(against.differentMachines), ...deltaLines(/** @type {AgainstDelta[]} */ (against.deltas), '  '), ...endpoints].join('\n');
  }
  // A compare: one block per row, the repeats' spread as the noise.
  const lines = [head, ...baselineCutLine(against.baselineCut)];
  for (const row of against.rows) lines.push(`  ${row.strategy} · ${row.workload}`, ...deltaLines(row.deltas, '    '));
  for (const name of against.unmatched ?? []) lines.push(`  ${name}: not in the baseline`);
  return lines.join('\n');
}

/**
 * The warning that the baseline's figures cover part of its run (none when it ran to its end).
 * @param {'stopped-early'|'failed'|undefined|null} cut
 * @returns {string[]}
 */
function baselineCutLine(cut) {
  if (!cut) return [];
  const why = cut === 'failed' ? 'the baseline\'s run failed (its server crashed or stopped answering)' : 'the baseline was stopped before its end';
  return [`  warning: ${why}: its figures cover part of its run, so these changes are not the target's`];
}

/**
 * The warning line of a comparison between two different targets (none when they are the same).
 * @param {{ before: { kind: string|null, name: string|null }, after: { kind: string|null, name: string|null } }} [targets]
 */
function differentTargetsLine(targets) {
  if (!targets) return [];
  /** @param {{ kind: string|null, name: string|null }} target */
  const name = ({ kind, name: what }) => cleanText(`${kind ?? 'unknown target'}${what ? ` '${what}'` : ''}`);
  return [`  warning: comparing different targets: the baseline measured ${name(targets.before)}, this run ${name(targets.after)}`];
}

/**
 * The warning that the two results sent other requests, or another load, to their target.
 * @param {{ before: LoadShape, after: LoadShape }|undefined} loads
 * @returns {string[]}
 */
function differentLoadsLine(loads) {
  if (!loads) return [];
  /** @param {LoadShape} l */
  const sent = (l) => {
    const requests = l.requests.length > 3 ? `${l.requests.slice(0, 3).join(', ')} and ${l.requests.length - 3} more` : l.requests.join(', ');
    const how = l.rate !== null ? `at ${int(l.rate)} req/s` : l.connections !== null ? `over ${int(l.connections)} ${l.connections === 1 ? 'connection' : 'connections'}` : '';
    return cleanText(`${requests}${l.body ? ' with a body' : ''}${how ? ` ${how}` : ''}`);
  };
  return [`  warning: comparing different loads: the baseline sent ${sent(loads.before)}, this run ${sent(loads.after)}`];
}

/**
 * The warning that the two results ran on other CPUs.
 * @param {{ before: { cpuModel: string|null, cpus: number|null }, after: { cpuModel: string|null, cpus: number|null } }|undefined} machines
 * @returns {string[]}
 */
function differentMachinesLine(machines) {
  if (!machines) return [];
  /** @param {{ cpuModel: string|null, cpus: number|null }} m */
  const ran = (m) => cleanText([m.cpuModel ?? 'unknown CPUs', m.cpus !== null ? `${m.cpus % 1 ? m.cpus.toFixed(1) : int(m.cpus)} ${m.cpus === 1 ? 'CPU' : 'CPUs'}` : null].filter(Boolean).join(' × '));
  return [`  warning: comparing different machines: the baseline ran on ${ran(machines.before)}, this run on ${ran(machines.after)}; a change may be the machine's, not the target's`];
}

/** @typedef {{ requests: string[], body: boolean, rate: number|null, connections: number|null }} LoadShape */

/**
 * @param {AgainstDelta[]} deltas
 * @param {string} indent
 */
function deltaLines(deltas, indent) {
  const rows = deltas.map((d) => [
    metricWords(d.metric).label,
    `${value(d.before, d.unit)} → ${value(d.after, d.unit)}${d.unit === 'ms' ? ' ms' : ''}`,
    formatChangePct(d.changePct),
    verdictOf(d),
    noiseText(d),
  ]);
  const widths = [0, 1, 2, 3].map((i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `${indent}${r[0].padEnd(widths[0])}  ${r[1].padStart(widths[1])}  ${r[2].padStart(widths[2])}  ${r[3].padEnd(widths[3])}  ${r[4]}`.trimEnd());
}
