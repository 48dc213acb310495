// Gates on runs where nothing succeeded or nothing was measured (issue 36, high 3): only
// successful responses count towards the throughput and latency gates; a figure with no
// data is null and fails its gate, saying why; the schema takes null there and refuses a
// negative latency; and a run in which every request failed still writes its --out file.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { parseAssertions } from '../../src/plan/assert-expr.js';
import { gateFigures, evaluateAssertions } from '../../src/analysis/assert-evaluate.js';
import { measureMetrics } from '../../src/analysis/metrics.js';
import { requestOutcome } from '../../src/analysis/request-outcome.js';
import { formatAssertions, WHY } from '../../src/report/assert-text.js';
import { readResultFile } from '../../src/report/result-file.js';
import { formatHeadline } from '../../src/report/summary.js';
import { RESULT_SCHEMA_URL } from '../../src/report/result-shape.js';
import { cli } from '../helpers/harness.js';
import { compareTable } from '../../src/analysis/compare-table.js';
import { startMisbehaving } from '../load/helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-failed-gates-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const Ajv = createRequire(import.meta.url)('ajv');
const validate = new Ajv().compile(JSON.parse(readFileSync(RESULT_SCHEMA_URL, 'utf8')));
const ALL_500 = new URL('./fixtures/all-500.json', import.meta.url);
const all500 = () => JSON.parse(readFileSync(ALL_500, 'utf8'));
const check = (exprs, result) => evaluateAssertions(parseAssertions(exprs), gateFigures(result));
const NULL_LATENCY = { minMs: null, meanMs: null, p50Ms: null, p75Ms: null, p90Ms: null, p99Ms: null, p999Ms: null, maxMs: null };

/** A measured phase in which no response came (a run of -d 10ms, or stopped in its warm-up). */
function emptyRun() {
  const load = { requests: 0, rps: 0, durationMs: 10, bytes: 9300, latency: NULL_LATENCY, succeededLatency: NULL_LATENCY, errors: { total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0, tls: 0 } };
  return { kind: 'run', load, outcome: requestOutcome(load) };
}

test('report all-500.json: rps and p99 gates fail and say no request succeeded (exit 3), a file from before the successes\' latency too', async () => {
  const file = join(dir, 'all-500.json');
  writeFileSync(file, readFileSync(ALL_500));
  const r = await cli('report', file, '--assert', 'rps>=1000', '--assert', 'p99<100ms');
  assert.equal(r.code, 3, r.err);
  assert.match(r.out, /\nassert rps>=1000 {2}FAIL {2}measured 0 req\/s \(no successful responses were measured: only successes count\)\n/);
  assert.match(r.out, /\nassert p99<100ms {2}FAIL {2}not measured \(no successful responses were measured: only successes count\)\n/);
  assert.match(r.out, /^Latency {4}no successful response$/m);
  // As an older version wrote it: every response's latency only, and a metrics block of the errors' figures.
  const old = all500();
  delete old.load.succeededLatency;
  delete old.metrics;
  delete old.outcome;
  const oldFile = join(dir, 'all-500-old.json');
  writeFileSync(oldFile, JSON.stringify(old));
  assert.ok(old.load.latency.p99Ms > 0, 'the errors have a latency');
  const again = await cli('report', oldFile, '--assert', 'rps>=1', '--assert', 'p99<100ms', '--json');
  assert.equal(again.code, 3, again.err);
  const outcomes = JSON.parse(again.out).assertions;
  assert.deepEqual(outcomes.map((o) => [o.expr, o.pass, o.measured, o.why]), [
    ['rps>=1', false, 0, 'no-successes'],
    ['p99<100ms', false, null, 'no-successes'],
  ]);
  assert.ok(validate(JSON.parse(again.out)), JSON.stringify(validate.errors));
});

