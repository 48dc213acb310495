// The words of the metric table's metrics (src/report/metric-text.js): every value
// format, the default a metric without words gets from its id and unit, and the
// summary's place for each built-in metric (none falls to the Metrics line).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { METRICS, measureMetrics, formatOf } from '../../src/analysis/metrics.js';
import { metricWords, formatMetricValue, describeFigure, formatOtherMetrics, formatLatencyFigures } from '../../src/report/metric-text.js';

const run = JSON.parse(readFileSync(new URL('../gates/fixtures/run.json', import.meta.url), 'utf8'));

test('a value as its format says; a plain number with its unit; – when not measured', () => {
  const cases = [
    ['ms', 'ms', 12.345, '12.3 ms'],
    ['rps', 'rps', 1234.6, '1,235 req/s'],
    ['count', 'count', 12345, '12,345'],
    ['percent', 'fraction', 0.734, '73%'],
    ['percent', 'fraction', 0.0312, '3.1%'],
    ['fraction', 'fraction', 0.934, '0.93'],
    [undefined, 'MB', 12.345, '12.3 MB'],
    [undefined, 'B', 123456.7, '123,457 B'],
    [undefined, '', 0.5, '0.5'],
  ];
  for (const [format, unit, value, text] of cases) assert.equal(formatMetricValue(value, { format, unit }), text, `${format} ${unit}`);
  assert.equal(formatMetricValue(null, { format: 'ms' }), '–');
  assert.equal(formatMetricValue(NaN, { format: 'count' }), '–');
});

test('the format follows the unit unless the metric says otherwise (elu: 0.93, not 93%)', () => {
  assert.deepEqual(METRICS.map((m) => [m.id, formatOf(m)]), [
    ['p50', 'ms'], ['p90', 'ms'], ['p99', 'ms'], ['p999', 'ms'], ['max', 'ms'], ['rps', 'rps'], ['errors', 'count'], ['blocked-in-spawn', 'percent'], ['elu', 'fraction'], ['busy', 'percent'],
  ]);
  assert.equal(formatOf({ unit: 'MB' }), 'number');
});

test('a metric without words is labelled by its id, gets a tile, shows on the Metrics line and as a table column', () => {
  const { bad, ...words } = metricWords('time-to-first-byte');
  assert.deepEqual(words, { label: 'time to first byte', tile: 'time to first byte', line: null, busiest: 'busiest process', column: true });
  assert.equal(metricWords('p50').column, false, 'p50 has a compare-row figure for --assert; the compare table shows p99');
  assert.equal(bad(5), false);
  assert.equal(metricWords('p999').label, 'p99.9');
  assert.equal(metricWords('p90').tile, null, 'p90 is in the HTML latency table, not a tile');
  const figure = { id: 'rss-peak', value: 0.42, unit: 'fraction', better: 'lower', format: 'percent', process: 'worker 2' };
  assert.equal(describeFigure(figure), 'rss peak 42% (busiest process: worker 2)');
  assert.equal(describeFigure({ id: 'elu', value: 0.91, unit: 'fraction', better: 'lower', format: 'fraction', process: 'main' }), 'ELU 0.91 (busiest loop: main)');
});

test('every built-in metric has its place in the summary: no Metrics line; the Latency line walks the table', () => {
  const figures = measureMetrics(run);
  assert.deepEqual(formatOtherMetrics(figures), []);
  assert.equal(formatLatencyFigures(figures, run.load.latency.meanMs), 'p50 136  p90 225  p99 322  p99.9 322  max 322  mean 146 ms');
  const none = figures.map((f) => ({ ...f, value: null }));
  assert.equal(formatLatencyFigures(none, null), 'no responses');
});

test('the Metrics line wraps at 80 columns under its label', () => {
  const figures = ['alpha-one', 'beta-two', 'gamma-three', 'delta-four', 'epsilon-five', 'zeta-six'].map((id, i) => ({ id, value: 1000 * (i + 1), unit: 'rps', better: 'higher', format: 'rps' }));
  const lines = formatOtherMetrics(figures);
  assert.deepEqual(lines, [
    'Metrics    alpha one 1,000 req/s   beta two 2,000 req/s',
    '           gamma three 3,000 req/s   delta four 4,000 req/s',
    '           epsilon five 5,000 req/s   zeta six 6,000 req/s',
  ]);
  for (const line of lines) assert.ok(line.length <= 80, line);
});
