/**
 * --assert evaluation: the figures a gate reads from a run, diagnose or compare
 * result, and each assertion checked against them. Pure and wordless: ids and
 * figures out; src/report/assert-text.js words them.
 */
import { METRICS, measureMetrics, measureRowMetrics, measureEndpointMetrics, metricOf } from './metrics.js';
import { isFiniteNumber } from './stats.js';
import { stalledAtEnd, lostAtEnd } from '../load/stall.js';
import { targetOf } from '../base/target-kinds.js';

/** @typedef {import('../base/result-types.js').RunResult} RunResult */
/** @typedef {import('../base/result-types.js').DiagnoseResult} DiagnoseResult */
/** @typedef {import('../base/result-types.js').CompareResult} CompareResult */
/** @typedef {import('../base/result-types.js').Endpoint} Endpoint */
/** @typedef {readonly import('./metrics.js').Metric[]} MetricTable */

/** @typedef {{ value: number|null, of?: number|null, process?: string|null, why?: string, unsolicited?: number }} GateFigure one metric's figure */

/**
 * @typedef {object} GateFigures what one measured target offers to --assert
 * @property {string|null} where  null for a single run; 'strategy · workload' for a compare row
 * @property {Record<string, GateFigure>} figures
 *   the metrics block by metric id (src/analysis/metrics.js); a compare row holds only the metrics with a row figure
 * @property {Record<string, number|null>|null} changes % change against a baseline (--against), by metric
 * @property {Record<string, Record<string, GateFigure>>} [endpoints] a mix's endpoints' figures by metric id, under the
 *   entry's name and under `METHOD path` (with and without its query)
 * @property {boolean} [partial] the run was stopped before its end (Ctrl-C, SIGTERM): its figures cover part of it
 * @property {boolean} [generatorStopped] spawnbench itself did not run for a while measuring (Ctrl-Z, SIGSTOP): its figures hold the gap
 * @property {boolean} [failed] the measurement failed (its `failures`: the server crashed, broke the protocol, …)
 * @property {boolean} [stalled] the server stopped answering: requests unanswered at the end, longer than any answered (load/stall.js)
 * @property {boolean} [noRows] a compare result with no row: no run of it ended
 * @property {boolean} [comparisonStopped] a compare row of a comparison stopped before its end (Ctrl-C, SIGTERM): rows of the runs not ended are missing
 * @property {boolean} [outside] the server was measured from outside (--url): no figure of the in-process probe can be there
 * @property {string|null} [probeReason] why the probe reported nothing (samples.probe.reason), where it did not
 * @property {'stopped-early'|'failed'|null} [baselineCut] the --against baseline's figures cover part of its run: change gates fail
 * @property {number} [lost] measured requests the server never answered while it answered others to the end (load/stall.js
 *   lostAtEnd): in no figure of the load, so the errors gates count them as failed, and a latency gate whose tail they reach fails
 * @property {number} [timedOut] measured requests that failed by --timeout: at least that slow, in no latency figure, so a
 *   latency gate whose tail they reach fails
 * @property {Record<string, number>} [endpointsTimedOut] the same, of each endpoint, under the names a filter may give it
 */

/**
 * The gate figures of a result: one entry for a run or diagnose, one per row for a compare.
 * @param {RunResult|DiagnoseResult|CompareResult} result
 * @param {MetricTable} [table] the metric table
 * @returns {GateFigures[]}
 */
export function gateFigures(result, table = METRICS) {
  if (result.kind === 'compare') return compareFigures(result, table);
  return [{ where: null, figures: byId(measureMetrics(result, table)), changes: changesOf(result.against), baselineCut: result.against?.baselineCut ?? null, endpoints: endpointFigures(result, table), partial: Boolean(result.stoppedEarly), generatorStopped: Boolean(result.load?.generatorStopped), failed: (result.failures?.length ?? 0) > 0, stalled: stalledAtEnd(result.load) !== null, lost: lostAtEnd(result.load)?.count ?? 0, timedOut: timedOutOf(result.load), endpointsTimedOut: endpointsTimedOut(result), outside: targetOf(result.plan?.target).external, probeReason: result.samples?.probe?.available === false ? result.samples.probe.reason ?? null : null }];
}

