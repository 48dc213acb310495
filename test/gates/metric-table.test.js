// The metric table (src/analysis/metrics.js) is the one place a metric is defined:
// every built-in metric is one entry, and a metric defined in a test fixture is
// parsed by --assert, checked against a result, compared by --against, worded by
// the report, measured into the result's metrics block (--json, checked by the
// published schema) and shown by the text summary, the HTML report and the compare and
// tune tables (text, Markdown, HTML) and the live dashboard, without any other file knowing it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import React from 'react';
import { METRICS, metricsOf, assertSpecs, measureMetrics, measureRowMetrics, measureCellMetrics, measureTickMetrics } from '../../src/analysis/metrics.js';
import { Dashboard } from '../../src/ui/components/dashboard.js';
import { applyRunEvent } from '../../src/ui/run-state.js';
import { makeState, makeTick } from '../ui/fixtures.js';
import { frame } from '../ui/render-helpers.js';
import { stepsOfCell } from '../../src/analysis/cells.js';
import { createTune } from '../../src/tune/tune-engine.js';
import { formatTune } from '../../src/report/tune-text.js';
import { fakeRuns, MACHINE, tuneBase } from '../tune/fake-run.js';
import { parseAssertion, parseAssertions, ASSERT_METRICS } from '../../src/plan/assert-expr.js';
import { gateFigures, evaluateAssertions } from '../../src/analysis/assert-evaluate.js';
import { againstBaseline } from '../../src/analysis/against-deltas.js';
import { formatAssertions } from '../../src/report/assert-text.js';
import { formatAgainst } from '../../src/report/against-text.js';
import { formatSummary } from '../../src/report/summary.js';
import { formatDiagnose } from '../../src/report/diagnose-text.js';
import { formatCompare, formatCompareMarkdown } from '../../src/report/compare-text.js';
import { renderHtml } from '../../src/report/html/index.js';
import { withWords } from '../../src/report/words.js';
import { RESULT_SCHEMA_URL, resultSchemaErrors } from '../../src/report/result-shape.js';
import { UsageError } from '../../src/base/errors.js';
import { TABLE } from './fixtures/goodput-metric.js';

const Ajv = createRequire(import.meta.url)('ajv');
const validate = new Ajv().compile(JSON.parse(readFileSync(RESULT_SCHEMA_URL, 'utf8')));
const fixture = (name) => JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), 'utf8'));

const result = (rps, requests, errors) => ({
  kind: 'run',
  load: { rps, requests, errors: { total: errors, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: errors }, latency: { p50Ms: 5, p90Ms: 8, p99Ms: 12, p999Ms: 20, maxMs: 30 } },
  samples: { processes: [] },
});

test('every metric declares its kind, unit, direction and how it is read; ids are unique', () => {
  const ids = METRICS.map((m) => m.id);
  assert.deepEqual(ids, ['p50', 'p90', 'p99', 'p999', 'max', 'rps', 'errors', 'blocked-in-spawn', 'elu', 'busy']);
  for (const m of METRICS) {
    assert.ok(['latency', 'rps', 'errors', 'fraction'].includes(m.kind), m.id);
    assert.ok(['higher', 'lower'].includes(m.better), m.id);
    assert.equal(typeof m.read, 'function', m.id);
    assert.equal(typeof m.unit, 'string', m.id);
  }
  // What --assert takes follows from the table: floors for higher-is-better, ceilings otherwise.
  assert.deepEqual(Object.keys(ASSERT_METRICS), [...ids, 'p50-change', 'p90-change', 'p99-change', 'p999-change', 'max-change', 'rps-change']);
  assert.deepEqual(ASSERT_METRICS.rps.ops, ['>', '>=']);
  assert.deepEqual(ASSERT_METRICS.p99.ops, ['<', '<=']);
  assert.deepEqual(ASSERT_METRICS.errors.ops, ['=', '<=']);
  assert.deepEqual(metricsOf('compare'), ['p50', 'p99', 'rps', 'errors', 'p99-change', 'rps-change']);
  // The compare and tune tables' columns: the metrics with a row or cell figure.
  assert.deepEqual(METRICS.filter((m) => m.row).map((m) => m.id), ['p50', 'p99', 'rps', 'errors']);
  assert.deepEqual(METRICS.filter((m) => m.cell).map((m) => m.id), ['p99', 'rps', 'errors']);
});

