// A compare row's errors are a share of its requests that ended (attempts). A run's `requests`
// counts every response, a 500 too: the row's share was errors ÷ (requests + errors), so a
// server failing 45% of its requests read 31%, `compare --assert 'errors<=40%'` passed on it
// ("measured 31%"), and --against judged the share on the same wrong whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateAssertions, gateFigures } from '../../src/analysis/assert-evaluate.js';
import { againstCompareBaseline } from '../../src/analysis/against-deltas.js';
import { parseAssertion } from '../../src/plan/assert-expr.js';
import { compareTable } from '../../src/analysis/compare-table.js';

/** A compare result of one row: `failing` of every 1,000 requests answered 500. */
function compare(failing, { attempts = true } = {}) {
  const run = (repeat) => ({
    workload: 'server', strategy: 'mine', repeat, rps: 1000, p50Ms: 1, p99Ms: 2, errors: failing, requests: 1000,
    ...(attempts ? { attempts: 1000, succeeded: 1000 - failing } : {}), failures: [],
  });
  const result = { kind: 'compare', plan: { strategies: ['mine'], workloads: ['server'], repeat: 2 }, runs: [run(1), run(2)] };
  return { ...result, rows: compareTable(result.runs, result.plan) };
}

test('compare --assert errors<=40% fails on a row where 45% of requests got a 500', () => {
  const [outcome] = evaluateAssertions([parseAssertion('errors<=40%')], gateFigures(compare(450)));
  assert.deepEqual([outcome.pass, outcome.measured], [false, 45]);
});

test("compare --against judges the row's error share over its requests", () => {
  const errors = againstCompareBaseline(compare(450), compare(100)).rows[0].deltas.find((d) => d.metric === 'errors');
  assert.deepEqual([errors.noise.shareBefore, errors.noise.shareAfter], [0.1, 0.45]);
});
