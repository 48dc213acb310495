// A compare stopped early (Ctrl-C after 2 of 6 runs) printed "Median of 3 interleaved repeats"
// under rows that held one run each: the footer says the repeats are those measured.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { formatCompare } from '../../src/report/compare-text.js';

const COMPARE = JSON.parse(readFileSync(new URL('../gates/fixtures/compare.json', import.meta.url), 'utf8'));

test('compare stopped early: the footer does not claim every repeat was measured', () => {
  assert.equal(COMPARE.plan.repeat, 2);
  assert.match(formatCompare(COMPARE), /\nMedian of 2 interleaved repeats; /, 'a compare measured to its end');
  const stopped = formatCompare({ ...COMPARE, stoppedEarly: true, runs: COMPARE.runs.slice(0, 1) });
  assert.doesNotMatch(stopped, /Median of 2 interleaved repeats/);
  assert.match(stopped, /\nMedian of the repeats measured \(up to 2, interleaved; stopped early\); /);
});