test('a metric defined in a fixture is parsed by --assert, and unknown without it', () => {
  assert.deepEqual(parseAssertion('goodput>=800', { table: TABLE }), { expr: 'goodput>=800', metric: 'goodput', op: '>=', value: 800, unit: 'rps' });
  assert.throws(() => parseAssertion('goodput<800', { table: TABLE }), /goodput takes > or >= \(e\.g\. goodput>=800\)/);
  assert.throws(() => parseAssertion('goodput>=800'), (e) => e instanceof UsageError && /unknown metric 'goodput'/.test(e.message));
  assert.equal(assertSpecs(TABLE)['goodput-change'].kind, 'change');
});

test('a metric defined in a fixture is measured from a result and gates it', () => {
  const run = result(1000, 10_000, 500); // 5% failed: goodput 950 req/s
  const outcomes = evaluateAssertions(parseAssertions(['goodput>=900', 'goodput>960', 'p99<50ms'], { table: TABLE }), gateFigures(run, TABLE));
  assert.deepEqual(outcomes.map((o) => [o.metric, o.measured, o.pass]), [['goodput', 950, true], ['goodput', 950, false], ['p99', 12, true]]);
  assert.match(formatAssertions(outcomes), /^assert goodput>=900 {2}pass {2}measured 950 req\/s\nassert goodput>960 {2}FAIL {2}measured 950 req\/s\n/);
});

test('a metric defined in a fixture is compared by --against and its change gates', () => {
  const before = result(1000, 10_000, 0);
  const after = result(900, 9_000, 900); // 10% failed: goodput 810 req/s
  const against = againstBaseline(after, before, TABLE);
  const goodput = against.deltas.find((d) => d.metric === 'goodput');
  assert.deepEqual({ ...goodput, changePct: Math.round(goodput.changePct) }, {
    metric: 'goodput', unit: 'rps', before: 1000, after: 810, changePct: -19, significant: null, better: false, noise: { reason: 'no-noise-model' },
  });
  // Listed with the throughput figures (--against orders by kind: throughput, latency, errors).
  assert.deepEqual(against.deltas.map((d) => d.metric), ['rps', 'goodput', 'p50', 'p90', 'p99', 'p999', 'max', 'errors']);
  assert.match(formatAgainst(against, { file: 'old.json' }), /\n {2}goodput {5}1,000 → 810 {2}−19% {2}not judged \(no noise estimate\)\n/);
  const [change] = evaluateAssertions(parseAssertions(['goodput-change>-5%'], { table: TABLE }), gateFigures({ ...after, against }, TABLE));
  assert.equal(Math.round(change.measured), -19);
  assert.equal(change.pass, false);
});

/** A saved result (real, from --out) with 9 of its requests failed: goodput = rps × (1 − 9/requests). */
function savedWithErrors(name) {
  const saved = fixture(name);
  const load = { ...saved.load, errors: { ...saved.load.errors, total: 9, non2xx: 9 }, statuses: { 200: saved.load.requests - 9, 500: 9 } };
  const { outcome, ...rest } = saved; // the outcome is made again from the load
  return { ...rest, load };
}

