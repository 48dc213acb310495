// tune on a slow endpoint (fixtures/servers/fixed-delay.js, 60 ms per response at 4
// connections: ~65 req/s): a 1 s step has too few responses to rank, so it is measured
// past its -d until it has 200 (and 5 × its p99); nothing left running. WORKERS is a size
// knob the server ignores: the one size measures the server as it is.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, fixture, assertNothingLeft } from '../own-server/helpers.js';
import { TUNE_MIN_RESPONSES } from '../../src/base/thresholds.js';

test('tune -d 1s on a 60 ms endpoint: each step runs past 1 s until it has 200 responses, and is ranked', async () => {
  const { code, out, err } = await cli(
    'tune', '--sizes', '1', '--size-env', 'WORKERS', '--repeat', '1', '-d', '1s', '--warmup', '300ms', '-c', '4', '--json',
    '--', process.execPath, fixture('fixed-delay'), '--delay-ms', '60', '--use-port-env',
  );
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.equal(result.steps.length, 1);
  for (const step of result.steps) {
    assert.equal(step.errors, 0, JSON.stringify(step));
    // 4 connections / 60 ms: at most ~67 responses a second, so 200 take 3 s or more.
    assert.ok(step.requests >= TUNE_MIN_RESPONSES, `${step.requests} responses`);
    assert.ok(step.durationMs >= 2500, `${step.durationMs} ms measured`);
    assert.ok(step.durationMs < 60_000, `${step.durationMs} ms: ended once it had enough, before the cap`);
    assert.equal(step.extended, true);
    assert.equal(step.tooFew, false);
  }
  assert.equal(result.recommendation.size, 1, JSON.stringify(result.recommendation.reasons));
  assert.equal(result.plan.base.load.durationMs, 1000);
  assert.equal(result.plan.base.load.extendToMs, 60_000);
  await assertNothingLeft({ pids: result.steps.map((s) => s.pid), marker: fixture('fixed-delay') });
});
