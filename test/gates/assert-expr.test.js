import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAssertion, parseAssertions } from '../../src/plan/assert-expr.js';
import { UsageError } from '../../src/base/errors.js';

test('latency, rps, errors, shares and changes parse into metric, op, value and unit', () => {
  assert.deepEqual(parseAssertion('p99<1ms'), { expr: 'p99<1ms', metric: 'p99', op: '<', value: 1, unit: 'ms' });
  assert.deepEqual(parseAssertion(' p999 <= 2s '), { expr: 'p999 <= 2s', metric: 'p999', op: '<=', value: 2000, unit: 'ms' });
  assert.equal(parseAssertion('max<500us').value, 0.5);
  assert.deepEqual(parseAssertion('rps>=800'), { expr: 'rps>=800', metric: 'rps', op: '>=', value: 800, unit: 'rps' });
  assert.deepEqual(parseAssertion('errors=0'), { expr: 'errors=0', metric: 'errors', op: '=', value: 0, unit: 'count' });
  assert.deepEqual(parseAssertion('errors<=1.5%'), { expr: 'errors<=1.5%', metric: 'errors', op: '<=', value: 1.5, unit: '%' });
  assert.deepEqual(parseAssertion('blocked-in-spawn<30%'), { expr: 'blocked-in-spawn<30%', metric: 'blocked-in-spawn', op: '<', value: 0.3, unit: 'fraction' });
  assert.deepEqual(parseAssertion('elu<0.9'), { expr: 'elu<0.9', metric: 'elu', op: '<', value: 0.9, unit: 'fraction' });
  assert.deepEqual(parseAssertion('rps-change>-5%'), { expr: 'rps-change>-5%', metric: 'rps-change', op: '>', value: -5, unit: '%' });
  assert.deepEqual(parseAssertion('p99-change<10%').metric, 'p99-change');
  assert.deepEqual(parseAssertions(undefined), []);
  assert.equal(parseAssertions(['p50<1s', 'rps>1']).length, 2);
});

test('a malformed expression is a one-line usage error naming it and what to write', () => {
  const cases = [
    ['p99', /--assert 'p99': not an assertion; write metric, comparison and value/],
    ['p98<1ms', /--assert 'p98<1ms': unknown metric 'p98'; use one of p50, p90/],
    ['p99>1ms', /--assert 'p99>1ms': p99 takes < or <= \(e\.g\. p99<50ms\)/],
    ['p99<1', /give the duration a unit: us, ms or s/],
    ['rps<800', /rps takes > or >=/],
    ['rps>800ms', /rps is requests per second/],
    ['errors<3', /errors takes = or <=/],
    ['errors=1.5', /errors takes a whole count or a share in %/],
    ['errors<=150%', /at most 100%/],
    ['elu<1.5', /elu is a share: write 30% or 0\.3/],
    ['rps-change>-5', /a change is in %, signed/],
    ['rps>-5', /rps cannot be negative/],
    // Two gates in one flag (k6's thresholds are a list): said so, not "not an assertion".
    ['p99<50ms,rps>=100', /one expression per --assert: repeat the flag/],
    ['p99<50ms && rps>=100', /one expression per --assert: repeat the flag/],
  ];
  for (const [expr, message] of cases) {
    assert.throws(() => parseAssertion(expr), (error) => error instanceof UsageError && message.test(error.message) && !error.message.includes('\n'), expr);
  }
});

test('a command that does not measure a metric refuses it, naming what it can assert', () => {
  assert.throws(() => parseAssertion('p90<1s', { metrics: ['p50', 'p99', 'rps', 'errors'], command: 'compare' }), /compare does not measure p90; it can assert p50, p99, rps, errors/);
});