test('a metric defined in a fixture is measured into the metrics block --json prints, and the schema takes it', () => {
  const run = savedWithErrors('run');
  const goodput = run.load.rps * (1 - 9 / run.load.requests);
  const result = { ...run, metrics: measureMetrics(run, TABLE) };
  // Reading order: throughput (goodput after rps, as --against lists it), latency, errors, the others.
  assert.deepEqual(result.metrics.map((m) => m.id), ['rps', 'goodput', 'p50', 'p90', 'p99', 'p999', 'max', 'errors', 'blocked-in-spawn', 'elu', 'busy']);
  const json = JSON.parse(JSON.stringify(withWords(result))); // what --json prints and --out writes
  assert.deepEqual(json.metrics.find((m) => m.id === 'goodput'), { id: 'goodput', value: goodput, unit: 'rps', better: 'higher', format: 'rps' });
  assert.deepEqual(json.metrics.find((m) => m.id === 'errors'), { id: 'errors', value: 9, unit: 'count', better: 'lower', format: 'count', of: run.load.requests });
  const busiestLoop = run.samples.processes.find((p) => p.label === 'worker 0').summary.elu;
  assert.deepEqual(json.metrics.find((m) => m.id === 'elu'), { id: 'elu', value: busiestLoop, unit: 'fraction', better: 'lower', format: 'fraction', process: 'worker 0' });
  assert.ok(validate(json), JSON.stringify(validate.errors));
  assert.deepEqual(resultSchemaErrors(json), []);
  assert.equal(validate({ ...json, metrics: [{ id: 'goodput', value: 'fast', unit: 'rps', better: 'higher', format: 'rps' }] }), false, 'the schema checks a figure');
});

test('a metric defined in a fixture is shown by the run and diagnose summaries, every other line as before', () => {
  for (const [name, format] of [['run', formatSummary], ['diagnose', formatDiagnose]]) {
    const saved = savedWithErrors(name);
    const goodput = saved.load.rps * (1 - 9 / saved.load.requests);
    const text = format({ ...saved, metrics: measureMetrics(saved, TABLE) });
    const line = `Metrics    goodput ${Math.round(goodput).toLocaleString('en-US')} req/s`;
    assert.ok(text.split('\n').includes(line), `${name}: ${line}\n${text}`);
    // The built-in metrics keep their lines: the same text as a result without the fixture's metric
    // (and as a result saved before it had a metrics block, which is measured from the table when shown).
    assert.equal(text.split('\n').filter((l) => l !== line).join('\n'), format(saved), name);
    assert.equal(format({ ...saved, metrics: measureMetrics(saved) }), format(saved), name);
  }
});

test('a metric defined in a fixture gets a headline tile in the HTML report of a run and of a diagnose', () => {
  for (const name of ['run', 'diagnose']) {
    const saved = savedWithErrors(name);
    const goodput = Math.round(saved.load.rps * (1 - 9 / saved.load.requests)).toLocaleString('en-US');
    const html = renderHtml({ ...saved, metrics: measureMetrics(saved, TABLE) });
    const tiles = [...html.matchAll(/<div class="tile( bad)?"><div class="v">([^<]*)<\/div><div class="k">([^<]*)<\/div><\/div>/g)].map((m) => [m[3], m[2], Boolean(m[1])]);
    assert.deepEqual(tiles.map(([label]) => label), [
      'requests per second, errors included', `succeeded per second (${Math.round(100 - (900 / saved.load.requests))}%)`, `requests in ${(saved.load.durationMs / 1000).toFixed(1)} s`,
      'goodput', 'latency p50', 'latency p99', 'latency max', 'errors',
    ], name);
    assert.deepEqual(tiles.find(([label]) => label === 'goodput'), ['goodput', `${goodput} req/s`, false], name);
    assert.deepEqual(tiles.find(([label]) => label === 'errors'), ['errors', '9', true], name);
    // Without the fixture's metric, the same page less its tile and the summary's line.
    const without = html.replace(`<div class="tile"><div class="v">${goodput} req/s</div><div class="k">goodput</div></div>`, '').replace(`\nMetrics    goodput ${goodput} req/s`, '');
    assert.equal(without, renderHtml(saved), name);
  }
});