/**
 * Each endpoint's figures by the names a filter may give it: its name or `METHOD path`, else
 * `METHOD path` without the query. A name two endpoints answer to at once (`GET /items` for
 * `/items?page=1` and `/items?page=2`) reads neither: its figures are null, why
 * 'ambiguous-endpoint', and its gates fail (a gate read the last of them, and passed on the
 * fast page while the slow one was 8 times its limit).
 * @param {RunResult|DiagnoseResult} result
 * @param {MetricTable} table
 */
function endpointFigures(result, table) {
  /** @type {Record<string, Record<string, GateFigure>>} */
  const byName = {};
  for (const [name, entries] of endpointNames(result.load?.endpoints ?? [])) {
    const [e] = entries;
    byName[name] = entries.size === 1 ? byId(measureEndpointMetrics(e, table)) : ambiguous(table);
  }
  return byName;
}

/**
 * The endpoints each name of a gate's filter reads: an entry's name and `METHOD path` first,
 * else `METHOD path` without its query. More than one endpoint under a name: it is ambiguous.
 * Read from a result's endpoints, or from a mix's entries before the run (the same names).
 * @template {{ name: string, method: string, path: string }} E
 * @param {E[]} endpoints
 * @returns {Map<string, Set<E>>}
 */
export function endpointNames(endpoints) {
  /** @type {Map<string, { rank: number, entries: Set<E> }>} */
  const claims = new Map();
  /** @type {(name: string, rank: number, e: E) => void} */
  const claim = (name, rank, e) => {
    const known = claims.get(name);
    if (!known || rank < known.rank) claims.set(name, { rank, entries: new Set([e]) });
    else if (rank === known.rank) known.entries.add(e);
  };
  for (const e of endpoints) {
    // As a gate's filter reads it (its spaces trimmed and collapsed): an entry named "  spaced  " was shown as "spaced"
    // and no filter could name it.
    claim(String(e.name).trim().replace(/\s+/g, ' '), 0, e);
    claim(`${e.method} ${e.path}`, 0, e);
    claim(`${e.method} ${String(e.path).split('?')[0]}`, 1, e);
  }
  return new Map([...claims].map(([name, { entries }]) => [name, entries]));
}

/**
 * Each endpoint's requests that failed by --timeout, by the names a filter may give it (an ambiguous name: none).
 * @param {RunResult|DiagnoseResult} result
 * @returns {Record<string, number>}
 */
function endpointsTimedOut(result) {
  /** @type {Record<string, number>} */
  const byName = {};
  for (const [name, entries] of endpointNames(result.load?.endpoints ?? [])) {
    if (entries.size === 1) byName[name] = timedOutOf([...entries][0]);
  }
  return byName;
}

/**
 * The figures of a name more than one endpoint answers to: none.
 * @param {MetricTable} table
 * @returns {Record<string, GateFigure>}
 */
const ambiguous = (table) => Object.fromEntries(table.filter((m) => m.endpoint).map((m) => [m.id, { value: null, why: 'ambiguous-endpoint' }]));

/**
 * A metrics block by metric id.
 * @param {import('./metrics.js').MetricFigure[]} figures
 * @returns {Record<string, GateFigure>}
 */
const byId = (figures) => Object.fromEntries(figures.map((f) => [f.id, f]));

/**
 * @param {CompareResult} result
 * @param {MetricTable} table
 * @returns {GateFigures[]}
 */
