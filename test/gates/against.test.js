import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHistogram, recordMs, encodeHistogram, fullSummary } from '../../src/load/histogram.js';
import { againstBaseline, againstCompareBaseline } from '../../src/analysis/against-deltas.js';
import { gateFigures, evaluateAssertions } from '../../src/analysis/assert-evaluate.js';
import { parseAssertions } from '../../src/plan/assert-expr.js';
import { formatAssertions } from '../../src/report/assert-text.js';
import { formatAgainst } from '../../src/report/against-text.js';

/** A deterministic load result: latencies spread evenly around `centerMs`, per-second counts given. */
function load({ centerMs = 20, spreadMs = 10, count = 5000, perSecond = [500, 505, 495, 502, 498, 500, 500, 500, 500, 500], errors = 0 } = {}) {
  const h = createHistogram();
  for (let i = 0; i < count; i++) recordMs(h, centerMs - spreadMs + (2 * spreadMs * i) / count);
  const requests = perSecond.reduce((a, b) => a + b, 0);
  return {
    load: {
      rps: requests / perSecond.length,
      requests,
      latency: fullSummary(h),
      histogram: encodeHistogram(h),
      errors: { total: errors, connect: errors, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0 },
      series: perSecond.map((requests, i) => ({ second: i + 1, requests })),
    },
  };
}

const byMetric = (a) => Object.fromEntries(a.deltas.map((d) => [d.metric, d]));

test('the same run against itself: no change anywhere', () => {
  const run = load();
  const a = againstBaseline(run, run);
  assert.deepEqual(a.summary, { changes: 0, better: 0, worse: 0 });
  assert.ok(a.deltas.every((d) => d.significant !== true));
  assert.match(formatAgainst(a, { file: 'old.json' }), /^Against old\.json: no change beyond the noise/);
});

test('slower latency beyond the histograms\' confidence is a change for the worse; a small wobble is not', () => {
  const base = load({ centerMs: 20 });
  const d = byMetric(againstBaseline(load({ centerMs: 30 }), base));
  assert.equal(d.p50.significant, true);
  assert.equal(d.p50.better, false);
  assert.ok(Math.abs(d.p50.changePct - 50) < 1);
  const wobble = byMetric(againstBaseline(load({ centerMs: 20.05 }), base));
  assert.equal(wobble.p50.significant, false);
  assert.equal(wobble.max.significant, null, 'one request: never judged');
});

test('a tail percentile with too few requests behind it is not judged', () => {
  const d = byMetric(againstBaseline(load({ count: 800, centerMs: 40 }), load({ count: 800 })));
  assert.equal(d.p99.significant, true, '800 × 1% = 8 requests beyond p99: judged');
  assert.equal(d.p999.significant, null);
  assert.equal(d.p999.noise.reason, 'too-few-requests');
});

test('throughput: a shift larger than the per-second spread is a change, one inside it is not', () => {
  const base = load();
  const up = byMetric(againstBaseline(load({ perSecond: Array(10).fill(600) }), base));
  assert.equal(up.rps.significant, true);
  assert.equal(up.rps.better, true);
  const noisy = [300, 700, 350, 650, 500, 520, 480, 400, 600, 520];
  const same = byMetric(againstBaseline(load({ perSecond: noisy }), base));
  assert.equal(same.rps.significant, false);
  const short = byMetric(againstBaseline(load({ perSecond: [600, 600] }), base));
  assert.equal(short.rps.significant, null);
});

test('errors: from none to 1% of requests is a change; 1 against 2 is noise', () => {
  const base = load();
  assert.equal(byMetric(againstBaseline(load({ errors: 50 }), base)).errors.significant, true);
  assert.equal(byMetric(againstBaseline(load({ errors: 2 }), load({ errors: 1 }))).errors.significant, false);
});

test('the block lists every figure with before → after, change and mark', () => {
  const text = formatAgainst(againstBaseline(load({ centerMs: 30 }), load()), { file: 'old.json', createdAt: '2026-11-23T09:00:00.000Z' });
  const lines = text.split('\n');
  assert.match(lines[0], /^Against old\.json \(2026-11-23 09:00 UTC\): \d changes? beyond the noise: 0 better, \d worse$/);
  assert.match(lines.find((l) => l.includes('p50')), /p50 +20\.0 → 30\.0 ms +\+50% {2}worse/);
  assert.equal(lines.length, 8);
});