test('a metric defined in a fixture with a compare-row figure is in each row\'s metrics block and a column of the compare table', () => {
  const saved = fixture('compare');
  const runsOf = (row) => saved.runs.filter((r) => r.workload === row.workload && r.strategy === row.strategy);
  const rows = saved.rows.map((row) => ({ ...row, metrics: measureRowMetrics(row, runsOf(row), TABLE) }));
  const result = { ...saved, rows };
  assert.deepEqual(rows[0].metrics.map((m) => m.id), ['rps', 'goodput', 'p50', 'p99', 'errors']);
  const json = JSON.parse(JSON.stringify(result));
  assert.ok(validate(json), JSON.stringify(validate.errors));
  // No failed request in this compare: goodput is the median throughput.
  const [baseline, forkPool] = rows.map((r) => Math.round(r.rps.median).toLocaleString('en-US'));
  assert.deepEqual(rows.map((r) => r.metrics[1].value), rows.map((r) => r.rps.median));
  const text = formatCompare(result);
  assert.match(text, /^strategy +req\/s \(min–max\) +p99 ms \(min–max\) +errors +goodput +vs baseline$/m);
  assert.match(text, new RegExp(`^baseline .* 0 +${baseline} req/s +1\\.00×$`, 'm'));
  assert.match(text, new RegExp(`^fork-pool .* 0 +${forkPool} req/s +0\\.85×$`, 'm'));
  assert.match(formatCompareMarkdown(result), new RegExp(`\\| errors \\| goodput \\| vs baseline \\|\n\\|---\\|---:\\|---:\\|---:\\|---:\\|---:\\|---:\\|\n\\| baseline \\| .* \\| 0 \\| ${baseline} req/s \\| 1\\.00× \\|`));
  const html = renderHtml(result);
  assert.match(html, /<th>errors<\/th><th>goodput<\/th><th>vs baseline<\/th>/);
  assert.match(html, new RegExp(`<td>0</td><td>${forkPool} req/s</td><td>0\\.85×</td>`));
  // Without it (and for a compare saved before rows had a metrics block), the table as before.
  assert.equal(formatCompare({ ...saved, rows: saved.rows.map((row) => ({ ...row, metrics: measureRowMetrics(row, runsOf(row)) })) }), formatCompare(saved));
});

test('the compare table\'s columns come from the metric table, in the order and headers they always had', () => {
  const saved = fixture('compare');
  const markdown = formatCompareMarkdown(saved).split('\n');
  assert.ok(markdown.includes('| strategy | req/s | min–max | p99 | errors | vs baseline |'), markdown.join('\n'));
  assert.match(formatCompare(saved), /^strategy +req\/s \(min–max\) +p99 ms \(min–max\) +errors +vs baseline$/m);
  assert.match(renderHtml(saved), /<tr><th>strategy<\/th><th>req\/s<\/th><th>min–max<\/th><th>p99<\/th><th>errors<\/th><th>vs baseline<\/th><th class="text"><\/th><\/tr>/);
});

/** A tune of three pool sizes on the fake run engine; size 2 has 115 errors for its 1,150 responses (goodput 90% of its req/s). */
async function tuneWithErrors() {
  const base = tuneBase({ connections: 30, durationMs: 3000, warmupMs: 1000 });
  const rps = { 1: 600, 2: 1150, 4: 1500 };
  const model = (size) => ({ rps: rps[size], errors: size === 2 ? rps[size] / 10 : 0 });
  const plan = { command: 'tune', base, sizes: [1, 2, 4], policies: ['round-robin'], repeat: 1, search: 'exhaustive', output: base.output };
  const result = await createTune(plan, { createRun: fakeRuns(model).createRun, readMachine: async () => MACHINE }).start();
  return JSON.parse(JSON.stringify(withWords(result))); // what --json prints and --out writes
}

