// One real short run: its --json carries `recommendation` with every field, and
// the samples the recommendation reads (run-queue wait, in-flight per worker).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BALANCE_POLICIES } from '../../src/plan/option-declarations.js';
import { cli, waitFor } from '../helpers/harness.js';
import { processesInGroup } from '../helpers/processes.js';

test('fork-pool run --json: recommendation { size, policy, basis, confidence, reasons[], confirmWith }', async () => {
  const { code, out, err } = await cli('--strategy', 'fork-pool', '--pool-size', '2', '--duration', '2s', '--warmup', '0s', '--connections', '8', '--json');
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  const rec = result.recommendation;
  assert.deepEqual(
    ['size', 'policy', 'basis', 'confidence', 'reasons', 'confirmWith'].filter((k) => !(k in rec) || rec[k] === undefined),
    [],
  );
  assert.ok(rec.reasons.length > 0 && rec.reasons.every((r) => typeof r.id === 'string' && typeof r.figures === 'object'));
  assert.match(rec.confirmWith.command, /^spawnbench tune --strategy fork-pool --sizes [\d,]+ .*-c 8$/);
  assert.ok(rec.confirmWith.expectedMs > 0);
  if (rec.reasons.some((r) => r.id === 'too-short')) {
    // A machine busy enough to serve under 200 requests in 2 s: the run says it cannot tell.
    assert.equal(result.load.requests < 200 || result.load.durationMs < 1950, true);
    assert.deepEqual([rec.size, rec.policy, rec.basis, rec.confidence], [null, null, null, null]);
  } else {
    assert.ok(Number.isInteger(rec.size) && rec.size >= 1 && rec.size <= 2 * result.machine.cores, `size ${rec.size}`);
    assert.ok(BALANCE_POLICIES.includes(rec.policy), rec.policy);
    assert.equal(rec.basis, 'one-run');
    assert.ok(['high', 'medium', 'low'].includes(rec.confidence));
  }
  const workers = result.samples.processes.filter((p) => p.role === 'worker');
  assert.equal(workers.length, 2);
  for (const p of result.samples.processes) {
    assert.ok(Number.isFinite(p.summary.waitPct) && Number.isFinite(p.summary.loopCpuPct), `${p.label} schedstat figures`);
  }
  for (const w of workers) assert.ok(Number.isFinite(w.summary.inFlight), `${w.label} in flight`);
  await waitFor(() => processesInGroup(result.strategy.pid).length === 0, {
    timeoutMs: 5000,
    what: () => `the process group ${result.strategy.pid} to be gone (left: ${processesInGroup(result.strategy.pid).join(', ')})`,
  });
});
