/**
 * The metric table (k6's shape: a metric carries its own measure, thresholds only
 * parse and compare). Each metric says once:
 * - `id`: its name in --assert, in --against deltas and in `--json` outcomes;
 * - `kind`: how --assert reads its value (src/plan/assert-expr.js): 'latency' (a duration,
 *   us/ms/s), 'rps' (a plain rate), 'errors' (a count, or a share in %), 'fraction'
 *   (a share: 30% or 0.3);
 * - `unit`: the unit of its figures ('ms', 'rps', 'count', 'fraction');
 * - `better`: 'higher' or 'lower', which sets the comparisons --assert allows (a floor
 *   for higher-is-better, a ceiling otherwise; `ops` to say otherwise) and whether a
 *   change is better;
 * - `read(result)`: its figure in a run or diagnose result, `{ value, of?, process? }`
 *   (`of`: the whole a count is a share of; `process`: the busiest process's label);
 * - `row(row, runs)`: its figure in a compare row, or absent when a compare has none;
 * - `cell(cell, steps)`: its figure in a tune cell (one pool size and policy, src/analysis/cells.js),
 *   or absent when a tune has none; a metric with a row or cell figure is a column of the compare
 *   or tune table;
 * - `tick(tick, window)`: its figure in a live LoadTick, for the dashboard: `window` 'interval' is the
 *   last second, 'overall' the phase so far; absent when a tick does not carry it. A live figure counts
 *   every response (a tick does not split the successes' latencies out); the dashboard shows each metric
 *   with a tick figure (`measureTickMetrics`);
 * - `noise`: how --against judges a change between two results ('rate', 'percentile',
 *   'share', 'single-sample', or 'none': shown, never judged; src/analysis/against-deltas.js),
 *   or absent when --against does not compare it;
 *   `compareNoise` the same between two compare results ('spread' of the repeats, 'share');
 * - `needs`: what must be on for it to be measured ('probe'), for the not-measured words;
 * - `format`: how its value is shown ('ms', 'rps', 'count', 'percent': a fraction as 31%,
 *   'fraction': a fraction as 0.93, 'number'), when not what its unit implies (FORMAT_BY_UNIT).
 *   Its label and words live in src/report/metric-text.js under its id; a metric without
 *   words there is shown by its id and unit.
 * Every metric is measured into a result's `metrics` block (`measureMetrics`: id, value,
 * unit, better, format, and the busiest process or the whole a count is of where it has
 * them), which `--json`, the text summary and the HTML report read.
 * A metric with a `noise` also has `<id>-change` for --assert (a signed % against the
 * baseline), except where `change: false`.
 *
 * A new metric is one entry here (and its test). Functions that read the table take it
 * as an argument, defaulting to METRICS, so a test can add one without touching them.
 */
import { median, isFiniteNumber } from './stats.js';
import { requestOutcome, runsOutcome, runAttempts } from './request-outcome.js';

/** @typedef {import('../base/result-types.js').LoadResult} LoadResult */
/** @typedef {import('../base/result-types.js').Endpoint} Endpoint */
/** @typedef {import('../base/result-types.js').MetricFigure} ResultMetricFigure */
/**
 * @typedef {{ total?: number|null, non2xx?: number, mismatch?: number }} ErrorCounts
 * @typedef {{ requests?: number, errors?: ErrorCounts|null, unsolicited?: number }} Attempted a load, or one endpoint of its mix
 * @typedef {{ load?: Partial<LoadResult>|null, outcome?: import('./request-outcome.js').RequestOutcome }} Measured
 *   a run or diagnose result, as the gates read its load (a view's copy may hold only part of it)
 * @typedef {{ partial?: boolean, failed?: unknown, rps?: number|null, succeeded?: number, requests?: number, attempts?: number,
 *   errors?: number, p50Ms?: number|null }} RowRun one run of a compare row, or one step of a tune cell
 * @typedef {{ failed?: unknown, rps?: { median: number|null }|null, errors?: number }} RowFigures a compare row, or a tune cell
 */

/**
 * The process with the highest summary[field] (null when no process reported it: no probe).
 * @param {{ samples?: import('../base/result-types.js').SamplesSummary|null }} result
 * @param {'blockedFraction'|'elu'|'busy'} field
 * @returns {{ value: number|null, process: string|null }}
 */