test('a metric defined in a fixture with a tune-cell figure is in each cell\'s metrics block and a column of the tune table', async () => {
  const saved = await tuneWithErrors();
  // --json: each cell carries the table's metrics that have a cell figure, and the schema takes them.
  assert.deepEqual(saved.recommendation.cells.map((c) => c.metrics.map((m) => m.id)), [['rps', 'p99', 'errors'], ['rps', 'p99', 'errors'], ['rps', 'p99', 'errors']]);
  assert.deepEqual(saved.recommendation.cells[1].metrics[2], { id: 'errors', value: 115, unit: 'count', better: 'lower', format: 'count', of: 1265 }); // of the requests sent: 1,150 responses and 115 errors
  assert.ok(validate(saved), JSON.stringify(validate.errors));
  const cells = saved.recommendation.cells.map((c) => ({ ...c, metrics: measureCellMetrics(c, stepsOfCell(saved.steps, c), TABLE) }));
  const result = { ...saved, recommendation: { ...saved.recommendation, cells } };
  assert.deepEqual(cells[0].metrics.map((m) => m.id), ['rps', 'goodput', 'p99', 'errors']);
  assert.deepEqual(cells.map((c) => c.metrics[1].value), [600, 1035, 1500]);
  assert.ok(validate(result), JSON.stringify(validate.errors));

  const text = formatTune(result);
  assert.match(text, /^pool +policy +req\/s \(min–max\) +p99 ms \(min–max\) +errors +goodput$/m);
  assert.match(text, /^ +2 +round-robin +1,150 +[\d.]+ +115 +1,035 req\/s$/m);
  assert.match(text, /^ +4 +round-robin +1,500 +[\d.]+ +0 +1,500 req\/s +← recommended, best throughput$/m);
  // Every other line as before: only the evidence table's header and rows gain the column.
  const before = formatTune(saved).split('\n');
  const changed = text.split('\n').map((line, i) => [line, before[i]]).filter(([line, old]) => line !== old);
  assert.equal(changed.length, 4, text);
  const squeeze = (line) => line.replace(/ +/g, ' ').trim();
  for (const [line, old] of changed) assert.equal(squeeze(line).replace(/ (goodput|[\d,]+ req\/s)( |$)/, '$2'), squeeze(old));

  const html = renderHtml(result);
  assert.match(html, /<tr><th>pool<\/th><th class="text">policy<\/th><th>req\/s<\/th><th>min–max<\/th><th>p99<\/th><th>min–max<\/th><th>errors<\/th><th>goodput<\/th><th class="text"><\/th><\/tr>/);
  assert.match(html, /<td>115<\/td><td>1,035 req\/s<\/td><td class="text"><\/td><\/tr>/);

  // Without it (and for a tune saved before cells had a metrics block), the tables as before.
  const old = { ...saved, recommendation: { ...saved.recommendation, cells: saved.recommendation.cells.map(({ metrics, ...c }) => c) } };
  assert.equal(formatTune(old), formatTune(saved));
  assert.equal(renderHtml(old), renderHtml(saved));
  assert.match(renderHtml(saved), /<tr><th>pool<\/th><th class="text">policy<\/th><th>req\/s<\/th><th>min–max<\/th><th>p99<\/th><th>min–max<\/th><th>errors<\/th><th class="text"><\/th><\/tr>/);
});

test('the built-in columns are the table\'s too: a metric taken out of the table leaves the compare and tune tables', async () => {
  const withoutP99 = METRICS.filter((m) => m.id !== 'p99');
  const saved = fixture('compare');
  const runsOf = (row) => saved.runs.filter((r) => r.workload === row.workload && r.strategy === row.strategy);
  const compare = { ...saved, rows: saved.rows.map((row) => ({ ...row, metrics: measureRowMetrics(row, runsOf(row), withoutP99) })) };
  assert.match(formatCompare(compare), /^strategy +req\/s \(min–max\) +errors +vs baseline$/m);
  assert.ok(formatCompareMarkdown(compare).split('\n').includes('| strategy | req/s | min–max | errors | vs baseline |'));
  assert.match(renderHtml(compare), /<tr><th>strategy<\/th><th>req\/s<\/th><th>min–max<\/th><th>errors<\/th><th>vs baseline<\/th>/);
  const tune = await tuneWithErrors();
  const cells = tune.recommendation.cells.map((c) => ({ ...c, metrics: measureCellMetrics(c, stepsOfCell(tune.steps, c), withoutP99) }));
  const result = { ...tune, recommendation: { ...tune.recommendation, cells } };
  assert.match(formatTune(result), /^pool +policy +req\/s \(min–max\) +errors$/m);
  assert.match(renderHtml(result), /<tr><th>pool<\/th><th class="text">policy<\/th><th>req\/s<\/th><th>min–max<\/th><th>errors<\/th><th class="text"><\/th><\/tr>/);
});

