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
 * - max: one request; no interval can be had, so its change is shown, never marked;
 *   so is a metric whose noise model is 'none'.
 *
 * Each endpoint of a mix found in both results (by name) gets the same deltas from its
 * own figures and histogram; its rate is shown, not judged (no per-second counts are kept per endpoint).
 *
 * Between two compare results (repeats of each row), the repeats' own spread is
 * the noise: a row's rps or p99 changed when the min–max of its repeats now and
 * before do not overlap (two repeats at least on each side, else not judged).
 */
import { percentileInterval } from './latency-distribution.js';
import { overlaps } from './stats.js';
import { AGAINST_Z, AGAINST_MIN_SECONDS, AGAINST_MIN_TAIL_REQUESTS } from '../base/thresholds.js';
import { targetOf as targetKind } from '../base/target-kinds.js';
import { METRICS, againstMetrics, attemptsOf, rowAttempts, measureRowMetrics, rowSucceededRpsSpread } from './metrics.js';

/** @typedef {import('./metrics.js').Metric} Metric */
/** @typedef {import('../base/result-types.js').RunResult} RunResult */
/** @typedef {import('../base/result-types.js').DiagnoseResult} DiagnoseResult */
/** @typedef {import('../base/result-types.js').CompareResult} CompareResult */
/** @typedef {import('../base/result-types.js').LoadResult} LoadResult */
/** @typedef {import('../base/result-types.js').Endpoint} Endpoint */

/**
 * What a delta is made from: a run's result, or an endpoint of a mix wrapped as `{ load }`.
 * @typedef {{ load?: LoadResult|Endpoint|null }} Measured
 */

/**
 * The load figures the error test reads: a LoadResult, an Endpoint, or a compare row's
 * requests and errors.
 * @typedef {{ requests?: number, attempts?: number, errors?: { total?: number|null }, unsolicited?: number, series?: LoadResult['series'], histogram?: string|null }} LoadFigures
 *   `attempts`: given where the requests that ended are known already (a compare row's runs), else read from requests and errors
 */

/** @typedef {(m: Metric, before: Measured, after: Measured) => Delta} NoiseModel */

/**
 * A plan's target as a result file holds it: free-form JSON (a baseline may come from an older
 * version, or by hand), each field checked where it is read.
 * @typedef {{ kind?: string, strategy?: unknown, url?: unknown, command?: unknown }} TargetFields
 */

/**
 * The noise models a metric of the table names (`noise`), each making its delta from
 * the two results: (metric, baseline, current) → Delta.
 * @type {Record<string, NoiseModel>}
 */
const NOISE = {
  rate: (m, before, after) => rpsDelta(m, before, after),
  percentile: (m, before, after) => percentileDelta(m, before, after),
  share: (m, before, after) => errorsDelta(m.id, loadOf(before), loadOf(after)),
  'single-sample': (m, before, after) => unjudged(m, before, after, 'single-sample'),
  none: (m, before, after) => unjudged(m, before, after, 'no-noise-model'),
};

/**
 * A change shown, never marked: one sample (max), or a metric without a noise model.
 * @param {Metric} m
 * @param {Measured} before
 * @param {Measured} after
 * @param {string} reason
 */
function unjudged(m, before, after, reason) {
  return delta(m.id, m.unit, m.read(before).value, m.read(after).value, m.better === 'higher', null, { reason });
}

/**
 * @typedef {object} Delta
 * @property {string} metric   'rps' | 'p50' | 'p90' | 'p99' | 'p999' | 'max' | 'errors'
 * @property {string} unit 'rps' | 'ms' | 'count' (the metric's unit)
 * @property {number|null} before
 * @property {number|null} after
 * @property {number|null} changePct (after − before) / before × 100; null when before is 0
 * @property {boolean|null} significant beyond the noise; null when it cannot be judged
 * @property {boolean|null} better the change is an improvement (higher rps, lower latency or errors)
 * @property {object} noise the figures behind `significant`
 */

/**
 * @param {RunResult|DiagnoseResult} current
 * @param {RunResult|DiagnoseResult} baseline the same kind of result, read from --against
 * @param {readonly import('./metrics.js').Metric[]} [table] the metric table: every metric with a `noise`
 * @returns {{ id: 'against', deltas: Delta[], summary: { changes: number, better: number, worse: number },
 *   differentTargets?: { before: { kind: string|null, name: string|null }, after: { kind: string|null, name: string|null } },
 *   differentLoads?: { before: ReturnType<typeof loadSent>, after: ReturnType<typeof loadSent> }, baselineCut?: 'stopped-early'|'failed',
 *   differentMachines?: { before: { cpuModel: string|null, cpus: number|null }, after: { cpuModel: string|null, cpus: number|null } } }}
 */