function compareFigures(result, table) {
  const againstRows = result.against?.rows ?? [];
  // A comparison stopped before its first run ended has no row: its gates have nothing to read, and fail
  // (with no target, no gate was checked at all, and `report --assert 'rps>=1'` passed it, exit 0).
  if ((result.rows ?? []).length === 0) return [{ where: null, figures: {}, changes: null, noRows: true }];
  return (result.rows ?? []).map((row) => {
    const against = againstRows.find((r) => r.workload === row.workload && r.strategy === row.strategy);
    const runs = (result.runs ?? []).filter((r) => r.workload === row.workload && r.strategy === row.strategy);
    const figures = byId(measureRowMetrics(row, runs, table));
    // A run that failed while measured (the server crashed, stopped answering) leaves the row's figures short: no gate passes on them.
    // A server that never started leaves `failed` on the row and its runs, with no failures listed:
    // its errors figure read 0, and `report cmp.json --assert errors=0` passed, exit 0.
    const failed = Boolean(row.failed) || runs.some((r) => (r.failures?.length ?? 0) > 0 || Boolean(r.failed));
    // A comparison stopped before its end holds only the rows whose runs ended: a server whose run had not
    // ended has no row and no gate, so `report cmp.json --assert errors=0` passed on the server never measured.
    // Its runs' requests that failed by --timeout (each run's error texts by kind), for the latency gates as a run's.
    const timedOut = runs.reduce((n, r) => n + (Array.isArray(r.errorTexts) ? r.errorTexts : []).filter((e) => e?.kind === 'timeout').reduce((m, e) => m + (isFiniteNumber(e.count) ? e.count : 0), 0), 0);
    return { where: `${row.strategy} · ${row.workload}`, figures, changes: result.against ? changesOf(against ?? { deltas: [] }) : null, baselineCut: result.against?.baselineCut ?? null, failed, comparisonStopped: Boolean(result.stoppedEarly), timedOut };
  });
}

/**
 * @param {{ deltas?: import('../base/result-types.js').AgainstDelta[] }|undefined} against
 * @returns {Record<string, number|null>|null}
 */
function changesOf(against) {
  if (!against?.deltas) return null;
  return Object.fromEntries(against.deltas.map((d) => [d.metric, d.changePct]));
}

/**
 * The measured value an assertion compares, in the assertion's unit: the metric's
 * figure, a count as a share of its whole (`errors<=1%`), or a change against the baseline.
 * @param {import('../plan/assert-expr.js').Assertion} a
 * @param {GateFigures} f
 * @returns {{ measured: number|null, process: string|null, why: string|null }}
 */
export function measuredFor(a, f) {
  if (f.noRows) return { measured: null, process: null, why: 'no-rows' };
  // A run of one request, or a compare row: no figure per endpoint at all ("no endpoint in the result's mix" of a result with none).
  if (a.endpoint && Object.keys(f.endpoints ?? {}).length === 0) return { measured: null, process: null, why: 'no-endpoints' };
  const figure = a.endpoint ? f.endpoints?.[a.endpoint]?.[a.metric] ?? { value: null } : f.figures[a.metric];
  // A change against a baseline whose figures cover part of its run is no change of the target: it fails, saying why.
  // A change this run has no figure for says why its own figure is missing (no successes), not "a baseline that has it".
  if (!figure) return changeFor(a, f);
  const lost = lostFigure(a, f, figure);
  if (lost) return lost;
  const timedOut = timedOutFigure(a, f, figure);
  if (timedOut) return timedOut;
  const { value, of = null, process = null, why = null, unsolicited = 0 } = { ...figure, ...(a.metric === 'errors' && !a.endpoint ? lostCounted(f, figure) : {}) };
  if (a.unit !== '%' || !isFiniteNumber(value)) return { measured: value ?? null, process, why };
  // A share of the requests counts the failed ones: responses no request asked for failed none (a server that
  // answered every request twice read 103%), yet a stream that broke so fails the gate, saying why.
  const failed = Math.max(0, value - unsolicited);
  // value is finite here; a missing whole (of: null) is not above 0
  return { measured: (of ?? 0) > 0 ? (failed * 100) / /** @type {number} */ (of) : failed > 0 ? 100 : 0, process, why: why ?? (unsolicited > 0 ? 'unsolicited' : null) };
}

