import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAssertions } from '../../src/plan/assert-expr.js';
import { gateFigures, evaluateAssertions } from '../../src/analysis/assert-evaluate.js';
import { formatAssertions, formatAssertionLine } from '../../src/report/assert-text.js';

function runResult({ p99Ms = 40, rps = 900, errors = { total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0 }, requests = 9000, processes } = {}) {
  return {
    kind: 'run',
    load: { rps, requests, errors, latency: { p50Ms: 10, p90Ms: 20, p99Ms, p999Ms: 60, maxMs: 80 } },
    samples: {
      processes: processes ?? [
        { key: 'main', label: 'main', summary: { elu: 0.2, blockedFraction: 0.01 } },
        { key: 'w0', label: 'worker 0', summary: { elu: 0.93, blockedFraction: 0.41 } },
        { key: 'w1', label: 'worker 1', summary: { elu: 0.95, blockedFraction: 0.35 } },
      ],
    },
  };
}

const check = (exprs, result) => evaluateAssertions(parseAssertions(exprs), gateFigures(result));

test('each assertion is checked against the figure it names, busiest process for loop figures', () => {
  const out = check(['p99<50ms', 'p99<1ms', 'rps>=900', 'rps>900', 'errors=0', 'blocked-in-spawn<30%', 'elu<0.96'], runResult());
  assert.deepEqual(out.map((o) => [o.expr, o.pass, o.measured]), [
    ['p99<50ms', true, 40],
    ['p99<1ms', false, 40],
    ['rps>=900', true, 900],
    ['rps>900', false, 900],
    ['errors=0', true, 0],
    ['blocked-in-spawn<30%', false, 0.41],
    ['elu<0.96', true, 0.95],
  ]);
  assert.equal(out[5].process, 'worker 0');
  assert.equal(out[6].process, 'worker 1');
  assert.deepEqual(out.map((o) => o.id), ['assert-pass', 'assert-fail', 'assert-pass', 'assert-fail', 'assert-pass', 'assert-fail', 'assert-pass']);
});

test('an error share counts failed connections among the attempts but not non-2xx twice', () => {
  const errors = { total: 30, connect: 10, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 20 };
  // 990 responses (20 of them non-2xx) + 10 refused connects = 1,000 attempts, 30 failed: 3%.
  const [share, count] = check(['errors<=3%', 'errors<=29'], runResult({ errors, requests: 990 }));
  assert.equal(share.measured, 3);
  assert.equal(share.pass, true);
  assert.equal(count.pass, false);
});