export function againstBaseline(current, baseline, table = METRICS) {
  // againstMetrics() keeps only the metrics that name a noise model.
  const deltas = againstMetrics(table).map((m) => NOISE[/** @type {string} */ (m.noise)](m, baseline, current));
  const marked = deltas.filter((d) => d.significant);
  const endpoints = endpointDeltas(current, baseline, table);
  const [before, after] = [targetOf(baseline.plan), targetOf(current.plan)];
  return {
    id: 'against',
    deltas,
    summary: { changes: marked.length, better: marked.filter((d) => d.better).length, worse: marked.filter((d) => !d.better).length },
    ...(endpoints.length > 0 ? { endpoints } : {}),
    // Set when the two results measured different things (another command, strategy or URL):
    // their figures still compare, but not as a change of one target.
    ...(before.kind !== after.kind || before.name !== after.name ? { differentTargets: { before, after } } : {}),
    // Set when they sent other requests or another load (a mix against one path, a POST against a GET,
    // another --connections or --rate): a gate on the change read the two as one target's change, without a word.
    ...differentLoads(baseline.plan, current.plan),
    // Set when they ran on other CPUs (another model, or a budget of other size): a baseline saved on a laptop
    // and gated on in CI read the machine's difference as the server's change, without a word.
    ...differentMachines(baseline.machine, current.machine),
    ...baselineCut(baseline),
  };
}

/**
 * The CPUs a result ran on: the model and the CPU budget (src/machine/cpu-budget.js; an old result: its cores).
 * @param {any} machine a result's `machine`
 * @returns {{ cpuModel: string|null, cpus: number|null }}
 */
function machineRan(machine) {
  const cpus = machine?.cpu?.budget ?? machine?.cores ?? null;
  return { cpuModel: typeof machine?.cpuModel === 'string' ? machine.cpuModel : null, cpus: typeof cpus === 'number' && Number.isFinite(cpus) ? cpus : null };
}

/**
 * @param {any} beforeMachine
 * @param {any} afterMachine
 * @returns {{ differentMachines?: { before: ReturnType<typeof machineRan>, after: ReturnType<typeof machineRan> } }}
 */
function differentMachines(beforeMachine, afterMachine) {
  if (!beforeMachine || !afterMachine) return {};
  const [before, after] = [machineRan(beforeMachine), machineRan(afterMachine)];
  const model = before.cpuModel !== null && after.cpuModel !== null && before.cpuModel !== after.cpuModel;
  const budget = before.cpus !== null && after.cpus !== null && Math.abs(before.cpus - after.cpus) > 1e-9;
  return model || budget ? { differentMachines: { before, after } } : {};
}

/**
 * Set when the baseline's figures cover part of its run: it was stopped before its end (Ctrl-C, SIGTERM; for a compare, a
 * repeat short), or it failed (its server crashed, stopped answering: its `failures`). A change against it is no change of
 * the target: a baseline whose server crashed halfway measured half the rate, and `rps-change>-5%` passed a slower run.
 * @param {{ stoppedEarly?: boolean, failures?: unknown[], runs?: Array<{ failures?: unknown[] }> }} baseline
 * @returns {{ baselineCut?: 'stopped-early'|'failed' }}
 */
function baselineCut(baseline) {
  const failed = (baseline.failures?.length ?? 0) > 0 || (baseline.runs ?? []).some((r) => (r.failures?.length ?? 0) > 0);
  return failed ? { baselineCut: 'failed' } : baseline.stoppedEarly ? { baselineCut: 'stopped-early' } : {};
}

/**
 * What a run sent and how hard: its requests (the mix's endpoints, or method and path; with a body or
 * not) and its load (an open loop's rate, a closed loop's connections).
 * @param {any} plan a result's plan
 * @returns {{ requests: string[], body: boolean, rate: number|null, connections: number|null }}
 */
export function loadSent(plan) {
  const load = plan?.load ?? {};
  const target = plan?.target ?? {};
  const mix = Array.isArray(load.mix) && load.mix.length > 0 ? load.mix : null;
  const path = targetKind(target).external ? urlPath(target.url) : target.path ?? '/';
  return {
    requests: mix ? mix.map((/** @type {any} */ e) => String(e?.name ?? `${e?.method ?? 'GET'} ${e?.path}`)) : [`${load.method ?? 'GET'} ${path}`],
    body: mix ? mix.some((/** @type {any} */ e) => e?.body != null) : load.body != null,
    rate: typeof load.rate === 'number' ? load.rate : null,
    connections: typeof load.connections === 'number' ? load.connections : null,
  };
}

