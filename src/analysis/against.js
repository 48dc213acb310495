/**
 * A run against a baseline run (--against old.json): the change of throughput,
 * latency percentiles and errors, each marked as a change only when it is beyond
 * the run-to-run noise the two results themselves show. Pure and wordless.
 *
 * Noise, per figure, from what a single run holds:
 * - rps: the per-second request counts; the standard error of each run's mean
 *   rate (sd/√seconds), combined for the two runs, times AGAINST_Z.
 * - p50 … p99.9: a distribution-free confidence interval of each percentile from
 *   the HDR histogram (latency-distribution.js); a change when the two intervals
 *   do not overlap.
 * - errors: the two error shares, a two-proportion z-test.
 * - max: one request; no interval can be had, so its change is shown, never marked.
 *
 * Between two compare results (repeats of each row), the repeats' own spread is
 * the noise: a row's rps or p99 changed when the min–max of its repeats now and
 * before do not overlap (two repeats at least on each side, else not judged).
 */
import { percentileInterval } from './latency-distribution.js';
import { overlaps } from './stats.js';
import { AGAINST_Z, AGAINST_MIN_SECONDS, AGAINST_MIN_TAIL_REQUESTS } from '../thresholds.js';

const PERCENTILES = [['p50', 50, 'p50Ms'], ['p90', 90, 'p90Ms'], ['p99', 99, 'p99Ms'], ['p999', 99.9, 'p999Ms']];

/**
 * @typedef {object} Delta
 * @property {string} metric   'rps' | 'p50' | 'p90' | 'p99' | 'p999' | 'max' | 'errors'
 * @property {'rps'|'ms'|'count'} unit
 * @property {number|null} before
 * @property {number|null} after
 * @property {number|null} changePct (after − before) / before × 100; null when before is 0
 * @property {boolean|null} significant beyond the noise; null when it cannot be judged
 * @property {boolean|null} better the change is an improvement (higher rps, lower latency or errors)
 * @property {object} noise the figures behind `significant`
 */

/**
 * @param {object} current RunResult or DiagnoseResult
 * @param {object} baseline the same kind of result, read from --against
 * @returns {{ id: 'against', deltas: Delta[], summary: { changes: number, better: number, worse: number } }}
 */
export function againstBaseline(current, baseline) {
  const a = baseline.load ?? {};
  const b = current.load ?? {};
  const deltas = [rpsDelta(a, b), ...PERCENTILES.map((p) => percentileDelta(a, b, ...p)), maxDelta(a, b), errorsDelta(a, b)];
  const marked = deltas.filter((d) => d.significant);
  return {
    id: 'against',
    deltas,
    summary: { changes: marked.length, better: marked.filter((d) => d.better).length, worse: marked.filter((d) => !d.better).length },
  };
}

function delta(metric, unit, before, after, higherIsBetter, significant, noise) {
  const known = Number.isFinite(before) && Number.isFinite(after);
  const changePct = known && before !== 0 ? ((after - before) / before) * 100 : null;
  const better = known && after !== before ? (after > before) === higherIsBetter : null;
  return { metric, unit, before: before ?? null, after: after ?? null, changePct, significant: known ? significant : null, better, noise };
}

/** Mean and standard error of the per-second request counts of the measured window. */
function rateSpread(load) {
  const counts = (load.series ?? []).map((s) => s.requests).filter(Number.isFinite);
  if (counts.length < AGAINST_MIN_SECONDS) return null;
  const m = counts.reduce((s, v) => s + v, 0) / counts.length;
  const variance = counts.reduce((s, v) => s + (v - m) ** 2, 0) / (counts.length - 1);
  return { seconds: counts.length, se: Math.sqrt(variance / counts.length) };
}

function rpsDelta(a, b) {
  const sa = rateSpread(a);
  const sb = rateSpread(b);
  if (!sa || !sb) return delta('rps', 'rps', a.rps, b.rps, true, null, { reason: 'too-few-seconds', minSeconds: AGAINST_MIN_SECONDS });
  const marginRps = AGAINST_Z * Math.hypot(sa.se, sb.se);
  const diff = (b.rps ?? 0) - (a.rps ?? 0);
  return delta('rps', 'rps', a.rps, b.rps, true, Math.abs(diff) > marginRps, { marginRps, seconds: [sa.seconds, sb.seconds] });
}

