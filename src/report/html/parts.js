/**
 * Sections that run and diagnose reports share: load over time, the latency
 * distribution, per-process figures over time (one colour per process in every
 * chart), the process table, and the --against and --assert blocks.
 */
import { extent, lineChart, percentileChart, esc } from './svg.js';
import { colorAt, table, grid, section } from './page.js';
import { cleanText } from '../../base/untrusted-text.js';
import { errorLabel } from '../reasons.js';
import { int, ms, msNumber, bytes, pct, isFiniteNumber } from '../text-format.js';
import { latencyDistribution } from '../../analysis/latency-distribution.js';
import { formatChangePct, verdictOf } from '../against-text.js';
import { formatGateValue, WHY as GATE_WHY } from '../assert-text.js';
import { metricWords } from '../metric-text.js';
import { describeMachine, describeThrottling } from '../describe.js';

/** @typedef {import('../../base/result-types.js').SamplesSummary} SamplesSummary */
/** @typedef {import('../../base/result-types.js').ProcessSamples} ProcessSamples */
/** @typedef {import('../../base/result-types.js').ProcessSummary} ProcessSummary */
/** @typedef {import('../../base/result-types.js').ProcessSample} ProcessSample */
/** @typedef {import('../../base/result-types.js').AgainstDelta} AgainstDelta */
/** @typedef {'p50Ms'|'p90Ms'|'p99Ms'|'maxMs'} LatencyField */
/** @typedef {[number, number|null]} Point */
/**
 * A process of the charts and the table: a sampled one, or the spawned commands (many processes, no pid).
 * @typedef {Omit<ProcessSamples, 'pid'|'series'> & { pid: number|null, series?: ProcessSample[] }} ChartProcess
 */

const LATENCY_COLORS = { p50Ms: colorAt(0), p90Ms: colorAt(2), p99Ms: colorAt(1), maxMs: colorAt(6) };

/**
 * Throughput and latency percentiles per second of the measured window.
 * @param {{ series?: import('../../base/result-types.js').LoadSecond[] }|null|undefined} load
 */
export function loadOverTime(load) {
  const series = load?.series ?? [];
  if (series.length === 0) return '';
  const rps = lineChart({
    title: 'Throughput per second',
    xLabel: 'time into the measured window (s)',
    yLabel: 'requests per second',
    series: [
      { name: 'responses', color: colorAt(0), points: series.map((s) => /** @type {Point} */ ([s.second, s.requests])) },
      ...(series.some((s) => s.errors > 0) ? [{ name: 'errors', color: '#c62828', points: series.map((s) => /** @type {Point} */ ([s.second, s.errors])) }] : []),
    ],
  });
  /** @type {Array<[LatencyField, string]>} */
  const allFields = [['p50Ms', 'p50'], ['p90Ms', 'p90'], ['p99Ms', 'p99'], ['maxMs', 'max']];
  const fields = allFields.filter(([f]) => series.some((s) => Number.isFinite(s[f])));
  const latency = lineChart({
    title: 'Latency per second',
    xLabel: 'time into the measured window (s)',
    yLabel: 'latency (ms)',
    series: fields.map(([f, name]) => ({ name, color: LATENCY_COLORS[f], dashed: f === 'maxMs', points: series.map((s) => /** @type {Point} */ ([s.second, s[f] ?? null])) })),
  });
  return grid([rps, latency]);
}

/**
 * The percentile plot from the result's HDR histogram (and the baseline's, with --against).
 * @param {Partial<import('../../base/result-types.js').LoadResult>|undefined} load
 * @param {{ load?: { histogram?: string } }} [baseline]
 */
export function latencyPlot(load, baseline) {
  const now = latencyDistribution(load?.histogram);
  if (!load || !now || now.points.length === 0) return '';
  const series = [{ name: `this run (${int(now.count)} requests)`, color: colorAt(0), points: now.points }];
  const before = baseline ? latencyDistribution(baseline.load?.histogram) : null;
  if (before?.points.length) series.push({ name: `baseline (${int(before.count)} requests)`, color: colorAt(8), points: before.points });
  const latency = load.latency ?? /** @type {Partial<import('../../base/result-types.js').Latency>} */ ({});
  const summary = table(
    ['min', 'p50', 'p75', 'p90', 'p99', 'p99.9', 'max', 'mean'],
    [[latency.minMs, latency.p50Ms, latency.p75Ms, latency.p90Ms, latency.p99Ms, latency.p999Ms, latency.maxMs, latency.meanMs].map(msNumber)],
  );
  return grid([percentileChart({ title: 'Latency distribution (HDR histogram)', series }), `<div><h3>Latency (ms)</h3>${summary}</div>`]);
}