test('a figure the result does not hold fails the gate and says so', () => {
  const noProbe = runResult({ processes: [{ key: 'main', label: 'main', summary: { elu: null, blockedFraction: null } }] });
  const [outcome] = check(['elu<0.9'], noProbe);
  assert.equal(outcome.id, 'assert-not-measured');
  assert.equal(outcome.pass, false);
  assert.match(formatAssertions([outcome]), /^assert elu<0\.9 {2}FAIL {2}not measured \(needs the in-process probe/);
});

test('compare results are gated row by row', () => {
  const result = {
    kind: 'compare',
    rows: [
      { workload: 'echo', strategy: 'baseline', rps: { median: 600 }, p99Ms: { median: 90 }, errors: 0, failed: null },
      { workload: 'echo', strategy: 'fork-pool', rps: { median: 1500 }, p99Ms: { median: 30 }, errors: 0, failed: null },
    ],
    runs: [
      { workload: 'echo', strategy: 'baseline', p50Ms: 40, requests: 3000, errors: 0 },
      { workload: 'echo', strategy: 'fork-pool', p50Ms: 12, requests: 7500, errors: 0 },
    ],
  };
  const out = check(['rps>=1000'], result);
  assert.deepEqual(out.map((o) => [o.where, o.pass]), [['baseline · echo', false], ['fork-pool · echo', true]]);
  assert.equal(formatAssertions(out), [
    'assert rps>=1000  FAIL  baseline · echo:  measured 600 req/s',
    'assert rps>=1000  pass  fork-pool · echo:  measured 1,500 req/s',
    '1 of 2 assertions failed (exit 3)',
  ].join('\n'));
});

test('the lines name the expression, pass or FAIL and the measured value in its unit', () => {
  const text = formatAssertions(check(['p99<1ms', 'errors=0', 'blocked-in-spawn<30%', 'elu<0.9'], runResult()));
  assert.equal(text, [
    'assert p99<1ms  FAIL  measured 40.0 ms',
    'assert errors=0  pass  measured 0',
    'assert blocked-in-spawn<30%  FAIL  measured 41% (busiest process: worker 0)',
    'assert elu<0.9  FAIL  measured 0.95 (busiest loop: worker 1)',
    '3 of 4 assertions failed (exit 3)',
  ].join('\n'));
});

test('changes come from the --against comparison', () => {
  const result = { ...runResult(), against: { deltas: [{ metric: 'rps', changePct: -7.5 }, { metric: 'p99', changePct: 3 }] } };
  const out = check(['rps-change>-5%', 'p99-change<10%'], result);
  assert.deepEqual(out.map((o) => [o.pass, o.measured]), [[false, -7.5], [true, 3]]);
  assert.match(formatAssertions(out), /assert rps-change>-5% {2}FAIL {2}measured -7\.5%/);
});

test('a probe gate on a server measured from outside (--url) says the probe cannot be there, not "drop --no-probe"', () => {
  // Seen: report url-run.json --assert 'elu<0.5': 'needs the in-process probe: drop --no-probe, …', and no --no-probe was given.
  const outside = { kind: 'run', plan: { target: { kind: 'url', url: 'http://127.0.0.1:3000/' }, load: {} }, load: { requests: 100, durationMs: 1000, rps: 100, errors: { total: 0 }, latency: { p50Ms: 1, p90Ms: 2, p99Ms: 3, p999Ms: 3, maxMs: 3 } }, samples: null, failures: [] };
  const [elu] = check(['elu<0.5'], outside);
  assert.equal(elu.pass, false);
  assert.equal(elu.why, 'outside');
  assert.match(formatAssertions([elu]), /not measured \(needs the in-process probe, which a server measured from outside \(--url\) does not have: start it under spawnbench/);
  assert.doesNotMatch(formatAssertions([elu]), /--no-probe/);
  const started = { ...outside, plan: { ...outside.plan, target: { kind: 'command', command: ['node', 's.js'] } } };
  assert.match(formatAssertions(check(['elu<0.5'], started)), /drop --no-probe/, 'a server spawnbench started: the flag is the reason');
});

test('a probe gate on a server whose probe said why it reported nothing gives that reason, not "drop --no-probe"', () => {
  // run --assert 'elu<0.9' -- runuser -u nobody -- node s.js: "needs the in-process probe: drop --no-probe", and no --no-probe was given.
  const reason = 'no probe report received: the server runs as uid 65534, and the probe\'s channel only takes spawnbench\'s user (uid 0)';
  const result = { kind: 'run', plan: { target: { kind: 'command', command: ['runuser', 'node', 's.js'] }, load: {} }, load: { requests: 100, durationMs: 1000, rps: 100, errors: { total: 0 }, latency: { p50Ms: 1, p90Ms: 2, p99Ms: 3, p999Ms: 3, maxMs: 3 } }, samples: { processes: [], probe: { available: false, reason } }, failures: [] };
  const line = formatAssertions(check(['elu<0.9'], result));
  assert.match(line, /not measured \(needs the in-process probe, which reported nothing: no probe report received: the server runs as uid 65534/);
  assert.doesNotMatch(line, /--no-probe/);
  const off = { ...result, samples: { processes: [], probe: { available: false, reason: 'probe not enabled' } } };
  assert.match(formatAssertions(check(['elu<0.9'], off)), /drop --no-probe/, 'the flag turned it off: the flag is the reason');
});

test('a figure that rounds to the gate\'s own limit shows the digits that tell them apart', () => {
  const line = (o) => formatAssertionLine({ where: null, process: null, ...o });
  // Seen: "assert rps>=31590  FAIL  measured 31,590 req/s", a gate that seemed to fail at what it asked for.
  assert.equal(line({ id: 'assert-fail', expr: 'rps>=31590', metric: 'rps', op: '>=', limit: 31590, unit: 'req/s', measured: 31589.62, pass: false }),
    'assert rps>=31590  FAIL  measured 31,590 req/s (31589.6; the limit is 31590)');
  assert.match(line({ id: 'assert-fail', expr: 'elu<0.9', metric: 'elu', op: '<', limit: 0.9, unit: '', measured: 0.9012, pass: false }), /measured 0\.90 \(0\.9012; the limit is 0\.9\)$/);
  // Equal, or shown apart already: the line as before.
  assert.match(line({ id: 'assert-fail', expr: 'elu<0.9', metric: 'elu', op: '<', limit: 0.9, unit: '', measured: 0.9, pass: false }), /measured 0\.90$/);
  assert.match(line({ id: 'assert-pass', expr: 'p99<10ms', metric: 'p99', op: '<', limit: 10, unit: 'ms', measured: 4.2, pass: true }), /measured 4\.20 ms$/);
});
