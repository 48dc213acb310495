/**
 * --assert evaluation: the figures a gate reads from a run, diagnose or compare
 * result, and each assertion checked against them. Pure and wordless: ids and
 * figures out; src/report/assertions.js words them.
 */
import { median } from './stats.js';

const LATENCY_FIELDS = { p50: 'p50Ms', p90: 'p90Ms', p99: 'p99Ms', p999: 'p999Ms', max: 'maxMs' };

/**
 * @typedef {object} GateFigures what one measured target offers to --assert
 * @property {string|null} where  null for a single run; 'strategy · workload' for a compare row
 * @property {Record<string, number|null>} latency p50 … max, in ms
 * @property {number|null} rps
 * @property {number|null} errors   failed requests
 * @property {number|null} attempts requests sent (completed or failed), for an error share
 * @property {{ value: number, label: string }|null} blocked busiest process's share of time blocked in spawn
 * @property {{ value: number, label: string }|null} elu     busiest event loop
 * @property {Record<string, number|null>|null} changes % change against a baseline (--against), by metric
 */

/**
 * The gate figures of a result: one entry for a run or diagnose, one per row for a compare.
 * @param {object} result RunResult, DiagnoseResult or CompareResult
 * @returns {GateFigures[]}
 */
export function gateFigures(result) {
  if (result.kind === 'compare') return compareFigures(result);
  const load = result.load ?? {};
  const latency = Object.fromEntries(Object.entries(LATENCY_FIELDS).map(([m, f]) => [m, load.latency?.[f] ?? null]));
  const errors = load.errors ?? null;
  return [{
    where: null,
    latency,
    rps: load.rps ?? null,
    errors: errors?.total ?? null,
    attempts: errors ? (load.requests ?? 0) + errors.total - (errors.non2xx ?? 0) - (errors.mismatch ?? 0) : null,
    blocked: busiest(result.samples?.processes, 'blockedFraction'),
    elu: busiest(result.samples?.processes, 'elu'),
    changes: changesOf(result.against),
  }];
}

function compareFigures(result) {
  const againstRows = result.against?.rows ?? [];
  return (result.rows ?? []).map((row) => {
    const against = againstRows.find((r) => r.workload === row.workload && r.strategy === row.strategy);
    const runs = (result.runs ?? []).filter((r) => r.workload === row.workload && r.strategy === row.strategy && !r.partial && !r.failed);
    const requests = runs.reduce((sum, r) => sum + (r.requests ?? 0), 0);
    const p50 = median(runs.map((r) => r.p50Ms));
    return {
      where: `${row.strategy} · ${row.workload}`,
      latency: { p50, p90: null, p99: row.p99Ms?.median ?? null, p999: null, max: null },
      rps: row.failed ? 0 : row.rps?.median ?? null,
      errors: row.errors,
      attempts: requests + row.errors,
      blocked: null,
      elu: null,
      changes: result.against ? changesOf(against ?? { deltas: [] }) : null,
    };
  });
}

/** The process with the highest summary[field] (null when no process reported it: no probe). */
function busiest(processes, field) {
  let best = null;
  for (const p of processes ?? []) {
    const value = p.summary?.[field];
    if (Number.isFinite(value) && (best === null || value > best.value)) best = { value, label: p.label ?? p.key ?? String(p.pid) };
  }
  return best;
}

function changesOf(against) {
  if (!against?.deltas) return null;
  return Object.fromEntries(against.deltas.map((d) => [d.metric, d.changePct]));
}

/**
 * The measured value an assertion compares, in the assertion's unit.
 * @param {import('../assert-expr.js').Assertion} a
 * @param {GateFigures} f
 * @returns {{ measured: number|null, process: string|null }}
 */
export function measuredFor(a, f) {
  if (a.metric in LATENCY_FIELDS) return { measured: f.latency[a.metric] ?? null, process: null };
  if (a.metric === 'rps') return { measured: f.rps, process: null };
  if (a.metric === 'errors') {
    if (a.unit === 'count' || f.errors === null) return { measured: f.errors, process: null };
    return { measured: f.attempts > 0 ? (f.errors * 100) / f.attempts : f.errors > 0 ? 100 : 0, process: null };
  }
  if (a.metric === 'blocked-in-spawn') return { measured: f.blocked?.value ?? null, process: f.blocked?.label ?? null };
  if (a.metric === 'elu') return { measured: f.elu?.value ?? null, process: f.elu?.label ?? null };
  const base = a.metric.replace(/-change$/, '');
  return { measured: f.changes?.[base] ?? null, process: null };
}

const COMPARE = {
  '<': (m, v) => m < v,
  '<=': (m, v) => m <= v,
  '>': (m, v) => m > v,
  '>=': (m, v) => m >= v,
  '=': (m, v) => m === v,
};

/**
 * @typedef {object} AssertionOutcome
 * @property {'assert-pass'|'assert-fail'|'assert-not-measured'} id
 * @property {string} expr
 * @property {string} metric
 * @property {string} op
 * @property {number} limit   in `unit`
 * @property {string} unit
 * @property {number|null} measured in `unit` (null: the result does not hold this figure)
 * @property {string|null} where    the compare row, or null
 * @property {string|null} process  the busiest process, for blocked-in-spawn and elu
 * @property {boolean} pass   a figure that was not measured fails: a gate must not pass by default
 */

/**
 * Checks every assertion against every target (one for run/diagnose, one per compare row).
 * @param {import('../assert-expr.js').Assertion[]} assertions
 * @param {GateFigures[]} targets
 * @returns {AssertionOutcome[]}
 */
export function evaluateAssertions(assertions, targets) {
  const outcomes = [];
  for (const a of assertions) {
    for (const f of targets) {
      const { measured, process } = measuredFor(a, f);
      const known = Number.isFinite(measured);
      const pass = known && COMPARE[a.op](measured, a.value);
      outcomes.push({
        id: !known ? 'assert-not-measured' : pass ? 'assert-pass' : 'assert-fail',
        expr: a.expr,
        metric: a.metric,
        op: a.op,
        limit: a.value,
        unit: a.unit,
        measured: known ? measured : null,
        where: f.where,
        process,
        pass,
      });
    }
  }
  return outcomes;
}