/**
 * Processes in a stable order with their colours: the key to every per-process chart.
 * @param {SamplesSummary|null|undefined} samples
 * @returns {Array<ChartProcess & { color: string, name: string }>}
 */
export function processColors(samples) {
  const spawned = spawnedEntry(samples);
  // Each entry of a process's series is one of src/sample/recorder.js's samples.
  const sampled = /** @type {ChartProcess[]} */ (samples?.processes ?? []);
  return [...sampled, ...(spawned ? [spawned] : [])].map((p, i) => ({ ...p, color: colorAt(i), name: p.label ?? p.key ?? String(p.pid) }));
}

/**
 * The spawned commands as one more line and row (their CPU over time and on average), when any ran.
 * @param {SamplesSummary|null|undefined} samples
 * @returns {ChartProcess|null}
 */
function spawnedEntry(samples) {
  // src/sample/recorder.js keeps their CPU over time as `series` too.
  const s = /** @type {(SamplesSummary['spawned'] & { series?: Array<{ t: number, cpuPct: number|null }> })|undefined} */ (samples?.spawned);
  // Number(): null reads as 0 and undefined as NaN, as `>` has always read them.
  if (!s || !(Number(s.cpuPct) > 0 || Number(s.spawns) > 0 || Number(s.seen) > 0)) return null;
  const series = (s.series ?? []).map((p) => ({ t: p.t, cpuPct: p.cpuPct }));
  return { key: 'spawned', pid: null, role: 'spawned', label: 'spawned commands', requests: null, summary: { cpuPct: s.cpuPct, rssBytes: s.rssBytes }, series };
}

/**
 * Loop delay, ELU, blocked in spawn and CPU over time: one chart per figure, one line per process.
 * @param {SamplesSummary|null|undefined} samples
 */
export function processesOverTime(samples) {
  const processes = processColors(samples);
  const t0 = extent(processes.flatMap((p) => (p.series ?? []).map((s) => s.t)).filter(Number.isFinite))[0];
  if (!Number.isFinite(t0)) return '';
  /**
   * @param {string} title
   * @param {string} yLabel
   * @param {(s: ProcessSample) => number|null} pick
   * @param {{ yMax?: number, perSecond?: boolean }} [opts]
   */
  const chart = (title, yLabel, pick, opts = {}) => {
    const series = processes.map((p) => {
      const points = (p.series ?? []).map((s) => /** @type {Point} */ ([(s.t - t0) / 1000, pick(s)]));
      return { name: p.name, color: p.color, points: opts.perSecond ? perSecondMeans(points) : points };
    });
    // A line with no figure of this kind (the spawned commands have CPU only) is left out of its legend.
    const drawn = series.filter((s) => s.points.some(([, y]) => Number.isFinite(y)));
    if (drawn.length === 0) return '';
    return lineChart({ title, xLabel: 'time (s)', yLabel, series: drawn, ...opts });
  };
  return grid([
    chart('Event-loop delay p99 per process', 'loop delay p99 (ms)', (s) => s.probe?.loopDelay?.p99Ms ?? null),
    chart('Event-loop utilisation per process', 'ELU (1 = saturated)', (s) => s.probe?.elu ?? null, { yMax: 1 }),
    chart('Time blocked in spawn per process', 'share of wall time (%)', (s) => {
      const blocked = s.probe?.spawn?.blockedFraction;
      return isFiniteNumber(blocked) ? blocked * 100 : null;
    }, { yMax: 100 }),
    // /proc counts CPU in 10 ms ticks: over a 250 ms sample that is 4% steps, a zigzag; a second's mean is not.
    chart('CPU per process (mean of each second)', 'CPU (% of one core)', (s) => s.cpuPct ?? null, { perSecond: true }),
  ]);
}

/**
 * Points averaged per whole second (x at the middle of the second).
 * @param {[number, number|null][]} points
 */
export function perSecondMeans(points) {
  /** @type {Map<number, { sum: number, n: number }>} */
  const buckets = new Map();
  for (const [x, y] of points) {
    if (!isFiniteNumber(y)) continue;
    const b = Math.floor(x);
    const acc = buckets.get(b) ?? { sum: 0, n: 0 };
    acc.sum += y;
    acc.n++;
    buckets.set(b, acc);
  }
  return [...buckets].sort((a, b) => a[0] - b[0]).map(([b, { sum, n }]) => /** @type {Point} */ ([b + 0.5, sum / n]));
}