test('the summary\'s Requests and Errors lines read the metrics block: a table that reads rps and errors otherwise changes them', () => {
  const saved = savedWithErrors('run');
  // A table whose rps and errors are read by other readers: the lines follow the block, not the load.
  const table = METRICS.map((m) => (m.id === 'rps' ? { ...m, read: () => ({ value: 123 }) } : m.id === 'errors' ? { ...m, read: () => ({ value: 7, of: 100 }) } : m));
  const lines = formatSummary({ ...saved, metrics: measureMetrics(saved, table) }).split('\n');
  assert.ok(lines.some((l) => /^Requests {3}[\d,]+ in [\d.]+ s {3}[\d,]+ req\/s \(123 req\/s succeeded, \d+%\) {3}/.test(l)), lines.join('\n'));
  assert.ok(lines.includes('Errors     7: non-2xx 9 (500 ×9)'), lines.join('\n'));
  const before = formatSummary(saved).split('\n');
  assert.ok(before.includes('Errors     9: non-2xx 9 (500 ×9)'));
  assert.equal(lines.filter((l, i) => l !== before[i]).length, 2, 'only those two lines change');
});

/** The live dashboard of a run whose latest tick carries these figures (a table's tick readers), at 100 × 40. */
function dashboardWith(tick) {
  const state = applyRunEvent(makeState({ workers: 2 }), 'tick', tick);
  return frame(React.createElement(Dashboard, { state, columns: 100, rows: 40 }), 100);
}

test('a metric defined in a fixture with a tick reader is on the live dashboard, every other line as before', () => {
  const tick = makeTick({ errors: true }); // 2,720 requests so far, 12 failed; 683 req/s in the last second, 672 the mean
  const live = measureTickMetrics(tick, TABLE);
  assert.deepEqual(live.map((f) => f.id), ['rps', 'goodput', 'p50', 'p90', 'p99', 'max', 'errors']);
  const text = dashboardWith({ ...tick, metrics: live });
  const goodput = (rate) => Math.round(rate * (1 - 12 / 2720)).toLocaleString('en-US');
  const line = `metrics    goodput ${goodput(672)}/s (last 1s ${goodput(683)}/s)`;
  assert.ok(text.split('\n').includes(line), `${line}\n${text}`);
  // Without it, the frame is the same less that line; a tick without a block is measured with the table.
  assert.equal(text.split('\n').filter((l) => l !== line).join('\n'), dashboardWith({ ...tick, metrics: measureTickMetrics(tick) }));
  assert.equal(dashboardWith(tick), dashboardWith({ ...tick, metrics: measureTickMetrics(tick) }));
});

test('the dashboard\'s throughput, latency and errors are the table\'s: a metric taken out or read otherwise changes them', () => {
  const tick = makeTick({ errors: true });
  const full = dashboardWith(tick);
  assert.match(full, /latency ms +p50 +p90 +p99 +max/);
  assert.match(full, /rps now 683 {2}mean 672/);
  assert.match(full, /! errors 12/);
  const withoutP99 = METRICS.filter((m) => m.id !== 'p99');
  const table = withoutP99.map((m) => (m.id === 'rps' ? { ...m, tick: (_t, w) => ({ value: w === 'interval' ? 11 : 22 }) } : m.id === 'errors' ? { ...m, tick: () => ({ value: 3, of: 100 }) } : m));
  const text = dashboardWith({ ...tick, metrics: measureTickMetrics(tick, table) });
  assert.match(text, /latency ms +p50 +p90 +max$/m);
  assert.match(text, /last 1s +41 +45 +62$/m);
  assert.match(text, /rps now 11 {2}mean 22/);
  assert.match(text, /! errors 3/);
});