/**
 * A change gate's figure: the change against the baseline, or why there is none (the baseline was cut short, or this
 * result's own figure is missing and says why: `p99-change` on a run with no success read "needs --against with a
 * baseline that has this figure" of a baseline that had it).
 * @param {import('../plan/assert-expr.js').Assertion} a
 * @param {GateFigures} f
 * @returns {{ measured: number|null, process: string|null, why: string|null }}
 */
function changeFor(a, f) {
  const base = a.metric.replace(/-change$/, '');
  const measured = f.changes?.[base] ?? null;
  if (f.baselineCut) return { measured, process: null, why: `baseline-${f.baselineCut}` };
  // A latency whose tail this run's timed-out requests reach is no figure to compare: it read "better" beside them.
  const own = f.figures[base];
  if (own && timedOutFigure({ ...a, metric: base }, f, own)) return { measured, process: null, why: 'timed-out' };
  return { measured, process: null, why: measured === null ? f.figures[base]?.why ?? null : null };
}

/**
 * The errors figure with the requests the server lost counted as failed: `errors=0` passed, "measured 0", on a run
 * whose server never answered 20 of its requests while it answered the others (their note said so, the gate did not).
 * @param {GateFigures} f
 * @param {GateFigure} figure
 * @returns {Partial<GateFigure>}
 */
function lostCounted(f, figure) {
  const lost = f.lost ?? 0;
  if (lost === 0 || !isFiniteNumber(figure.value)) return {};
  return { value: figure.value + lost, of: isFiniteNumber(figure.of) ? figure.of + lost : figure.of };
}

/**
 * A latency gate whose percentile the lost requests reach (their share of all the requests above 1 − the percentile;
 * max: any): its figure leaves out requests that never got an answer, so it cannot pass.
 * @param {import('../plan/assert-expr.js').Assertion} a
 * @param {GateFigures} f
 * @param {GateFigure} figure
 * @returns {{ measured: number|null, process: string|null, why: string }|null}
 */
function lostFigure(a, f, figure) {
  const lost = f.lost ?? 0;
  const metric = metricOf(a.metric);
  // Which endpoints the lost requests went to is not recorded: any of them may be this one's, so its gate cannot pass.
  if (lost > 0 && a.endpoint && (metric?.kind === 'latency' || metric?.kind === 'errors')) return { measured: figure.value ?? null, process: null, why: 'lost-requests-endpoint' };
  if (lost === 0 || a.endpoint || metric?.kind !== 'latency') return null;
  const attempts = f.figures.errors?.of;
  const share = isFiniteNumber(attempts) ? lost / (attempts + lost) : 1;
  const tail = metric.percentile == null ? 0 : 1 - metric.percentile / 100;
  return share > tail ? { measured: figure.value ?? null, process: figure.process ?? null, why: 'lost-requests' } : null;
}

/**
 * A latency gate whose percentile the requests that timed out reach (their share of the requests above 1 − the
 * percentile; max: any): each took at least --timeout and is in no latency figure, which holds successes only.
 * `max<9ms` passed, "measured 7.92 ms", on a run where half the requests timed out at --timeout 10ms.
 * @param {import('../plan/assert-expr.js').Assertion} a
 * @param {GateFigures} f
 * @param {GateFigure} figure
 * @returns {{ measured: number|null, process: string|null, why: string }|null}
 */
function timedOutFigure(a, f, figure) {
  const timedOut = (a.endpoint ? f.endpointsTimedOut?.[a.endpoint] : f.timedOut) ?? 0;
  const metric = metricOf(a.metric);
  if (timedOut === 0 || metric?.kind !== 'latency' || !isFiniteNumber(figure.value)) return null;
  const attempts = (a.endpoint ? f.endpoints?.[a.endpoint]?.errors : f.figures.errors)?.of;
  const share = isFiniteNumber(attempts) && attempts > 0 ? timedOut / attempts : 1;
  const tail = metric.percentile == null ? 0 : 1 - metric.percentile / 100;
  return share > tail ? { measured: figure.value ?? null, process: figure.process ?? null, why: 'timed-out' } : null;
}