/**
 * One row per process: colour key, requests, ELU, blocked in spawn, loop delay, CPU, memory.
 * @param {SamplesSummary|null|undefined} samples
 * @param {Array<{ pid: number, completed: number }>} [workers] the strategy's own count of each worker's requests
 */
export function processTable(samples, workers = []) {
  const processes = processColors(samples);
  if (processes.length === 0) return '';
  /** @type {Map<number|null, number>} */
  const completed = new Map(workers.map((w) => [w.pid, w.completed]));
  // Worker threads get a busy column: their CPU time where ELU counted waiting for work (Atomics.wait).
  const threads = processes.some((p) => p.role === 'thread');
  const requestsOf = (/** @type {(typeof processes)[number]} */ p) => p.requests ?? completed.get(p.pid);
  // Requests per process are known where a strategy's workers count them; a user's server (its
  // cluster workers, threads) has none, and a column of dashes says nothing: it is left out.
  const counted = processes.some((p) => Number.isFinite(requestsOf(p)));
  const rows = processes.map((p) => {
    const s = p.summary ?? /** @type {ProcessSummary} */ ({});
    const requests = requestsOf(p);
    return [
      { html: `<span class="swatch" style="background:${p.color}"></span>${esc(p.name)}` },
      p.pid ?? '–',
      ...(counted ? [isFiniteNumber(requests) ? int(requests) : '–'] : []),
      isFiniteNumber(s.elu) ? s.elu.toFixed(2) : '–',
      ...(threads ? [p.role === 'thread' && isFiniteNumber(s.busy) ? `${pct(s.busy)}${s.busyFrom === 'cpu' ? ' (CPU)' : ''}` : '–'] : []),
      isFiniteNumber(s.blockedFraction) ? pct(s.blockedFraction) : '–',
      isFiniteNumber(s.msPerSpawn) ? ms(s.msPerSpawn) : '–',
      isFiniteNumber(s.loopDelayP99Ms) ? ms(s.loopDelayP99Ms) : '–',
      isFiniteNumber(s.cpuPct) ? `${Math.round(s.cpuPct)}%` : '–',
      isFiniteNumber(s.rssBytes) ? bytes(s.rssBytes) : '–',
    ];
  });
  const quotas = describeThrottling(samples?.throttling).map((line) => `<p>${esc(line)}</p>`).join('');
  const busyNote = processes.some((p) => p.role === 'thread' && p.summary?.busyFrom === 'cpu')
    ? '<p>busy (CPU): the thread\'s time on a CPU or waiting for one, since its ELU counted waiting for work (Atomics.wait) as busy.</p>'
    : '';
  return table(['process', 'pid', ...(counted ? ['requests'] : []), 'ELU', ...(threads ? ['busy'] : []), 'blocked in spawn', 'per spawn', 'loop p99', 'CPU', 'RSS'], rows) + busyNote + quotas;
}

/**
 * One table row per delta: figure, before, after, change, mark (after `lead` cells, e.g. the compare row).
 * @param {AgainstDelta[]} deltas
 * @param {string[]} [lead]
 */
function deltaRows(deltas, lead = []) {
  return deltas.map((d) => {
    /** @param {number|null} x */
    const v = (x) => (d.unit === 'ms' ? ms(x) : int(x));
    const cls = d.significant ? (d.better ? 'pass' : 'fail') : '';
    return [...lead, metricWords(d.metric).label, v(d.before), v(d.after), formatChangePct(d.changePct), { html: `<span class="${cls}">${esc(verdictOf(d))}</span>` }];
  });
}

/**
 * The --against block: before, after, change and mark per figure (per row for a compare).
 * @param {import('../../base/result-types.js').Against|undefined} against
 */
export function againstSection(against) {
  if (!against || (!against.deltas && !against.rows)) return '';
  const s = against.summary;
  const head = s.changes === 0 ? 'no change beyond the run-to-run noise' : `${s.changes} change${s.changes === 1 ? '' : 's'} beyond the noise: ${s.better} better, ${s.worse} worse`;
  const body = against.rows
    ? table(['strategy', 'workload', 'figure', 'baseline', 'now', 'change', ''], against.rows.flatMap((r) => deltaRows(r.deltas, [r.strategy, r.workload])), { textColumns: [1, 6] })
    // Without rows, deltas: the test above.
    : table(['figure', 'baseline', 'this run', 'change', ''], deltaRows(/** @type {AgainstDelta[]} */ (against.deltas)), { textColumns: [4] });
  return section('Against the baseline', `<p>${esc(against.file ?? 'baseline')}: ${esc(head)}</p>${body}`);
}