function percentileDelta(a, b, metric, percentile, field) {
  const ia = percentileInterval(a.histogram, percentile, AGAINST_Z);
  const ib = percentileInterval(b.histogram, percentile, AGAINST_Z);
  const before = a.latency?.[field];
  const after = b.latency?.[field];
  if (!ia || !ib) return delta(metric, 'ms', before, after, false, null, { reason: 'no-histogram' });
  // The interval needs a few requests beyond the percentile on both sides (p99.9 of 500 requests has none).
  const tail = Math.min(ia.count, ib.count) * (1 - percentile / 100);
  if (tail < AGAINST_MIN_TAIL_REQUESTS) return delta(metric, 'ms', before, after, false, null, { reason: 'too-few-requests', minRequests: Math.round(AGAINST_MIN_TAIL_REQUESTS / (1 - percentile / 100)) });
  const apart = ia.highMs < ib.lowMs || ib.highMs < ia.lowMs;
  return delta(metric, 'ms', before, after, false, apart, { before: [ia.lowMs, ia.highMs], after: [ib.lowMs, ib.highMs] });
}

function maxDelta(a, b) {
  return delta('max', 'ms', a.latency?.maxMs, b.latency?.maxMs, false, null, { reason: 'single-sample' });
}

function attemptsOf(load) {
  const e = load.errors ?? {};
  return (load.requests ?? 0) + (e.total ?? 0) - (e.non2xx ?? 0) - (e.mismatch ?? 0);
}

function errorsDelta(a, b) {
  const ea = a.errors?.total ?? null;
  const eb = b.errors?.total ?? null;
  const na = attemptsOf(a);
  const nb = attemptsOf(b);
  if (!Number.isFinite(ea) || !Number.isFinite(eb) || na === 0 || nb === 0) return delta('errors', 'count', ea, eb, false, null, { reason: 'no-requests' });
  const pa = ea / na;
  const pb = eb / nb;
  const pooled = (ea + eb) / (na + nb);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb));
  const significant = ea !== eb && (se === 0 ? true : Math.abs(pb - pa) > AGAINST_Z * se);
  return delta('errors', 'count', ea, eb, false, significant, { shareBefore: pa, shareAfter: pb });
}

/**
 * Two compare results, row by row (same workload and strategy): rps and p99
 * medians with the repeats' spread as the noise, errors summed over the repeats.
 * @param {object} current CompareResult
 * @param {object} baseline CompareResult
 * @returns {{ id: 'against', rows: { workload: string, strategy: string, deltas: Delta[] }[], unmatched: string[], summary: object }}
 */
export function againstCompareBaseline(current, baseline) {
  const before = new Map((baseline.rows ?? []).map((r) => [`${r.workload}\0${r.strategy}`, r]));
  const rows = [];
  const unmatched = [];
  for (const row of current.rows ?? []) {
    const old = before.get(`${row.workload}\0${row.strategy}`);
    if (!old) {
      unmatched.push(`${row.strategy} · ${row.workload}`);
      continue;
    }
    rows.push({
      workload: row.workload,
      strategy: row.strategy,
      deltas: [spreadDelta('rps', 'rps', old.rps, row.rps, true), spreadDelta('p99', 'ms', old.p99Ms, row.p99Ms, false), repeatErrors(old, row, baseline, current)],
    });
  }
  const marked = rows.flatMap((r) => r.deltas).filter((d) => d.significant);
  return {
    id: 'against',
    rows,
    unmatched,
    summary: { changes: marked.length, better: marked.filter((d) => d.better).length, worse: marked.filter((d) => !d.better).length },
  };
}

function spreadDelta(metric, unit, a, b, higherIsBetter) {
  if (!a || !b || a.n < 2 || b.n < 2) return delta(metric, unit, a?.median, b?.median, higherIsBetter, null, { reason: 'one-repeat' });
  return delta(metric, unit, a.median, b.median, higherIsBetter, !overlaps(a, b), { before: [a.min, a.max], after: [b.min, b.max], repeats: [a.n, b.n] });
}

function repeatErrors(oldRow, newRow, baseline, current) {
  const requests = (result, row) => (result.runs ?? [])
    .filter((r) => r.workload === row.workload && r.strategy === row.strategy && !r.partial)
    .reduce((sum, r) => sum + (r.requests ?? 0), 0);
  const wrap = (row, result) => ({ requests: requests(result, row), errors: { total: row.errors } });
  return errorsDelta(wrap(oldRow, baseline), wrap(newRow, current));
}