function busiest(result, field) {
  /** @type {{ value: number, process: string }|null} */
  let best = null;
  for (const p of result.samples?.processes ?? []) {
    const value = p.summary?.[field];
    if (isFiniteNumber(value) && (best === null || value > best.value)) best = { value, process: p.label ?? p.key ?? String(p.pid) };
  }
  return best ?? { value: null, process: null };
}

/**
 * Requests sent (completed or failed) of a load: refused connections count, non-2xx and mismatches are already in `requests`.
 * @param {Attempted|null|undefined} load
 */
export function attemptsOf(load) {
  /** @type {ErrorCounts} */
  const e = load?.errors ?? {};
  return (load?.requests ?? 0) + (e.total ?? 0) - (e.non2xx ?? 0) - (e.mismatch ?? 0) - (load?.unsolicited ?? 0);
}

/**
 * What the gates read of a run's load: only successful responses count (a run of 500s
 * served nothing). `why` says why a figure is null or 0: no request succeeded
 * ('no-successes'), or no response was measured at all ('no-responses': a run of a
 * few ms, one stopped in its warm-up).
 * @param {Measured} result
 * @returns {{ rps: number|null, latency: import('../base/result-types.js').Latency|null, why: 'no-successes'|'no-responses'|null }}
 */
export function succeededFigures(result) {
  const load = result.load ?? null;
  if (!load) return { rps: null, latency: null, why: null };
  const outcome = result.outcome ?? requestOutcome(load);
  const why = outcome.attempts === 0 ? 'no-responses' : outcome.succeeded === 0 ? 'no-successes' : null;
  // A result saved before succeededLatency has only every response's latency: the best it holds.
  const latency = why ? null : load.succeededLatency ?? load.latency ?? null;
  return { rps: outcome.attempts === 0 ? null : outcome.succeededRps, latency, why };
}

/**
 * A figure read from succeededFigures(), with `why` where it has no data.
 * @param {number|null|undefined} value
 * @param {string|null} why
 */
function succeeded(value, why) {
  return { value: isFiniteNumber(value) ? value : null, ...(why ? { why } : {}) };
}

/**
 * An endpoint's figure as its gates read it: only successes count, as for the whole run. An
 * endpoint none of whose requests succeeded has no figure (why: 'no-successes'). Its rate is
 * scaled by its success share; its latencies are its own histogram's, which counts every
 * response of the endpoint (failures included) where some succeeded.
 * @param {any} e one of load.endpoints
 * @param {number|null|undefined} value
 */
function endpointSucceeded(e, value) {
  const attempts = attemptsOf(e);
  const why = attempts === 0 ? 'no-responses' : (e.errors?.total ?? 0) >= attempts ? 'no-successes' : null;
  return succeeded(why ? null : value, why);
}

/**
 * A compare row's runs that measured something.
 * @param {RowRun[]} runs
 */
const measuredRuns = (runs) => runs.filter((r) => !r.partial && !r.failed);

/**
 * The requests a compare row's (or tune cell's) errors are a share of: each measured run's
 * attempts (its responses, and its failures without one), and the errors of the runs that did
 * not finish. `requests` counts every response, a 500 too: adding the errors to it counted a
 * 500 twice, and 45% of requests failing read 31% (`errors<=40%` passed).
 * @param {RowRun[]} runs
 */
export function rowAttempts(runs) {
  return runs.reduce((sum, r) => {
    if (r.partial || r.failed) return sum + (r.errors ?? 0);
    return sum + runAttempts(r).attempts;
  }, 0);
}

/**
 * Requests the runs' servers lost: never answered while they answered others (load/stall.js lostAtEnd).
 * @param {Array<{ lost?: number }>} runs
 */
const lostOf = (runs) => runs.reduce((sum, r) => sum + (r.lost ?? 0), 0);

/**
 * 'no-successes' when a compare row's runs got responses and none succeeded: its rps and latency gates fail.
 * @param {RowRun[]} runs
 */
function rowWhy(runs) {
  return runsOutcome(measuredRuns(runs)).noneSucceeded ? 'no-successes' : null;
}

/**
 * A compare row's latency figure: null, and why, when none of its requests succeeded.
 * @param {RowFigure} figure
 * @returns {RowFigure}
 */
function rowLatency(figure) {
  return (row, runs) => {
    const why = rowWhy(runs);
    return why ? { value: null, why } : figure(row, runs);
  };
}

