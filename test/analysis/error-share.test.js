// The recommendation's "N% of requests failed" line: a non-2xx response is one of the requests
// already, so the share is failed ÷ requests. It was errors ÷ (requests + errors): a run where
// 45% of requests got a 500 read "31.0% of requests failed", beside a Requests line of 55%
// succeeded and an `errors<=40%` gate that failed at 45%.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { formatAdviceBlock } from '../../src/report/run-advice-text.js';
import { syntheticRun, evenWorkers } from './synthetic-runs.js';

test('the share of failed requests in the advice is failed ÷ requests, as the Requests line and the gates count it', () => {
  // 700 req/s for 10 s: 7,000 responses, 3,150 of them 500s (45%).
  const run = syntheticRun({ poolSize: 2, rps: 700, cpus: [60, 60], errors: 3150, workers: evenWorkers(2, { rps: 700, elu: 0.5, cpuPct: 30, waitPct: 2 }) });
  const advice = adviseRun(adviceInput(run));
  const reason = advice.reasons.find((r) => r.id === 'errors');
  assert.ok(reason, JSON.stringify(advice.reasons.map((r) => r.id)));
  assert.equal(reason.figures.share, 0.45);
  assert.equal(reason.figures.errors, 3150);
  assert.match(formatAdviceBlock(advice).join('\n'), /45\.0% of requests failed/);
});
