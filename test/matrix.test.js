// The test matrix (`npm test`): which files each set runs, and the closing summary it
// reads from each Node's run (CI reads the totals it prints last).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { testFiles, parseSummary, nodePath } from './matrix.js';

test('the full set is every test file; the smoke set is test/smoke; each Node of the matrix is installed', () => {
  const full = testFiles('full');
  assert.ok(full.includes('test/matrix.test.js') && full.includes('test/probe/spawn-timing.test.js'));
  assert.ok(full.includes('test/smoke/smoke.test.js'));
  assert.ok(full.every((file) => file.endsWith('.test.js')));
  assert.deepEqual(testFiles('smoke'), ['test/smoke/smoke.test.js']);
  for (const name of ['this', '22', '24', '26']) assert.ok(existsSync(nodePath(name)), `Node ${name}: ${nodePath(name)}`);
});

test('the summary read is the last one in the output, colours or not; none without one', () => {
  const summary = (tests, fail) => `ℹ tests ${tests}\nℹ suites 0\nℹ pass ${tests - fail}\nℹ fail ${fail}\nℹ cancelled 0\nℹ skipped 0\nℹ todo 0\nℹ duration_ms 12.5\n`;
  const text = `✔ a\nℹ some diagnostic 3\n${summary(4, 1)}✖ failing tests:\n\x1b[34mℹ tests 9\x1b[39m\n${summary(9, 0).split('\n').slice(1).join('\n')}`;
  assert.deepEqual(parseSummary(text), { tests: 9, suites: 0, pass: 9, fail: 0, cancelled: 0, skipped: 0, todo: 0, duration_ms: 12.5 });
  assert.equal(parseSummary('✔ a\n✔ b\n'), null);
  assert.equal(parseSummary('ℹ tests 3\n'), null, 'cut off before pass and fail');
});
