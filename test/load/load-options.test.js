// startLoad()'s defaults are the CLI's: one value each, from src/thresholds.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeOptions } from '../../src/load/load-options.js';
import { buildRunPlan } from '../../src/run-plan.js';

const url = 'http://127.0.0.1:9/';

test('closed loop without connections: the same 30 as the CLI\'s default', () => {
  assert.equal(normalizeOptions({ url }).connections, 30);
  assert.equal(buildRunPlan({ url }).load.connections, 30);
});

test('open loop without connections: rate × 0.5 s, from 10 to 1,000', () => {
  assert.equal(normalizeOptions({ url, rate: 5 }).connections, 10);
  assert.equal(normalizeOptions({ url, rate: 200 }).connections, 100);
  assert.equal(normalizeOptions({ url, rate: 1e6 }).connections, 1000);
});

test('duration and timeout defaults: 10 s each, as --help says', () => {
  const o = normalizeOptions({ url });
  assert.equal(o.durationMs, 10_000);
  assert.equal(o.timeoutMs, 10_000);
  assert.equal(buildRunPlan({ url }).load.durationMs, 10_000);
});