/**
 * The path and query of a --url ('/' where it cannot be read).
 * @param {unknown} url
 */
function urlPath(url) {
  try {
    const u = new URL(String(url));
    return `${u.pathname || '/'}${u.search}`;
  } catch {
    return '/';
  }
}

/**
 * @param {any} beforePlan
 * @param {any} afterPlan
 * @returns {{ differentLoads?: { before: ReturnType<typeof loadSent>, after: ReturnType<typeof loadSent> } }}
 */
function differentLoads(beforePlan, afterPlan) {
  if (!beforePlan?.load || !afterPlan?.load) return {};
  const [before, after] = [loadSent(beforePlan), loadSent(afterPlan)];
  return JSON.stringify(before) === JSON.stringify(after) ? {} : { differentLoads: { before, after } };
}

/**
 * The endpoints of a mix in both results, matched by name, each judged against its own noise.
 * @param {RunResult|DiagnoseResult} current
 * @param {RunResult|DiagnoseResult} baseline
 * @param {readonly Metric[]} table
 * @returns {Array<{ name: string, deltas: Delta[], summary: { changes: number, better: number, worse: number } }>}
 */
function endpointDeltas(current, baseline, table) {
  const before = new Map((baseline.load?.endpoints ?? []).map((e) => [e.name, e]));
  const list = [];
  for (const e of current.load?.endpoints ?? []) {
    const old = before.get(e.name);
    if (!old) continue;
    const deltas = againstMetrics(table).filter((m) => m.endpoint).map((m) => {
      const judge = m.noise === 'rate' ? NOISE.none : NOISE[/** @type {string} */ (m.noise)];
      // filtered on m.endpoint above
      return judge({ ...m, read: (r) => /** @type {NonNullable<Metric['endpoint']>} */ (m.endpoint)(r.load) }, { load: old }, { load: e });
    });
    const marked = deltas.filter((d) => d.significant);
    list.push({ name: e.name, deltas, summary: { changes: marked.length, better: marked.filter((d) => d.better).length, worse: marked.filter((d) => !d.better).length } });
  }
  return list;
}

/**
 * What a run measured, to tell two results of different targets apart: its kind and the
 * strategy, URL or command line.
 * @param {{ target?: TargetFields }} [plan] a run plan, as the baseline file holds it
 * @returns {{ kind: string|null, name: string|null }}
 */
export function targetOf(plan) {
  /** @type {TargetFields} */
  const target = plan?.target ?? {};
  /** @type {Record<string, unknown>} */
  const names = { strategy: target.strategy, url: target.url, command: Array.isArray(target.command) ? target.command.join(' ') : target.command };
  const name = target.kind === undefined ? undefined : names[target.kind];
  return { kind: target.kind ?? null, name: typeof name === 'string' ? name : null };
}

/**
 * @param {string} metric
 * @param {string} unit
 * @param {number|null|undefined} before
 * @param {number|null|undefined} after
 * @param {boolean} higherIsBetter
 * @param {boolean|null} significant
 * @param {object} noise
 * @returns {Delta}
 */
function delta(metric, unit, before, after, higherIsBetter, significant, noise) {
  const known = Number.isFinite(before) && Number.isFinite(after);
  // known: both are finite numbers
  const [b, a] = [/** @type {number} */ (before), /** @type {number} */ (after)];
  const changePct = known && b !== 0 ? ((a - b) / b) * 100 : null;
  const better = known && a !== b ? (a > b) === higherIsBetter : null;
  return { metric, unit, before: before ?? null, after: after ?? null, changePct, significant: known ? significant : null, better, noise };
}

/**
 * Mean and standard error of the per-second request counts of the measured window.
 * @param {LoadFigures} load
 */
function rateSpread(load) {
  const counts = (load.series ?? []).map((s) => s.requests).filter(Number.isFinite);
  if (counts.length < AGAINST_MIN_SECONDS) return null;
  const m = counts.reduce((s, v) => s + v, 0) / counts.length;
  const variance = counts.reduce((s, v) => s + (v - m) ** 2, 0) / (counts.length - 1);
  return { seconds: counts.length, se: Math.sqrt(variance / counts.length) };
}