test('compare against compare: a row changed only where the repeats no longer overlap', async () => {
  const row = (strategy, rps, p99, n = 3) => ({
    workload: 'echo', strategy, errors: 0,
    rps: { median: rps[1], min: rps[0], max: rps[2], n },
    p99Ms: { median: p99[1], min: p99[0], max: p99[2], n },
  });
  const runs = (strategies) => strategies.map((strategy) => ({ workload: 'echo', strategy, requests: 3000 }));
  const old = { rows: [row('baseline', [600, 620, 640], [80, 90, 95]), row('fork-pool', [1400, 1500, 1550], [30, 35, 40])], runs: runs(['baseline', 'fork-pool']) };
  const now = { rows: [row('baseline', [610, 625, 650], [82, 88, 92]), row('fork-pool', [1700, 1800, 1850], [20, 22, 25]), row('cluster', [1, 2, 3], [1, 2, 3])], runs: runs(['baseline', 'fork-pool']) };
  const a = againstCompareBaseline(now, old);
  const mark = (strategy, metric) => a.rows.find((r) => r.strategy === strategy).deltas.find((d) => d.metric === metric);
  assert.equal(mark('baseline', 'rps').significant, false);
  assert.equal(mark('fork-pool', 'rps').significant, true);
  assert.equal(mark('fork-pool', 'rps').better, true);
  assert.equal(mark('fork-pool', 'p99').better, true);
  assert.deepEqual(a.unmatched, ['cluster · echo']);
  assert.deepEqual(a.summary, { changes: 2, better: 2, worse: 0 });
  const single = againstCompareBaseline({ rows: [row('baseline', [1, 700, 1], [1, 1, 1], 1)] }, old);
  assert.equal(single.rows[0].deltas[0].significant, null);
  const text = formatAgainst(a, { file: 'old.json' });
  assert.match(text, /^Against old\.json: 2 changes beyond the noise: 2 better, 0 worse\n {2}baseline · echo\n {4}req\/s +620 → 625 +\+0\.8% +within noise +repeats now 610–650, before 600–640\n/);
  assert.match(text, /\n {2}cluster · echo: not in the baseline$/);
});

