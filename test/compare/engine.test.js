import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createCompare } from '../../src/compare/compare-engine.js';
import { formatCompare } from '../../src/report/compare-text.js';
import { fakeRuns, MACHINE } from '../tune/fake-run.js';

const runPlan = (strategy, workload) => ({
  command: 'compare',
  target: { kind: 'strategy', strategy, pool: strategy !== 'baseline', poolSize: strategy === 'baseline' ? null : 2, balance: strategy === 'baseline' ? null : 'p2c' },
  workload: { name: workload, command: 'echo', args: ['hi'], expected: Buffer.from('hi\n') },
  load: { connections: 4, durationMs: 1000, warmupMs: 200, threads: 1, expected: Buffer.from('hi\n') },
  output: { json: false, dashboard: false, out: null },
});
const plan = (strategies, workloads = ['echo'], repeat = 2) => ({
  command: 'compare', strategies, workloads, repeat, output: runPlan('baseline', 'echo').output,
  plans: Object.fromEntries(workloads.map((w) => [w, Object.fromEntries(strategies.map((s) => [s, runPlan(s, w)]))])),
});
const RPS = { baseline: 650, 'fork-pool': 2200, cluster: 1700 };
const deps = (createRun) => ({ createRun, readMachine: async () => MACHINE });

test('interleaved runs, one per strategy and repeat, then the table; a strategy that cannot start is a row that says so', async () => {
  const fake = fakeRuns((size, policy, call, p) => (p.target.strategy === 'cluster' ? { fail: 'cluster cannot run on bun' } : { rps: RPS[p.target.strategy] }));
  const compare = createCompare(plan(['baseline', 'fork-pool', 'cluster']), deps(fake.createRun));
  const steps = [];
  compare.on('compare-step', (s) => steps.push(`${s.repeat}:${s.strategy}`));
  const result = await compare.start();
  assert.deepEqual(steps, ['1:baseline', '1:fork-pool', '1:cluster', '2:baseline', '2:fork-pool', '2:cluster']);
  assert.equal(result.kind, 'compare');
  assert.deepEqual(result.rows.map((r) => [r.strategy, r.ratio && Number(r.ratio.toFixed(2)), r.failed]), [
    ['baseline', 1, null], ['fork-pool', 3.38, null], ['cluster', null, 'cluster cannot run on bun'],
  ]);
  // Each row carries the metric table's figures it has (--json): the medians, errors, a failed row's 0 req/s.
  for (const row of result.rows) {
    assert.deepEqual(row.metrics.map((m) => [m.id, m.value]), [['rps', row.failed ? 0 : row.rps.median], ['p50', row.metrics[1].value], ['p99', row.p99Ms.median], ['errors', row.errors]], row.strategy);
  }
  assert.ok(Number.isFinite(result.rows[0].metrics[1].value), 'p50: the median of the repeats');
  assert.equal(result.exitCode, 1, 'a run that failed makes the comparison fail');
  assert.equal(result.plan.poolSize, 2);
  assert.match(formatCompare(result), /^cluster +– +– +0 +– +failed: cluster cannot run on bun$/m);
});

test('stop: the run in progress ends, no further run starts, the table covers what was measured', async () => {
  const fake = fakeRuns((size, policy, call, p) => ({ rps: RPS[p.target.strategy], hang: call === 2 }));
  const compare = createCompare(plan(['baseline', 'fork-pool']), deps(fake.createRun));
  compare.on('compare-progress', (p) => p.index === 2 && setImmediate(() => compare.stop()));
  const result = await compare.start();
  assert.equal(fake.plans.length, 2);
  assert.equal(result.stoppedEarly, true);
  assert.deepEqual(result.rows.map((r) => r.strategy), ['baseline'], 'the partial run is left out of the table');
  assert.match(result.notes[0], /stopped early after 2 of 4 runs/);
});

test('other processes on the cores during the runs are said under the table; below half a core they are not', async () => {
  // Seen: a comparison on a machine where a test suite held 1.0–1.6 of 2 cores printed its ratios with no word of it.
  const { compareResult } = await import('../../src/compare/compare-engine.js');
  const p = plan(['baseline', 'fork-pool'], ['echo'], 1);
  const run = (strategy, otherCores) => ({ index: 1, strategy, workload: 'echo', repeat: 1, rps: RPS[strategy], p50Ms: 1, p99Ms: 5, errors: 0, requests: 100, attempts: 100, succeeded: 100, durationMs: 1000, partial: false, failures: [], signals: { otherCores } });
  const shared = compareResult(p, { machine: MACHINE, runs: [run('baseline', 1.04), run('fork-pool', 1.6)], stoppedEarly: false });
  assert.match(formatCompare(shared), /^note: other processes used 1\.0–1\.6 cores during the runs \(of 2\): the figures are of a machine shared with them/m);
  const quiet = compareResult(p, { machine: MACHINE, runs: [run('baseline', 0.1), run('fork-pool', 0.2)], stoppedEarly: false });
  assert.doesNotMatch(formatCompare(quiet), /other processes/);
});