/**
 * A compare row's successful responses a second: the median of its runs' rates scaled to
 * their successes (runs saved before `succeeded`: their requests less their errors, runAttempts()).
 * @param {RowFigures} row
 * @param {RowRun[]} runs
 * @returns {number|null|{ value: number, why: string }}
 */
function rowSucceededRps(row, runs) {
  if (row.failed) return 0;
  const why = rowWhy(runs);
  if (why) return { value: 0, why };
  const rates = measuredRuns(runs).flatMap((run) => {
    const { rps, requests } = run;
    if (!isFiniteNumber(rps)) return [];
    const ok = runAttempts(run).succeeded;
    return [typeof requests === 'number' && requests > 0 && ok !== requests ? (rps * ok) / requests : rps];
  });
  return rates.length ? median(rates) : row.rps?.median ?? null;
}

/**
 * A compare row's successful responses a second over its repeats, as their spread (min, median, max): what --against
 * compares, as the rps gate reads successes (a row half of whose requests turned 500 kept "req/s 51 → 51 same" and
 * passed rps-change>-5% beside the rps gate's 25 req/s). The row's own spread where its runs do not say what succeeded.
 * @param {Record<string, any>} row a compare row
 * @param {RowRun[]} runs
 * @returns {{ median: number|null, min: number, max: number, n: number }|undefined}
 */
export function rowSucceededRpsSpread(row, runs) {
  const rates = measuredRuns(runs).flatMap((run) => (isFiniteNumber(run.rps) && typeof run.requests === 'number' && run.requests > 0 ? [(run.rps * runAttempts(run).succeeded) / run.requests] : []));
  if (rates.length === 0 || rates.length !== measuredRuns(runs).length) return row.rps;
  return { median: median(rates), min: Math.min(...rates), max: Math.max(...rates), n: rates.length };
}

/**
 * @param {string} id
 * @param {string} field
 * @param {number|null} percentile
 * @param {RowFigure} [row]
 * @param {{ live?: boolean }} [options] live: false, a tick does not carry it (its windows hold p50, p90, p99 and max)
 * @returns {Metric}
 */
function latency(id, field, percentile, row, { live = true } = {}) {
  return {
    id,
    kind: 'latency',
    unit: 'ms',
    better: 'lower',
    field,
    read: (result) => {
      const { latency, why } = succeededFigures(result);
      return succeeded(latency?.[/** @type {keyof import('../base/result-types.js').Latency} */ (field)], why); // field: a Latency key ('p99Ms')
    },
    endpoint: (e) => endpointSucceeded(e, e.latency?.[field]),
    ...(row ? { row } : {}),
    ...(live ? { tick: (/** @type {any} */ tick, /** @type {TickWindow} */ window) => ({ value: tick?.[window]?.[field] ?? null }) } : {}),
    noise: percentile === null ? 'single-sample' : 'percentile',
    percentile,
  };
}

/** @typedef {'ms'|'rps'|'count'|'percent'|'fraction'|'number'} MetricFormat */
/** @typedef {'interval'|'overall'} TickWindow a live tick's last second, or its phase so far */
/** @typedef {(row: any, runs: any[]) => number|null|{ value: number|null, why?: string }} RowFigure a compare row's figure, with why where it has no data */
/** @typedef {(cell: any, steps: any[]) => number|null|{ value: number|null, why?: string }} CellFigure a tune cell's figure, with why where it has no data */

/**
 * @typedef {object} Metric
 * @property {string} id
 * @property {'latency'|'rps'|'errors'|'fraction'} kind
 * @property {string} unit
 * @property {'higher'|'lower'} better
 * @property {string[]} [ops] the comparisons --assert takes, when not those of `better`
 * @property {(result: any) => { value: number|null, of?: number|null, process?: string|null, why?: string, unsolicited?: number }} read
 * @property {RowFigure} [row] its figure in a compare row
 * @property {CellFigure} [cell] its figure in a tune cell (a pool size and policy, its measured steps)
 * @property {(tick: any, window: TickWindow) => { value: number|null, of?: number|null }} [tick] its figure in a live
 *   LoadTick's window, for the dashboard; absent when a tick does not carry it
 * @property {(endpoint: any) => { value: number|null, of?: number|null, why?: string }} [endpoint] its figure in one
 *   endpoint of a mix (load.endpoints), for `--assert 'p99{GET /report}<50ms'`; absent when it has none per endpoint
 * @property {(row: any, runs: any[]) => number|null} [rowOf] the whole a compare row's (or tune cell's) count is a share of
 * @property {string} [noise] --against's noise model between two runs
 * @property {string} [compareNoise] --against's noise model between two compare results
 * @property {string} [compareField] the compare row's (and tune cell's) field with the repeats' spread
 *   (`compareNoise: 'spread'`), which their tables show as min–max
 * @property {boolean} [change] false: no `<id>-change`
 * @property {string} [needs] what must be on for it to be measured ('probe')
 * @property {MetricFormat} [format] how a value is shown, when not FORMAT_BY_UNIT[unit]
 * @property {string} [field] the LoadResult latency field (latency metrics)
 * @property {number|null} [percentile] the percentile (latency metrics; null for max)
 */