test('a baseline whose figures cover part of its run (stopped early, or failed) is said, and a change gate against it fails', async () => {
  // A baseline whose server crashed halfway measured half the rate: rps-change>-5% passed a run 40% slower than the real one.
  const now = { kind: 'run', ...load({ perSecond: [300, 300, 300, 300, 300, 300, 300, 300, 300, 300] }) };
  const cases = [
    [{ ...load({ perSecond: [500, 500, 500, 500, 0, 0, 0, 0, 0, 0] }), failures: ["'node app.js' exited with code 1 during the run"] }, 'failed', /^ {2}warning: the baseline's run failed \(its server crashed or stopped answering\): its figures cover part of its run, so these changes are not the target's$/m],
    [{ ...load(), stoppedEarly: true }, 'stopped-early', /^ {2}warning: the baseline was stopped before its end: its figures cover part of its run, so these changes are not the target's$/m],
  ];
  for (const [baseline, cut, line] of cases) {
    const against = againstBaseline(now, baseline);
    assert.equal(against.baselineCut, cut);
    assert.match(formatAgainst(against, { file: 'old.json' }), line);
    const [outcome] = evaluateAssertions(parseAssertions(['rps-change>-5%']), gateFigures({ ...now, against }));
    assert.deepEqual([outcome.pass, outcome.why], [false, `baseline-${cut}`], cut);
  }
  const whole = againstBaseline(now, load());
  assert.equal(whole.baselineCut, undefined);
  assert.doesNotMatch(formatAgainst(whole, { file: 'old.json' }), /warning/);
  // A compare baseline: one of its runs failed.
  const row = { workload: 'echo', strategy: 'a', errors: 0, rps: { median: 600, min: 590, max: 610, n: 3 }, p99Ms: { median: 9, min: 8, max: 10, n: 3 } };
  const compared = againstCompareBaseline({ rows: [row], runs: [] }, { rows: [row], runs: [{ workload: 'echo', strategy: 'a', failures: ['crashed'] }] });
  assert.equal(compared.baselineCut, 'failed');
  assert.match(formatAgainst(compared, { file: 'old.json' }), /^Against old\.json: no change beyond the noise\n {2}warning: the baseline's run failed/);
});

test('a baseline from other CPUs (another model, another budget) is named: the change may be the machine\'s', () => {
  // A baseline saved on an 8-CPU machine and gated on in CI on 2: its changes read as the server's, without a word.
  const laptop = { ...load(), machine: { cpuModel: 'AMD EPYC 7763', cores: 8, cpu: { budget: 8 } } };
  const ci = { ...load(), machine: { cpuModel: 'Intel Xeon', cores: 2, cpu: { budget: 2 } } };
  const a = againstBaseline(ci, laptop);
  assert.deepEqual(a.differentMachines, { before: { cpuModel: 'AMD EPYC 7763', cpus: 8 }, after: { cpuModel: 'Intel Xeon', cpus: 2 } });
  assert.match(formatAgainst(a, 'base.json'), /^ {2}warning: comparing different machines: the baseline ran on AMD EPYC 7763 × 8 CPUs, this run on Intel Xeon × 2 CPUs; a change may be the machine's, not the target's$/m);
  // The same machine, or a result without one: no word.
  assert.equal(againstBaseline(ci, { ...ci }).differentMachines, undefined);
  assert.equal(againstBaseline(ci, load()).differentMachines, undefined);
  // A quota of 1.5 CPUs on the same model is another budget.
  assert.ok(againstBaseline(ci, { ...ci, machine: { ...ci.machine, cpu: { budget: 1.5 } } }).differentMachines);
});

test('a change gate on a run with no success says so, not "needs a baseline that has this figure" of a baseline that has it', async () => {
  const base = load();
  const failing = load({ errors: 5000 });
  failing.load.errors = { ...failing.load.errors, connect: 0, non2xx: 5000 };
  const now = { kind: 'run', ...failing };
  const against = againstBaseline(now, base);
  const outcomes = evaluateAssertions(parseAssertions(['p99-change<10%']), gateFigures({ ...now, against }));
  assert.deepEqual([outcomes[0].pass, outcomes[0].why], [false, 'no-successes']);
  assert.match(formatAssertions(outcomes), /p99-change<10% {2}FAIL {2}not measured \(no successful responses were measured/);
});

/** A compare row of 3 repeats of 51 requests at 51 req/s (server × app), and its runs with `succeeded` of them answered. */
const compareRow = (errors, rps) => ({ workload: 'server', strategy: 'app', errors, rps, p99Ms: { median: 9, min: 8, max: 11, n: 3 } });
const compareRuns = (succeeded) => [1, 2, 3].map((repeat) => ({ workload: 'server', strategy: 'app', repeat, rps: 51, requests: 51, attempts: 51, succeeded, errors: 51 - succeeded, failures: [] }));

test('compare against compare: a row none of whose requests succeeded has no change, and its change gates fail', async () => {
  // A server turned all-500 at the same rate read "req/s 51 → 51 ±0% same", and rps-change>-5% passed it.
  const row = (errors) => compareRow(errors, { median: 51, min: 50, max: 52, n: 3 });
  const before = { kind: 'compare', rows: [row(0)], runs: compareRuns(51) };
  const now = { kind: 'compare', rows: [row(153)], runs: compareRuns(0) };
  const against = againstCompareBaseline(now, before);
  const rps = against.rows[0].deltas.find((d) => d.metric === 'rps');
  assert.deepEqual([rps.after, rps.changePct, rps.noise.reason], [null, null, 'no-successes']);
  assert.match(formatAgainst(against, { file: 'old.json' }), /req\/s +51 → – +– +no request succeeded on a side: not judged/);
  const outcomes = evaluateAssertions(parseAssertions(['rps-change>-5%', 'p99-change<50%']), gateFigures({ ...now, against }));
  assert.deepEqual(outcomes.map((o) => [o.pass, o.why]), [[false, 'no-successes'], [false, 'no-successes']]);
});

test('compare against compare: req/s is the rate of successful responses, as the rps gate reads it', async () => {
  // Half the requests turned 500 at the same rate: "req/s 51 → 51 ±0% same" and rps-change>-5% passed, beside "rps>=45 FAIL measured 25".
  const row = (errors) => compareRow(errors, { median: 51, min: 51, max: 51, n: 3 });
  const now = { kind: 'compare', rows: [row(78)], runs: compareRuns(25) };
  const against = againstCompareBaseline(now, { kind: 'compare', rows: [row(0)], runs: compareRuns(51) });
  const rps = against.rows[0].deltas.find((d) => d.metric === 'rps');
  assert.deepEqual([rps.before, rps.after, rps.significant, rps.better], [51, 25, true, false]);
  const [outcome] = evaluateAssertions(parseAssertions(['rps-change>-5%']), gateFigures({ ...now, against }));
  assert.equal(outcome.pass, false);
  assert.ok(outcome.measured < -50, `measured ${outcome.measured}`);
});