test('a run with no response measured: every latency null in load and metrics; p99<1ms fails, saying the phase was empty', () => {
  const run = emptyRun();
  const metrics = measureMetrics(run);
  const byId = Object.fromEntries(metrics.map((m) => [m.id, m]));
  for (const id of ['rps', 'p50', 'p99', 'max']) assert.equal(byId[id].value, null, id);
  assert.equal(byId.p99.why, 'no-responses');
  const [p99, rps] = check(['p99<1ms', 'rps>=0'], run);
  assert.equal(p99.pass, false);
  assert.equal(rps.pass, false, 'rps>=0 does not pass on nothing');
  assert.equal(formatAssertions([p99]), 'assert p99<1ms  FAIL  not measured (no response was measured: the measured phase was empty)\n1 of 1 assertion failed (exit 3)');
  assert.match(formatAssertions([p99], { outranked: 130 }), /\n1 of 1 assertion failed \(exit 130, not 3: the run was stopped\)$/);
  assert.ok(validate({ ...all500(), load: run.load, metrics }), JSON.stringify(validate.errors));
  // As an older version saved it: zeros for no data, and no succeededLatency.
  const zeros = { minMs: 0, meanMs: 0, p50Ms: 0, p75Ms: 0, p90Ms: 0, p99Ms: 0, p999Ms: 0, maxMs: 0 };
  const { succeededLatency, ...oldLoad } = run.load;
  const [old] = check(['p99<1ms'], { kind: 'run', load: { ...oldLoad, latency: zeros } });
  assert.deepEqual([old.pass, old.measured, old.why], [false, null, 'no-responses']);
});

test('some failed: rps counts only the successes, the latency gates read the successes\' latency', () => {
  const load = {
    requests: 1000, rps: 100, durationMs: 10000,
    latency: { p50Ms: 1, p90Ms: 2, p99Ms: 3, p999Ms: 4, maxMs: 5, meanMs: 1 },
    succeededLatency: { p50Ms: 40, p90Ms: 60, p99Ms: 80, p999Ms: 90, maxMs: 95, meanMs: 45 },
    errors: { total: 600, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 600, tls: 0 },
  };
  const run = { kind: 'run', load, outcome: requestOutcome(load) };
  const out = check(['rps>=50', 'p99<10ms', 'p50<50ms'], run);
  assert.deepEqual(out.map((o) => [o.expr, o.pass, o.measured]), [['rps>=50', false, 40], ['p99<10ms', false, 80], ['p50<50ms', true, 40]]);
  assert.match(formatHeadline({ ...run, metrics: measureMetrics(run) }).join('\n'), /^Latency {4}p50 40\.0 {2}p90 60\.0 {2}p99 80\.0 {2}p99\.9 90\.0 {2}max 95\.0 {2}mean 45\.0 ms$/m);
});

test('the schema takes null latencies and refuses a negative one', () => {
  const result = all500();
  assert.ok(validate(result), JSON.stringify(validate.errors));
  assert.equal(result.load.succeededLatency.p99Ms, null);
  assert.equal(validate({ ...result, load: { ...result.load, latency: { ...result.load.latency, p99Ms: -1 } } }), false);
  assert.equal(validate({ ...result, load: { ...result.load, succeededLatency: { ...NULL_LATENCY, minMs: -0.5 } } }), false);
});

