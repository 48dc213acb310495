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

test('a compare file saved before runs recorded attempts and successes: its gates read its errors as responses, never a share below the truth', () => {
  // Such a file's row of 50% 500s passed errors<=40% at "33%" and rps>=15000 on its failed responses.
  const old = compare(450, { attempts: false });
  const outcomes = evaluateAssertions(['errors<=40%', 'rps>=600', 'rps>=500'].map(parseAssertion), gateFigures(old));
  assert.deepEqual(outcomes.map((o) => [o.pass, Math.round(o.measured)]), [[false, 45], [false, 550], [true, 550]]);
  const against = againstCompareBaseline(old, compare(100, { attempts: false })).rows[0].deltas.find((d) => d.metric === 'rps');
  assert.deepEqual([Math.round(against.before), Math.round(against.after)], [900, 550]);
});