/** A compare row's or a tune cell's p99: the median of its repeats (a cell has a row's figures, its steps a run's). */
const medianP99 = rowLatency((row) => row.p99Ms?.median ?? null);

/** @type {readonly Metric[]} */
export const METRICS = Object.freeze(/** @type {Metric[]} */ ([
  latency('p50', 'p50Ms', 50, rowLatency((row, runs) => median(measuredRuns(runs).map((r) => r.p50Ms)))),
  latency('p90', 'p90Ms', 90),
  { ...latency('p99', 'p99Ms', 99, medianP99), cell: medianP99, compareNoise: 'spread', compareField: 'p99Ms' },
  latency('p999', 'p999Ms', 99.9, undefined, { live: false }),
  latency('max', 'maxMs', null),
  {
    id: 'rps',
    kind: 'rps',
    unit: 'rps',
    better: 'higher',
    // Successful responses a second: a 500 served nothing (the Requests line shows every response's rate).
    read: (result) => {
      const { rps, why } = succeededFigures(result);
      return succeeded(rps, why);
    },
    endpoint: (e) => endpointSucceeded(e, Number.isFinite(e.rps) && e.requests > 0 ? e.rps * (1 - (e.errors?.total ?? 0) / attemptsOf(e)) : null),
    row: rowSucceededRps,
    cell: rowSucceededRps,
    // Live: every response a second (the dashboard says the succeeded rate beside it when some failed).
    tick: (tick, window) => ({ value: window === 'interval' ? tick?.rps ?? null : tick?.phase === 'measure' ? tick.meanRps ?? null : null }),
    noise: 'rate',
    compareNoise: 'spread',
    compareField: 'rps',
  },
  {
    id: 'errors',
    kind: 'errors',
    unit: 'count',
    better: 'lower',
    // `unsolicited`: responses no request asked for (in the count, in no request's failure): a share of the requests leaves them out.
    read: (result) => ({ value: result.load?.errors?.total ?? null, of: result.load?.errors ? attemptsOf(result.load) : null, ...(result.load?.unsolicited > 0 ? { unsolicited: result.load.unsolicited } : {}) }),
    // An endpoint the draw never picked has no error count: errors{GET /x}=0 passed on nothing sent to it.
    endpoint: (e) => (attemptsOf(e) === 0 ? { value: null, why: 'no-responses' } : { value: e.errors?.total ?? null, of: e.errors ? attemptsOf(e) : null }),
    // Requests a run's server lost (never answered while it answered others) failed too: errors=0 passed on them.
    row: (row, runs) => (isFiniteNumber(row.errors) ? row.errors + lostOf(runs) : row.errors),
    rowOf: (row, runs) => rowAttempts(runs) + lostOf(runs),
    cell: (cell, steps) => cell.errors,
    // Live: the phase's errors so far, in both windows (a tick counts errors for the phase, not the second).
    tick: (tick) => ({ value: tick?.errors?.total ?? null, of: tick?.errors ? attemptsOf(tick) : null }),
    ops: ['=', '<='], // a count or share of failures: at most, or exactly (errors=0)
    noise: 'share',
    compareNoise: 'share',
    change: false,
  },
  {
    id: 'blocked-in-spawn',
    kind: 'fraction',
    unit: 'fraction',
    better: 'lower',
    read: (result) => busiest(result, 'blockedFraction'),
    needs: 'probe',
  },
  {
    id: 'elu',
    kind: 'fraction',
    unit: 'fraction',
    format: 'fraction', // ELU reads as 0.93 (its own scale), not as a share of time
    better: 'lower',
    read: (result) => busiest(result, 'elu'),
    needs: 'probe',
  },
  {
    // The busiest thread's share of time at work: its ELU, or, for a worker thread whose ELU
    // counted waiting for work (piscina's idle threads in Atomics.wait read ELU 1), its CPU time
    // (src/sample/thread-busy.js). `elu` fails such a pool at rest; `busy` does not.
    id: 'busy',
    kind: 'fraction',
    unit: 'fraction',
    better: 'lower',
    read: (result) => busiest(result, 'busy'),
    needs: 'probe',
  },
]));

