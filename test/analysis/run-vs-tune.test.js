import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runAgainstTune } from '../../src/analysis/run-vs-tune.js';

const sizes = (table) => Object.entries(table).map(([size, median]) => ({ size: Number(size), rps: { median } }));

test('a run\'s size is checked by tune\'s throughput at it, not by its distance in sizes', () => {
  // 16 cores: run said 7; tune's best was 4 at 12,498 req/s, 6 gave 12,200 and 8 gave 11,762.
  const big = sizes({ 1: 4200, 2: 8100, 3: 11000, 4: 12498, 6: 12200, 8: 11762, 12: 11300, 16: 11046 });
  const seven = runAgainstTune(7, big);
  assert.equal(seven.bestSize, 4);
  assert.equal(seven.interpolated, true);
  assert.equal(Math.round(seven.rps), 11981);
  assert.equal(seven.within, true, 'three sizes off the best, 4% below it');
  assert.equal(runAgainstTune(16, big).within, false, '12% below the best');
  // 2 cores: one size off the best, 20% below it.
  const small = sizes({ 1: 800, 2: 1000, 3: 990, 4: 790 });
  assert.equal(runAgainstTune(3, small).within, true);
  const four = runAgainstTune(4, small);
  assert.equal(four.interpolated, false);
  assert.equal(four.within, false);
  assert.ok(Math.abs(four.share - 0.79) < 1e-9);
});

test('a size outside the sizes tune measured, or nothing to compare, is not known', () => {
  const measured = sizes({ 2: 1000, 4: 1200 });
  assert.deepEqual(runAgainstTune(8, measured), { size: 8, rps: null, interpolated: false, bestSize: 4, bestRps: 1200, share: null, within: null });
  assert.equal(runAgainstTune(null, measured), null);
  assert.equal(runAgainstTune(2, []), null);
});

test('run --help says how the one-run model is checked', async () => {
  const { cli } = await import('../helpers/harness.js');
  const { code, out } = await cli('run', '--help');
  assert.equal(code, 0);
  assert.match(out.replace(/\s+/g, ' '), /checked by throughput, not by size: tune's throughput at the recommended size must be within 5% of tune's best/);
});