/**
 * A rate: the per-second counts' standard errors, combined, times AGAINST_Z.
 * @param {Metric} m
 * @param {Measured} baseline
 * @param {Measured} current
 */
function rpsDelta(m, baseline, current) {
  const sa = rateSpread(loadOf(baseline));
  const sb = rateSpread(loadOf(current));
  const before = m.read(baseline).value;
  const after = m.read(current).value;
  if (!sa || !sb) return delta(m.id, m.unit, before, after, true, null, { reason: 'too-few-seconds', minSeconds: AGAINST_MIN_SECONDS });
  const marginRps = AGAINST_Z * Math.hypot(sa.se, sb.se);
  const diff = (after ?? 0) - (before ?? 0);
  return delta(m.id, m.unit, before, after, true, Math.abs(diff) > marginRps, { marginRps, seconds: [sa.seconds, sb.seconds] });
}

/**
 * A latency percentile: the two histograms' confidence intervals of it do not overlap.
 * @param {Metric} m
 * @param {Measured} baseline
 * @param {Measured} current
 */
function percentileDelta(m, baseline, current) {
  // the 'percentile' noise model is named by latency metrics only, which have one
  const percentile = /** @type {number} */ (m.percentile);
  const metric = m.id;
  const a = loadOf(baseline);
  const b = loadOf(current);
  const ia = percentileInterval(a.histogram, percentile, AGAINST_Z);
  const ib = percentileInterval(b.histogram, percentile, AGAINST_Z);
  const before = m.read(baseline).value;
  const after = m.read(current).value;
  if (!ia || !ib) return delta(metric, 'ms', before, after, false, null, { reason: 'no-histogram' });
  // The interval needs a few requests beyond the percentile on both sides (p99.9 of 500 requests has none).
  const tail = Math.min(ia.count, ib.count) * (1 - percentile / 100);
  if (tail < AGAINST_MIN_TAIL_REQUESTS) return delta(metric, 'ms', before, after, false, null, { reason: 'too-few-requests', minRequests: Math.round(AGAINST_MIN_TAIL_REQUESTS / (1 - percentile / 100)) });
  const apart = ia.highMs < ib.lowMs || ib.highMs < ia.lowMs;
  return delta(metric, 'ms', before, after, false, apart, { before: [ia.lowMs, ia.highMs], after: [ib.lowMs, ib.highMs] });
}

/**
 * A measured thing's load, or no figures.
 * @param {Measured} measured
 * @returns {LoadFigures}
 */
function loadOf(measured) {
  return measured.load ?? {};
}

/**
 * Error shares of the requests sent: a two-proportion z-test.
 * @param {string} metric
 * @param {LoadFigures} a
 * @param {LoadFigures} b
 */
function errorsDelta(metric, a, b) {
  const ea = a.errors?.total ?? null;
  const eb = b.errors?.total ?? null;
  const na = a.attempts ?? attemptsOf(a);
  const nb = b.attempts ?? attemptsOf(b);
  if (ea === null || eb === null || !Number.isFinite(ea) || !Number.isFinite(eb) || na === 0 || nb === 0) return delta(metric, 'count', ea, eb, false, null, { reason: 'no-requests' });
  // The shares are of requests that failed: responses no request asked for are in the count, in no request
  // (a server that answered each request twice read "102.8% → 0.00% of requests").
  const fa = Math.max(0, ea - (a.unsolicited ?? 0));
  const fb = Math.max(0, eb - (b.unsolicited ?? 0));
  const pa = fa / na;
  const pb = fb / nb;
  const pooled = (fa + fb) / (na + nb);
  const se = Math.sqrt(pooled * (1 - pooled) * (1 / na + 1 / nb));
  const significant = ea !== eb && (se === 0 ? true : Math.abs(pb - pa) > AGAINST_Z * se);
  return delta(metric, 'count', ea, eb, false, significant, { shareBefore: pa, shareAfter: pb });
}

/**
 * Two compare results, row by row (same workload and strategy): rps and p99
 * medians with the repeats' spread as the noise, errors summed over the repeats.
 * @param {CompareResult} current
 * @param {CompareResult} baseline
 * @param {readonly import('./metrics.js').Metric[]} [table] the metric table: every metric with a `compareNoise`
 * @returns {{ id: 'against', rows: { workload: string, strategy: string, deltas: Delta[] }[], unmatched: string[], summary: object, baselineCut?: 'stopped-early'|'failed' }}
 */