/** @typedef {'noise'|'compareNoise'} NoiseField which noise model --against reads: between runs, or between compare results */

/**
 * `<id>-change` metrics: every metric --against judges, unless it says `change: false`.
 * @param {readonly Metric[]} [table]
 * @param {NoiseField} [noiseField]
 */
export function changeIds(table = METRICS, noiseField = 'noise') {
  return table.filter((m) => m[noiseField] && m.change !== false).map((m) => `${m.id}-change`);
}

/**
 * The metrics a kind of result holds, for --assert: a run or diagnose all of them and their
 * changes; a compare those with a row figure, and the changes its --against judges.
 * @param {'run'|'diagnose'|'compare'} kind
 */
export function metricsOf(kind, table = METRICS) {
  if (kind === 'compare') return [...table.filter((m) => m.row).map((m) => m.id), ...changeIds(table, 'compareNoise')];
  return [...table.map((m) => m.id), ...changeIds(table)];
}

/**
 * The metric of an id; null when there is none.
 * @param {string} id
 * @param {readonly Metric[]} [table]
 */
export function metricOf(id, table = METRICS) {
  return table.find((m) => m.id === id) ?? null;
}

const UPPER = ['<', '<='];
const LOWER = ['>', '>='];

/**
 * What --assert accepts, by metric id: the kind of value it parses and the comparisons
 * it takes. A change is signed (rps-change>-5%: no more than a 5% drop).
 * @returns {Record<string, { kind: string, ops: string[] }>}
 */
export function assertSpecs(table = METRICS) {
  /** @type {Record<string, { kind: string, ops: string[] }>} */
  const specs = {};
  for (const m of table) specs[m.id] = { kind: m.kind, ops: m.ops ?? (m.better === 'higher' ? LOWER : UPPER) };
  for (const m of table) {
    if (m.noise && m.change !== false) specs[`${m.id}-change`] = { kind: 'change', ops: m.better === 'higher' ? LOWER : UPPER };
  }
  return specs;
}

/** The order every view lists figures in (--against, the metrics block): throughput, latency, errors, then any other. */
const READING_ORDER = ['rps', 'latency', 'errors'];
/** @param {Metric} m */
const rank = (m) => (READING_ORDER.includes(m.kind) ? READING_ORDER.indexOf(m.kind) : READING_ORDER.length);

/**
 * The table in reading order (the table's own order within each kind).
 * @param {readonly Metric[]} table
 */
function readingOrder(table) {
  return [...table].sort((a, b) => rank(a) - rank(b));
}

/**
 * The metrics --against compares (with `noise`, or `compareNoise` between compare results), in reading order.
 * @param {readonly Metric[]} [table]
 * @param {NoiseField} [noiseField]
 */
export function againstMetrics(table = METRICS, noiseField = 'noise') {
  return readingOrder(table.filter((m) => m[noiseField]));
}

/** How a value of each unit is shown when its metric does not say (a fraction: as a share, 31%). */
/** @type {Record<string, MetricFormat|undefined>} */
const FORMAT_BY_UNIT = { ms: 'ms', rps: 'rps', count: 'count', fraction: 'percent' };

/**
 * How a metric's value is shown.
 * @param {{ unit: string, format?: MetricFormat }} metric
 * @returns {MetricFormat}
 */
export function formatOf(metric) {
  return metric.format ?? FORMAT_BY_UNIT[metric.unit] ?? 'number';
}

/**
 * @typedef {object} MetricFigure one metric measured in a result (its `metrics` block)
 * @property {string} id
 * @property {number|null} value in `unit`; null when the result does not hold it
 * @property {string} unit
 * @property {'higher'|'lower'} better
 * @property {MetricFormat} format
 * @property {string|null} [process] the process it came from (the busiest), for a metric read per process
 * @property {number|null} [of] the whole a count is a share of (errors: the requests sent)
 * @property {number} [unsolicited] errors: responses no request asked for, in `value` but no request's failure
 * @property {string} [why] 'no-successes' or 'no-responses': why the value is null (rps: null or 0), no request succeeded or none was measured
 */