test('run --url on a server that answers 500: the gates fail beside FAILED, exit 1 kept, and --out is written with the failure', async () => {
  const server = await startMisbehaving('status-500');
  try {
    const out = join(dir, 'live.json');
    const r = await cli('run', '--url', server.url, '-d', '1s', '-w', '0', '-c', '2', '-r', '50', '--no-dashboard', '--assert', 'rps>=1', '--assert', 'p99<100ms', '--out', out);
    assert.equal(r.code, 1, r.err);
    assert.match(r.out, /^FAILED {5}no request succeeded/m);
    assert.match(r.out, /\nassert rps>=1 {2}FAIL {2}measured 0 req\/s \(no successful responses were measured: only successes count\)\nassert p99<100ms {2}FAIL {2}not measured \(no successful/);
    // The exit code said is the one it ends with: "(exit 3)" was printed beside exit 1.
    assert.match(r.out, /\n2 of 2 assertions failed \(exit 1, not 3: the run failed\)\n/);
    const saved = JSON.parse(readFileSync(out, 'utf8'));
    assert.equal(saved.exitCode, 1);
    assert.equal(saved.outcome.id, 'none-succeeded');
    assert.deepEqual(saved.assertions.map((o) => o.pass), [false, false]);
    assert.ok(saved.load.latency.p99Ms > 0, 'every response\'s latency is kept');
    assert.equal(saved.load.succeededLatency.p99Ms, null);
    assert.ok(validate(saved), JSON.stringify(validate.errors));
  } finally {
    await server.close();
  }
});

test('compare rows: rps counts the successes; a row where none succeeded fails its rps and p99 gates, saying why', () => {
  const run = (strategy, repeat, rps, requests, succeeded) => ({ workload: 'echo', strategy, repeat, rps, p50Ms: 1, p99Ms: 2, errors: requests - succeeded, requests, attempts: requests, succeeded, failures: [] });
  const result = {
    kind: 'compare',
    plan: { strategies: ['baseline', 'fork-pool'], workloads: ['echo'], repeat: 2 },
    runs: [run('baseline', 1, 1000, 10000, 5000), run('fork-pool', 1, 3000, 30000, 0), run('baseline', 2, 1000, 10000, 10000), run('fork-pool', 2, 3000, 30000, 0)],
  };
  result.rows = compareTable(result.runs, result.plan);
  const out = check(['rps>=800', 'p99<100ms'], result);
  assert.deepEqual(out.map((o) => [o.where, o.expr, o.pass, o.measured, o.why ?? null]), [
    ['baseline · echo', 'rps>=800', false, 750, null],
    ['fork-pool · echo', 'rps>=800', false, 0, 'no-successes'],
    ['baseline · echo', 'p99<100ms', true, 2, null],
    ['fork-pool · echo', 'p99<100ms', false, null, 'no-successes'],
  ]);
});

test('compare rows of a server that never started fail their errors gates too, saying the run failed', () => {
  // `compare --command good=... --command bad="node missing.js"`, then `report cmp.json --assert errors=0`:
  // "pass bad · server: measured 0", exit 0.
  const good = (repeat) => ({ workload: 'server', strategy: 'good', repeat, rps: 20, p50Ms: 1, p99Ms: 2, errors: 0, requests: 20, attempts: 20, succeeded: 20, failures: [] });
  const bad = (repeat) => ({ workload: 'server', strategy: 'bad', repeat, rps: null, p50Ms: null, p99Ms: null, errors: 0, requests: 0, durationMs: 0, partial: false, failures: [], signals: [], failed: "'node missing.js' exited with code 1 before it was ready" });
  const result = { kind: 'compare', plan: { strategies: ['good', 'bad'], workloads: ['server'], repeat: 2 }, runs: [good(1), bad(1), good(2), bad(2)] };
  result.rows = compareTable(result.runs, result.plan);
  const out = check(['errors=0', 'errors<=1%'], result);
  assert.deepEqual(out.map((o) => [o.where, o.expr, o.pass, o.why ?? null]), [
    ['good · server', 'errors=0', true, null],
    ['bad · server', 'errors=0', false, 'run-failed'],
    ['good · server', 'errors<=1%', true, null],
    ['bad · server', 'errors<=1%', false, 'run-failed'],
  ]);
});

test('report of a run stopped early (Ctrl-C in its measured phase): its gates fail, saying the figures cover part of the run (exit 3)', async () => {
  const RUN = new URL('./fixtures/run.json', import.meta.url);
  const stopped = { ...JSON.parse(readFileSync(RUN, 'utf8')), stoppedEarly: true };
  const outcomes = check(['p99<10s', 'rps>=1', 'errors<=100%'], stopped);
  assert.deepEqual(outcomes.map((o) => [o.expr, o.pass, o.why]), [
    ['p99<10s', false, 'stopped-early'],
    ['rps>=1', false, 'stopped-early'],
    ['errors<=100%', false, 'stopped-early'],
  ]);
  assert.ok(outcomes.every((o) => Number.isFinite(o.measured)), 'the figure is still shown');
  assert.deepEqual(check(['p99<10s'], { ...stopped, stoppedEarly: false }).map((o) => o.pass), [true], 'the same run measured to its end passes');
  const file = join(dir, 'stopped-early.json');
  writeFileSync(file, JSON.stringify(stopped));
  const r = await cli('report', file, '--assert', 'p99<10s', '--json');
  assert.equal(r.code, 3, r.err);
  assert.match(r.err, /\nassert p99<10s {2}FAIL {2}measured [\d.]+ ms \(the run was stopped before its end: the figure covers only the part measured\)\n/);
  const saved = JSON.parse(r.out);
  assert.ok(validate(saved), JSON.stringify(validate.errors));
});

test('report of a run whose server crashed during it (a failure recorded, exit 1): its gates fail, saying the run failed (exit 3)', async () => {
  // The server exited with code 7 after 1.2 s of a 4 s run: 'rps>=1' and 'p99<1s' passed, exit 0.
  const RUN = new URL('./fixtures/run.json', import.meta.url);
  const crashed = { ...JSON.parse(readFileSync(RUN, 'utf8')), failures: ["'node server.js' exited with code 7 during the run; its stderr ends:\nfatal"], exitCode: 1 };
  assert.deepEqual(check(['rps>=1', 'p99<10s'], crashed).map((o) => [o.expr, o.pass, o.why]), [
    ['rps>=1', false, 'run-failed'],
    ['p99<10s', false, 'run-failed'],
  ]);
  const file = join(dir, 'crashed.json');
  writeFileSync(file, JSON.stringify(crashed));
  const r = await cli('report', file, '--assert', 'rps>=1', '--json');
  assert.equal(r.code, 3, r.err);
  assert.match(r.err, /\nassert rps>=1 {2}FAIL {2}measured [\d,.]+ req\/s \(the run failed \(FAILED above\): its figures cover only what came before\)\n/);
  assert.ok(validate(JSON.parse(r.out)), JSON.stringify(validate.errors));
});

test('report of a compare stopped before its first run ended (no row): every gate fails, saying so (exit 3), not passes unchecked', async () => {
  const COMPARE = new URL('./fixtures/compare.json', import.meta.url);
  const stopped = { ...JSON.parse(readFileSync(COMPARE, 'utf8')), rows: [], runs: [], stoppedEarly: true };
  const outcomes = check(['rps>=1', 'p99<10s', 'errors=0'], stopped);
  assert.deepEqual(outcomes.map((o) => [o.expr, o.id, o.pass, o.why]), [
    ['rps>=1', 'assert-not-measured', false, 'no-rows'],
    ['p99<10s', 'assert-not-measured', false, 'no-rows'],
    ['errors=0', 'assert-not-measured', false, 'no-rows'],
  ]);
  const file = join(dir, 'compare-no-rows.json');
  writeFileSync(file, JSON.stringify(stopped));
  // It printed no gate line and exited 0.
  const r = await cli('report', file, '--assert', 'rps>=1');
  assert.equal(r.code, 3, r.err);
  assert.match(r.out + r.err, /\nassert rps>=1 {2}FAIL {2}not measured \(the comparison has no row: it was stopped before any run ended\)\n/);
});

test('report of a compare stopped after some servers\' runs ended: every row\'s gate fails, saying the server not run has no row', async () => {
  // compare a (fine) and b (all 500s), Ctrl-C after a's first run: only a had a row, and
  // `report cmp.json --assert errors=0` passed, exit 0, on a comparison that never ran b.
  const COMPARE = new URL('./fixtures/compare.json', import.meta.url);
  const whole = JSON.parse(readFileSync(COMPARE, 'utf8'));
  const stopped = { ...whole, rows: whole.rows.slice(0, 1), runs: whole.runs.filter((r) => r.strategy === whole.rows[0].strategy), stoppedEarly: true };
  const outcomes = check(['rps>=1', 'errors<=100%'], stopped);
  assert.deepEqual(outcomes.map((o) => [o.expr, o.pass, o.why]), [
    ['rps>=1', false, 'comparison-stopped-early'],
    ['errors<=100%', false, 'comparison-stopped-early'],
  ]);
  assert.ok(outcomes.every((o) => Number.isFinite(o.measured)), 'the figure is still shown');
  assert.deepEqual(check(['rps>=1'], { ...stopped, stoppedEarly: false }).map((o) => o.pass), [true], 'the same row of a comparison run to its end passes');
  assert.match(formatAssertions(outcomes), /^assert rps>=1 {2}FAIL {2}\S+ · \S+: {2}measured [\d,]+ req\/s \(the comparison was stopped before its end: a server whose run had not ended has no row to gate; run it to its end\)$/m);
});

test('a result whose gates failed for any reason is read back by report and --against: the schema takes every why a gate gives', () => {
  // A compare stopped before any row, with --assert and --out, wrote a file that report then refused as
  // edited ("its assertions.0.why must be equal to one of the allowed values ... unedited").
  const COMPARE = new URL('./fixtures/compare.json', import.meta.url);
  const stopped = { ...JSON.parse(readFileSync(COMPARE, 'utf8')), rows: [], runs: [], stoppedEarly: true };
  stopped.assertions = check(['rps>=1'], stopped);
  assert.equal(stopped.assertions[0].why, 'no-rows');
  const file = join(dir, 'compare-no-rows-gated.json');
  writeFileSync(file, JSON.stringify(stopped));
  assert.equal(readResultFile(file).assertions[0].why, 'no-rows');
  const RUN = JSON.parse(readFileSync(new URL('./fixtures/run.json', import.meta.url), 'utf8'));
  for (const why of Object.keys(WHY)) {
    const gated = { ...RUN, assertions: [{ id: 'assert-fail', expr: 'p99<1ms', metric: 'p99', op: '<', limit: 1, unit: 'ms', measured: 2, where: null, process: null, why, pass: false }] };
    assert.ok(validate(gated), `${why}: ${JSON.stringify(validate.errors)}`);
  }
});

test('a run whose server lost requests while it answered others: errors gates count them as failed, a latency gate whose tail they reach fails', () => {
  // A server that never answered 1 request in 300 (-c 40, -d 2s): 20 left waiting 1.8 s at the end, noted as lost,
  // yet "assert errors=0  pass  measured 0".
  const RUN = JSON.parse(readFileSync(new URL('./fixtures/run.json', import.meta.url), 'utf8'));
  const lost = { ...RUN, load: { ...RUN.load, unanswered: { count: 3, oldestMs: 1810, quietMs: 40, lateCount: 2, warmup: { count: 0, oldestMs: 0, answered: 0, answeredMaxMs: null } } } };
  const outcomes = check(['errors=0', 'errors<=5%', 'errors<=1%', 'p50<10s', 'p99<10s', 'max<10s', 'rps>=1'], lost);
  assert.deepEqual(outcomes.map((o) => [o.expr, o.pass, o.measured === null ? null : Number(o.measured.toFixed(2)), o.why ?? null]), [
    ['errors=0', false, 2, null],
    ['errors<=5%', true, 1.98, null],
    ['errors<=1%', false, 1.98, null],
    ['p50<10s', true, 135.68, null],
    ['p99<10s', false, 321.79, 'lost-requests'],
    ['max<10s', false, 321.79, 'lost-requests'],
    ['rps>=1', true, RUN.load.rps, null],
  ]);
  assert.match(formatAssertions(outcomes), /^assert max<10s {2}FAIL {2}measured 322 ms \(the server never answered some requests while it answered others \(note above\): enough of them to reach this figure's tail, and they are in no figure\)$/m);
  // Requests merely in flight at the end (answered to the end, none waiting long) change nothing.
  const inFlight = { ...RUN, load: { ...RUN.load, unanswered: { ...lost.load.unanswered, oldestMs: 100, lateCount: 0 } } };
  assert.deepEqual(check(['errors=0', 'max<10s'], inFlight).map((o) => o.pass), [true, true]);
});

test('compare rows: requests a run\'s server lost count as failed in the row\'s errors gates', () => {
  const run = (strategy, repeat, lost) => ({ workload: 'echo', strategy, repeat, rps: 1000, p50Ms: 1, p99Ms: 2, errors: 0, requests: 10000, attempts: 10000, succeeded: 10000, failures: [], lost });
  const result = { kind: 'compare', plan: { strategies: ['baseline', 'fork-pool'], workloads: ['echo'], repeat: 2 }, runs: [run('baseline', 1, 0), run('fork-pool', 1, 20), run('baseline', 2, 0), run('fork-pool', 2, 0)] };
  result.rows = compareTable(result.runs, result.plan);
  assert.deepEqual(check(['errors=0', 'errors<=1%'], result).map((o) => [o.where, o.expr, o.pass, Number(o.measured.toFixed(2))]), [
    ['baseline · echo', 'errors=0', true, 0],
    ['fork-pool · echo', 'errors=0', false, 20],
    ['baseline · echo', 'errors<=1%', true, 0],
    ['fork-pool · echo', 'errors<=1%', true, 0.1],
  ]);
});

test('report of a result that failed a gate of its own: its exit code is the same with --html or --against as without (0), and only the gates given now decide it', async () => {
  const RUN = new URL('./fixtures/run.json', import.meta.url);
  const saved = { ...JSON.parse(readFileSync(RUN, 'utf8')) };
  saved.assertions = check(['p99<0.001ms'], saved);
  assert.equal(saved.assertions[0].pass, false);
  const file = join(dir, 'gate-failed.json');
  writeFileSync(file, JSON.stringify(saved));
  assert.equal((await cli('report', file)).code, 0);
  // With an extra, the saved gate was printed and decided the exit code: 3.
  for (const extra of [['--html', join(dir, 'gate-failed.html')], ['--against', file]]) {
    const r = await cli('report', file, ...extra);
    assert.equal(r.code, 0, `${extra[0]}: ${r.out}${r.err}`);
    assert.doesNotMatch(r.out + r.err, /assert p99<0\.001ms/);
  }
  const given = await cli('report', file, '--html', join(dir, 'gate-failed.html'), '--assert', 'p99<10s');
  assert.equal(given.code, 0, given.err);
  assert.match(given.out, /\nassert p99<10s {2}pass {2}measured/);
  assert.equal((await cli('report', file, '--assert', 'p99<0.001ms')).code, 3);
});

test('requests that failed by --timeout reach a latency gate\'s tail: it fails (timed-out), in a run and in a compare row', () => {
  // Half the requests timed out at --timeout 10ms, and `max<9ms` passed, "measured 7.92 ms": latency holds successes only.
  const RUN = JSON.parse(readFileSync(new URL('./fixtures/run.json', import.meta.url), 'utf8'));
  const timedOut = (n) => ({ ...RUN, load: { ...RUN.load, errors: { ...RUN.load.errors, total: n, timeout: n } } });
  const outcomes = check(['p50<10s', 'p99<10s', 'max<10s'], timedOut(99));
  assert.deepEqual(outcomes.map((o) => [o.expr, o.pass, o.why ?? null]), [['p50<10s', true, null], ['p99<10s', false, 'timed-out'], ['max<10s', false, 'timed-out']]);
  assert.match(formatAssertions(outcomes), /^assert max<10s {2}FAIL {2}measured 322 ms \(requests that failed by --timeout took at least that long/m);
  // A change of such a figure is no change of the target: it read "better" beside them.
  const changed = { ...timedOut(99), against: { deltas: [{ metric: 'p99', changePct: -50 }, { metric: 'p50', changePct: 0 }] } };
  assert.deepEqual(check(['p99-change<10%', 'p50-change<10%'], changed).map((o) => [o.expr, o.pass, o.why ?? null]), [['p99-change<10%', false, 'timed-out'], ['p50-change<10%', true, null]]);
  // One in a thousand reaches max, not p99.
  assert.deepEqual(check(['p99<10s', 'max<10s'], { ...timedOut(1), load: { ...timedOut(1).load, requests: 999 } }).map((o) => o.why ?? null), [null, 'timed-out']);
  const run = (strategy, timeouts) => ({ workload: 'echo', strategy, repeat: 1, rps: 100, p50Ms: 1, p99Ms: 2, errors: timeouts, requests: 100, attempts: 100 + timeouts, succeeded: 100, failures: [], lost: 0,
    errorTexts: timeouts ? [{ status: null, kind: 'timeout', count: timeouts, texts: [{ text: 'no response within --timeout', count: timeouts }], other: 0 }] : [] });
  const result = { kind: 'compare', plan: { strategies: ['baseline', 'fork-pool'], workloads: ['echo'], repeat: 1 }, runs: [run('baseline', 0), run('fork-pool', 100)] };
  result.rows = compareTable(result.runs, result.plan);
  assert.deepEqual(check(['p99<9ms'], result).map((o) => [o.where, o.pass, o.why ?? null]), [['baseline · echo', true, null], ['fork-pool · echo', false, 'timed-out']]);
});