/**
 * The measured requests that failed by --timeout (load.errors.timeout, or an endpoint's).
 * @param {{ errors?: { timeout?: number|null }|null }|null|undefined} load
 * @returns {number}
 */
function timedOutOf(load) {
  const n = load?.errors?.timeout;
  return isFiniteNumber(n) && n > 0 ? n : 0;
}

/** @type {Record<import('../plan/assert-expr.js').Assertion['op'], (m: number, v: number) => boolean>} */
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
 * @property {string} [why] 'no-successes' or 'no-responses': why nothing (or 0 req/s) was measured; 'run-failed': the
 *   measurement failed (the server crashed, …); 'stopped-answering': requests unanswered at the end are in no figure; 'ambiguous-endpoint': the
 *   endpoint filter names more than one endpoint of the mix; 'no-rows': a compare with no row; 'comparison-stopped-early': a row of a comparison stopped before its end (the rows of runs not ended are missing); 'no-endpoints': an endpoint filter on a result with no figure per endpoint (no mix, a compare row); 'outside': a probe figure of a server measured from outside (--url); 'lost-requests': requests the server never answered while it answered others reach the latency figure's tail; 'lost-requests-endpoint': an endpoint's errors or latency gate beside such requests, whose endpoints are not known; 'baseline-stopped-early', 'baseline-failed': a change against a baseline whose figures cover part of its run; 'generator-stopped': spawnbench itself did not run for a while measuring (Ctrl-Z, SIGSTOP), its figures hold the gap; 'stopped-early': the run was stopped before its end, its figure covers
 *   part of it; 'unsolicited': the server sent responses no request asked for (a share of failed requests leaves them out). The gate fails.
 * @property {boolean} pass   a figure that was not measured fails: a gate must not pass by default
 * @property {string} [endpoint] the endpoint of a mix it filtered on (`p99{GET /report}<50ms`)
 * @property {string} [probeReason] a probe gate with no figure: why the probe reported nothing (samples.probe.reason)
 */

/**
 * Checks every assertion against every target (one for run/diagnose, one per compare row).
 * @param {import('../plan/assert-expr.js').Assertion[]} assertions
 * @param {GateFigures[]} targets
 * @returns {AssertionOutcome[]}
 */
export function evaluateAssertions(assertions, targets) {
  /** @type {AssertionOutcome[]} */
  const outcomes = [];
  for (const a of assertions) {
    for (const f of targets) {
      const { measured, process, why: noData } = measuredFor(a, f);
      const known = isFiniteNumber(measured);
      // A failed run (exit 1) or one cut short by a signal (130/143) holds figures of part of it: no gate passes on them.
      // One whose server stopped answering leaves the requests it held out of every figure.
      // A probe figure of a server measured from outside (--url) cannot be there: no flag brings it.
      const why = noData ?? (!known ? (f.outside && metricOf(a.metric)?.needs === 'probe' ? 'outside' : null) : f.failed ? 'run-failed' : f.stalled ? 'stopped-answering' : f.partial ? 'stopped-early' : f.generatorStopped ? 'generator-stopped' : f.comparisonStopped ? 'comparison-stopped-early' : null);
      // A figure of a run where nothing succeeded (rps 0, latency null) fails whatever the limit (rps>=0 too).
      const pass = known && !why && COMPARE[a.op](measured, a.value);
      outcomes.push({
        id: /** @type {AssertionOutcome['id']} */ (!known ? 'assert-not-measured' : pass ? 'assert-pass' : 'assert-fail'),
        expr: a.expr,
        metric: a.metric,
        op: a.op,
        limit: a.value,
        unit: a.unit,
        measured: known ? measured : null,
        where: f.where,
        process,
        ...(why ? { why } : {}),
        pass,
        ...(a.endpoint ? { endpoint: a.endpoint } : {}),
        // A probe gate with no figure says why the probe said nothing (a server run as another user, an emptied environment), not "drop --no-probe".
        ...(!known && !why && f.probeReason && metricOf(a.metric)?.needs === 'probe' ? { probeReason: f.probeReason } : {}),
      });
    }
  }
  return outcomes;
}
