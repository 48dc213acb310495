// The metric table (src/analysis/metrics.js) is the one place a metric is defined:
// every built-in metric is one entry, and a metric defined in a test fixture is
// parsed by --assert, checked against a result, compared by --against and worded by
// the report without any other file knowing it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { METRICS, metricsOf, assertSpecs } from '../../src/analysis/metrics.js';
import { parseAssertion, parseAssertions, ASSERT_METRICS } from '../../src/assert-expr.js';
import { gateFigures, evaluateAssertions } from '../../src/analysis/assert-evaluate.js';
import { againstBaseline } from '../../src/analysis/against-deltas.js';
import { formatAssertions } from '../../src/report/assert-text.js';
import { formatAgainst } from '../../src/report/against-text.js';
import { UsageError } from '../../src/errors.js';
import { TABLE } from './fixtures/goodput-metric.js';

const result = (rps, requests, errors) => ({
  kind: 'run',
  load: { rps, requests, errors: { total: errors, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: errors }, latency: { p50Ms: 5, p90Ms: 8, p99Ms: 12, p999Ms: 20, maxMs: 30 } },
  samples: { processes: [] },
});

test('every metric declares its kind, unit, direction and how it is read; ids are unique', () => {
  const ids = METRICS.map((m) => m.id);
  assert.deepEqual(ids, ['p50', 'p90', 'p99', 'p999', 'max', 'rps', 'errors', 'blocked-in-spawn', 'elu']);
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