/**
 * A metric's figure, with what its reading carries besides the value.
 * @param {Metric} m
 * @param {{ value: number|null, of?: number|null, process?: string|null, why?: string, unsolicited?: number }} read
 * @returns {MetricFigure}
 */
function figureOf(m, read) {
  const value = Number.isFinite(read.value) ? read.value : null;
  return {
    id: m.id,
    value,
    unit: m.unit,
    better: m.better,
    format: formatOf(m),
    ...('process' in read ? { process: read.process ?? null } : {}),
    ...('of' in read ? { of: read.of ?? null } : {}),
    ...(read.why ? { why: read.why } : {}),
    ...(read.unsolicited !== undefined ? { unsolicited: read.unsolicited } : {}),
  };
}

/**
 * The `metrics` block of a run or diagnose result: every metric of the table measured
 * from it, in reading order.
 * @param {object} result RunResult or DiagnoseResult
 * @param {readonly Metric[]} [table]
 * @returns {MetricFigure[]}
 */
export function measureMetrics(result, table = METRICS) {
  return readingOrder(table).map((m) => figureOf(m, m.read(result)));
}

/**
 * One endpoint's figures (an entry of load.endpoints): the metrics with an `endpoint` reader.
 * @param {object} endpoint
 * @param {readonly Metric[]} [table]
 * @returns {MetricFigure[]}
 */
export function measureEndpointMetrics(endpoint, table = METRICS) {
  return readingOrder(table).flatMap((m) => (m.endpoint ? [figureOf(m, m.endpoint(endpoint))] : []));
}

/**
 * @typedef {MetricFigure & { interval: number|null }} TickFigure a metric's live figure: `value` the
 *   phase so far (a warm-up tick's warm-up, a measured tick's measured window), `interval` the last second
 */

/**
 * A live LoadTick's figures, for the dashboard: the metrics with a tick reader, in reading order.
 * @param {object|null} tick
 * @param {readonly Metric[]} [table]
 * @returns {TickFigure[]}
 */
export function measureTickMetrics(tick, table = METRICS) {
  if (!tick) return [];
  return readingOrder(table).flatMap((m) => {
    if (!m.tick) return [];
    const interval = m.tick(tick, 'interval').value;
    return [{ ...figureOf(m, m.tick(tick, 'overall')), interval: Number.isFinite(interval) ? interval : null }];
  });
}

/**
 * A row's or cell's figure as a reading: a number (or null) is its value.
 * @param {ReturnType<RowFigure>} figure
 * @returns {{ value: number|null, why?: string }}
 */
function readingOf(figure) {
  if (figure !== null && typeof figure === 'object') return figure;
  return { value: /** @type {number|null} */ (figure) }; // not an object: a number or null
}

/**
 * The `metrics` block of a compare row: the metrics with a row figure.
 * @param {object} row a compare row
 * @param {object[]} runs the row's runs
 * @param {readonly Metric[]} [table]
 * @returns {MetricFigure[]}
 */
export function measureRowMetrics(row, runs, table = METRICS) {
  return readingOrder(table).flatMap((m) => {
    if (!m.row) return [];
    const read = readingOf(m.row(row, runs));
    return [figureOf(m, { ...read, ...(m.rowOf ? { of: m.rowOf(row, runs) } : {}) })];
  });
}

/**
 * The `metrics` block of a tune cell (one pool size and policy): the metrics with a cell figure.
 * @param {object} cell a cell of the recommendation (src/analysis/cells.js)
 * @param {object[]} steps the cell's steps (stepsOfCell())
 * @param {readonly Metric[]} [table]
 * @returns {MetricFigure[]}
 */
export function measureCellMetrics(cell, steps, table = METRICS) {
  return readingOrder(table).flatMap((m) => {
    if (!m.cell) return [];
    const read = readingOf(m.cell(cell, steps));
    return [figureOf(m, { ...read, ...(m.rowOf ? { of: m.rowOf(cell, steps) } : {}) })];
  });
}

/**
 * A result's metrics block: the one it carries, or, for a result saved before it had
 * one, measured now from its figures.
 * @param {Measured & { metrics?: MetricFigure[]|null, samples?: import('../base/result-types.js').SamplesSummary|null }} result
 * @returns {MetricFigure[]}
 */
export function metricsBlock(result) {
  return Array.isArray(result.metrics) ? result.metrics : measureMetrics(result);
}