export function againstCompareBaseline(current, baseline, table = METRICS) {
  const metrics = againstMetrics(table, 'compareNoise');
  const before = new Map((baseline.rows ?? []).map((r) => [`${r.workload}\0${r.strategy}`, r]));
  const rows = [];
  const unmatched = [];
  for (const row of current.rows ?? []) {
    const old = before.get(`${row.workload}\0${row.strategy}`);
    if (!old) {
      unmatched.push(`${row.strategy} · ${row.workload}`);
      continue;
    }
    // A row none of whose requests succeeded has the errors' rate and latency, no figure of the server's: a change
    // against it is none (a row turned all-500 read "req/s 51 → 51 same", and rps-change>-5% passed it).
    const [oldWhy, newWhy] = [successless(old, baseline, table), successless(row, current, table)];
    rows.push({
      workload: row.workload,
      strategy: row.strategy,
      deltas: metrics.map((m) => (m.compareNoise === 'share'
        ? repeatErrors(m.id, old, row, baseline, current)
        : oldWhy.has(m.id) || newWhy.has(m.id)
          ? delta(m.id, m.unit, oldWhy.has(m.id) ? null : spreadOf(m, old, baseline)?.median, newWhy.has(m.id) ? null : spreadOf(m, row, current)?.median, m.better === 'higher', null, { reason: 'no-successes' })
          // againstMetrics(table, 'compareNoise') keeps metrics that name compareField with their 'spread'
          : spreadDelta(m.id, m.unit, spreadOf(m, old, baseline), spreadOf(m, row, current), m.better === 'higher'))),
    });
  }
  const marked = rows.flatMap((r) => r.deltas).filter((d) => d.significant);
  return {
    id: 'against',
    rows,
    unmatched,
    summary: { changes: marked.length, better: marked.filter((d) => d.better).length, worse: marked.filter((d) => !d.better).length },
    ...baselineCut(baseline),
  };
}

/**
 * A compare row's spread of a metric over its repeats: its rate of successful responses for rps, the row's field else.
 * @param {import('./metrics.js').Metric} m
 * @param {CompareRow} row
 * @param {CompareResult} result
 * @returns {Spread|undefined}
 */
function spreadOf(m, row, result) {
  if (m.id === 'rps') return rowSucceededRpsSpread(row, (result.runs ?? []).filter((r) => r.workload === row.workload && r.strategy === row.strategy));
  // againstMetrics(table, 'compareNoise') keeps metrics that name compareField with their 'spread'
  return row[/** @type {string} */ (m.compareField)];
}

/**
 * The metrics of a compare row that have no figure because none of its requests succeeded (or none was measured).
 * @param {CompareRow} row
 * @param {CompareResult} result
 * @param {readonly import('./metrics.js').Metric[]} table
 * @returns {Set<string>}
 */
function successless(row, result, table) {
  const runs = (result.runs ?? []).filter((r) => r.workload === row.workload && r.strategy === row.strategy);
  return new Set(measureRowMetrics(row, runs, table).filter((f) => f.why === 'no-successes' || f.why === 'no-responses').map((f) => f.id));
}

/**
 * A compare row's figure over its repeats (compare-table.js's spread).
 * @typedef {{ n: number, median: number|null, min: number, max: number }} Spread
 */

/**
 * @param {string} metric
 * @param {string} unit
 * @param {Spread|undefined} a
 * @param {Spread|undefined} b
 * @param {boolean} higherIsBetter
 */
function spreadDelta(metric, unit, a, b, higherIsBetter) {
  if (!a || !b || a.n < 2 || b.n < 2) return delta(metric, unit, a?.median, b?.median, higherIsBetter, null, { reason: 'one-repeat' });
  return delta(metric, unit, a.median, b.median, higherIsBetter, !overlaps(a, b), { before: [a.min, a.max], after: [b.min, b.max], repeats: [a.n, b.n] });
}

/** @typedef {NonNullable<CompareResult['rows']>[number]} CompareRow */

/**
 * @param {string} metric
 * @param {CompareRow} oldRow
 * @param {CompareRow} newRow
 * @param {CompareResult} baseline
 * @param {CompareResult} current
 */
function repeatErrors(metric, oldRow, newRow, baseline, current) {
  // The row's errors over its attempts (metrics.js rowAttempts): requests + errors counted each 500 twice.
  /** @type {(row: CompareRow, result: CompareResult) => LoadFigures} */
  const wrap = (row, result) => ({ attempts: rowAttempts((result.runs ?? []).filter((r) => r.workload === row.workload && r.strategy === row.strategy)), errors: { total: row.errors } });
  return errorsDelta(metric, wrap(oldRow, baseline), wrap(newRow, current));
}