/**
 * The --assert block.
 * @param {import('../../base/result-types.js').Assertion[]|undefined} outcomes
 */
export function assertionsSection(outcomes) {
  if (!outcomes?.length) return '';
  const rows = outcomes.map((o) => [
    o.expr,
    o.where ?? '',
    { html: `<span class="${o.pass ? 'pass' : 'fail'}">${o.pass ? 'pass' : 'FAIL'}</span>` },
    `${o.measured === null ? 'not measured' : formatGateValue(o.measured, o.unit, o.metric)}${o.why ? ` (${GATE_WHY[o.why]})` : ''}`,
    o.process ?? '',
  ]);
  return section('Assertions', table(['assertion', 'where', 'result', 'measured', 'busiest'], rows, { textColumns: [0, 1, 2, 4] }));
}

/**
 * Notes and failures as a list.
 * @param {Record<string, any> & { failures?: string[], notes?: string[] }} result any result document
 */
export function notesSection(result) {
  const items = [...(result.failures ?? []).map((f) => `FAILED: ${f}`), ...(result.notes ?? [])];
  return items.length ? section('Notes', `<ul>${items.map((i) => `<li>${esc(i)}</li>`).join('')}</ul>`) : '';
}

/** "Node 20.20.2 · libuv 1.46.0 · CPU × 2 cores · linux/x64" (the CPU budget as describeMachine says it) */
/** @param {import('../../base/result-types.js').Machine|null|undefined} m */
export function machineLine(m) {
  return m ? describeMachine(m) : '';
}


/**
 * Why requests failed and what the server leaned on: the error texts by status and kind,
 * its stderr lines, its downstream connections, the other CPU users. Every text is the
 * server's (untrusted): table() escapes it.
 * @param {{ load?: { errorTexts?: import('../../base/result-types.js').ErrorTexts[] }, serverStderr?: import('../../base/result-types.js').ServerStderr|null, samples?: SamplesSummary|null }} result
 */
export function reasonsSection(result) {
  const parts = [];
  const errorRows = (result.load?.errorTexts ?? []).flatMap((e) => {
    const texts = e.texts?.length ? e.texts : [{ text: '', count: e.count }];
    const rows = texts.map((t) => [errorLabel(e), int(t.count), t.text === '' ? '(empty body)' : cleanText(t.text)]);
    if (Number(e.other) > 0) rows.push([errorLabel(e), int(e.other), '(other texts, not kept)']);
    return rows;
  });
  if (errorRows.length) parts.push(`<h3>Error texts (first line of each response, by status or kind)</h3>${table(['status or kind', 'count', 'text'], errorRows, { textColumns: [0, 2] })}`);
  const stderr = result.serverStderr?.lines ?? [];
  if (stderr.length) parts.push(`<h3>The server's stderr during the run, most frequent first</h3>${table(['count', 'line'], stderr.slice(0, 10).map((l) => [int(l.count), cleanText(l.text)]), { textColumns: [1] })}`);
  const downstreams = result.samples?.downstreams ?? [];
  if (downstreams.length) {
    parts.push(`<h3>Downstream connections</h3>${table(['peer', 'listener', 'most at once', 'mean'], downstreams.map((d) => [cleanText(d.peer, 80), d.name ? cleanText(d.name, 40) : '–', int(d.connections), String(d.meanConnections ?? '–')]), { textColumns: [0, 1] })}`);
  }
  const others = result.samples?.otherUsers ?? null;
  const users = others?.users ?? [];
  if (others && users.length) {
    // The names not listed and the total, as the summary's Other CPU line and the advice count them.
    const rest = others.rest && others.rest.names > 0 ? [[`${int(others.rest.names)} more`, '', others.rest.cores.toFixed(2)]] : [];
    const total = isFiniteNumber(others.cores) ? [['all other processes', '', others.cores.toFixed(2)]] : [];
    const rows = [...users.map((u) => [cleanText(u.name, 40), int(u.count), u.cores.toFixed(2)]), ...rest, ...total];
    parts.push(`<h3>Other CPU users</h3>${table(['process', 'count', 'cores'], rows, { textColumns: [0] })}`);
  }
  return parts.length ? section('Errors, downstreams and other CPU users', parts.join('')) : '';
}
