// A server that stops answering mid-run (frozen by SIGSTOP, a lock, a downstream that never answers):
// the requests it holds are in flight when the run ends and are left out of every figure (as wrk). A run
// that saw a server frozen for 1.5 s of 3 s said "Errors none", max 19.6 ms, "nothing it runs on was
// saturated", and passed max<100ms. Now the load result holds them (`unanswered`), with a note, the
// run gets no recommendation, its gates fail saying why, and diagnose's verdict says it stopped answering.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLoad } from '../../src/load/index.js';
import { stalledAtEnd, lostAtEnd, pausedMidRun } from '../../src/load/stall.js';
import { noResponseFailure } from '../../src/load/host-check.js';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { evaluateAssertions, gateFigures } from '../../src/analysis/assert-evaluate.js';
import { parseAssertion } from '../../src/plan/assert-expr.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { ownRun } from '../own-server/own-runs.js';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { buildEvidence } from '../../src/diagnose/evidence.js';
import { wordDiagnosis } from '../../src/report/diagnose-words.js';
import { syntheticResult } from '../diagnose/synthetic.js';
import { IntervalStats } from '../../src/load/counters.js';
import { Aggregator } from '../../src/load/aggregate.js';
import { currentOf } from '../../src/report/run-advice-summary.js';
import { compareTable } from '../../src/analysis/compare-table.js';
import { formatCompare } from '../../src/report/compare-text.js';
import { EventEmitter } from 'node:events';
import { endLoadWhenSilent } from '../../src/runner/silence-watch.js';
import { startHttpServer } from './helpers.js';

const held = [];
/** Requests the server answers before it holds every one after (the stall); Infinity: all. */
let answerFirst = Infinity;
let answered = 0;
/** The one request (by its number) the server holds while it answers every other; null: none. */
let holdOnly = null;
let seen = 0;
const server = await startHttpServer((req, res) => {
  req.resume();
  seen += 1;
  if (seen === holdOnly) {
    held.push(res);
    return;
  }
  if (answered < answerFirst) {
    answered += 1;
    res.end('hi\n');
  } else held.push(res);
});
after(async () => {
  for (const res of held) res.destroy();
  await server.close();
});

test('requests held past the end are counted as unanswered, with how long the oldest waited, and a note', async () => {
  // The first 30 requests are answered, then none: counted, not timed, so a loaded machine that starts the
  // generator's thread late still sees answers first (a fixed 400 ms once saw none).
  answered = 0;
  answerFirst = 30;
  const result = await startLoad({ url: server.url, connections: 3, warmupMs: 0, durationMs: 2000 }).done;
  assert.equal(result.requests, 30, 'it answered at first');
  assert.equal(result.unanswered.count, 3);
  assert.ok(result.unanswered.oldestMs >= 500 && result.unanswered.oldestMs <= 2500, `oldest ${result.unanswered.oldestMs}`);
  assert.ok(result.unanswered.oldestMs > result.latency.maxMs);
  assert.deepEqual(stalledAtEnd(result), { count: 3, oldestMs: result.unanswered.oldestMs });
  assert.ok(result.notes.some((n) => /^3 requests were still unanswered when the run ended, the oldest after \d\.\d s, far longer than any answered request \([\d.]+ ms\): the server stopped answering/.test(n)), result.notes.join('\n'));
});

test('a server that stops answering in the warm-up: its held requests say so, not "the measured phase was too short"', async () => {
  // Seen: a server that answered 2,000 requests in the warm-up (28 ms at most), then none: 'no response arrived within
  // the measured 2s: requests were sent and none finished in it (the measured phase was too short for them); give a
  // longer --duration', and 'Cannot tell from this run: it was too short'. No measured request was even sent: the
  // warm-up's held every connection.
  answered = 0;
  answerFirst = 30;
  const result = await startLoad({ url: server.url, connections: 3, warmupMs: 1500, durationMs: 1000 }).done;
  assert.equal(result.requests, 0);
  assert.equal(result.unanswered.warmup.answered, 30, 'it answered in the warm-up');
  assert.equal(result.unanswered.warmup.count, 3);
  const stall = stalledAtEnd(result);
  assert.ok(stall?.inWarmup, JSON.stringify(result.unanswered));
  assert.equal(stall.count, 3);
  const failure = noResponseFailure(result, false, { durationMs: 1000 });
  assert.match(failure, /^no response arrived within the measured 1s: the server stopped answering in the warm-up: it answered 30 requests \(the slowest in [\d.]+ ms\), then left 3 unanswered, the oldest after \d\.\d s; find what held it/);
  assert.doesNotMatch(failure, /too short|longer --duration/);
  // Its diagnosis: that verdict, and no 'no request completed … give a longer --duration' beside it.
  const diagnosed = syntheticResult({ elu: 0.01, p50Ms: 0.07, p99Ms: 0.6, maxMs: 11.3 });
  diagnosed.load = { ...diagnosed.load, requests: 0, rps: 0, bytes: 0, latency: { ...diagnosed.load.latency, maxMs: null }, statuses: {}, unanswered: result.unanswered };
  const { verdict, findings } = wordDiagnosis(diagnoseEvidence(buildEvidence(diagnosed)));
  assert.equal(verdict.id, 'stopped-answering');
  assert.match(verdict.evidence[0], /far longer than any answered request \([\d.]+ ms, in the warm-up: none was answered while measured\)$/);
  assert.ok(!findings.some((f) => f.id === 'no-responses'), findings.map((f) => f.id).join(', '));
});

test('a warm-up whose requests are slower than the run, or were never answered, is no stall', () => {
  const warm = (w) => ({ requests: 0, unanswered: { count: 0, oldestMs: 0, warmup: w }, latency: { maxMs: null } });
  assert.equal(stalledAtEnd(warm({ count: 30, oldestMs: 2500, answered: 0, answeredMaxMs: null })), null, '3 s responses, -w 500ms -d 2s: too short');
  assert.equal(stalledAtEnd(warm({ count: 30, oldestMs: 900, answered: 40, answeredMaxMs: 1000 })), null, '1 s responses: one in flight is no slower');
  assert.deepEqual(stalledAtEnd(warm({ count: 30, oldestMs: 2100, answered: 2000, answeredMaxMs: 28 })), { count: 30, oldestMs: 2100, answeredMaxMs: 28, inWarmup: true, warmupAnswered: 2000 });
});

test('a request in flight under half a second, or not twice as long as answered ones, is no stall', () => {
  assert.equal(stalledAtEnd({ unanswered: { count: 3, oldestMs: 400 }, latency: { maxMs: 30 } }), null, 'a GC pause at the end');
  assert.equal(stalledAtEnd({ unanswered: { count: 1, oldestMs: 1500 }, latency: { maxMs: 2000 } }), null, 'a 2 s endpoint: its request in flight is as slow as the others');
  assert.equal(stalledAtEnd({ unanswered: { count: 1, oldestMs: 1500 }, latency: { maxMs: 900 } }), null);
  // compare's 2 s runs of a server frozen 1.5 s after its start held requests 0.8 s, answered ones 3 ms at most.
  assert.deepEqual(stalledAtEnd({ unanswered: { count: 4, oldestMs: 800 }, latency: { maxMs: 3 } }), { count: 4, oldestMs: 800 });
  assert.equal(stalledAtEnd({ unanswered: { count: 0, oldestMs: 0 }, latency: { maxMs: 3 } }), null);
  assert.equal(stalledAtEnd({ latency: { maxMs: 3 } }), null, 'a file written before unanswered was recorded');
  assert.equal(stalledAtEnd({ unanswered: { count: 3, oldestMs: 5000 }, latency: { maxMs: null } }), null, 'nothing answered: the load\'s own failure says so');
});

test('a server that answered nothing for seconds mid-run, then again: no recommendation, saying so', () => {
  // Seen: kill -STOP for 2.5 s of a 5 s run, then -CONT; sized all the same ("run 2 processes … 3.7× this run's").
  const series = (counts) => counts.map((requests, i) => ({ second: i + 1, requests, errors: requests === 0 ? 30 : 0 }));
  const paused = { series: series([10_961, 0, 0, 15_432, 24_045]), latency: { p50Ms: 0.8 } };
  assert.deepEqual(pausedMidRun(paused), { seconds: 2, from: 2, to: 3, measuredSeconds: 5, medianRps: 15_432, atStart: false });
  // Not a pause: a slow endpoint with few connections, a low open-loop rate, a stall at the end (stalledAtEnd's).
  assert.equal(pausedMidRun({ series: series([2, 0, 1, 2]), latency: { p50Ms: 1500 } }), null);
  assert.equal(pausedMidRun({ series: series([1, 0, 1, 0, 1]), latency: { p50Ms: 2 } }), null);
  assert.equal(pausedMidRun({ series: series([9000, 9000, 0, 0]), latency: { p50Ms: 2 } }), null);
  assert.equal(pausedMidRun({ series: series([0, 0, 0]), latency: { p50Ms: null } }), null, 'nothing answered: the load\'s own failure says so');
  assert.equal(pausedMidRun({ latency: { p50Ms: 2 } }), null, 'a file written before the series');

  const run = ownRun({ pool: false, rps: 9000, cpus: [50, 45], spawnedCpuPct: 0, main: { elu: 0.94, blocked: 0, cpuPct: 28, loopCpuPct: 20, waitPct: 10 } });
  run.load.series = paused.series;
  run.load.latency = { ...run.load.latency, p50Ms: 0.8 };
  const advice = adviseRun(adviceInput(run));
  assert.equal(advice.size, null);
  assert.equal(advice.reasons[0].id, 'paused');
  const words = adviceParagraphs(advice, run.plan.target).join('\n');
  assert.match(words, /^No recommendation: the server answered nothing for a while mid-run\.$/m);
  assert.match(words, /It answered nothing for 2 seconds of the 5 measured \(seconds 2–3\), where its other seconds answered ~15,432 each/);
  assert.doesNotMatch(words, /More processes would help|One process is enough/);
});

test('a server that answered nothing in the first seconds measured (still getting ready after the warm-up) is not sized: a longer --warmup', () => {
  // Seen: a handler awaiting a 1.8 s start, -w 200ms -d 3s: seconds 0, 18,513, 44,761, sized at "12,921 req/s" ("One process is enough").
  const series = (counts) => counts.map((requests, i) => ({ second: i + 1, requests, errors: 0 }));
  const late = { series: series([0, 18_513, 44_761]), latency: { p50Ms: 0.12 } };
  assert.deepEqual(pausedMidRun(late), { seconds: 1, from: 1, to: 1, measuredSeconds: 3, medianRps: 18_513, atStart: true });
  assert.equal(pausedMidRun({ series: series([0, 0, 9000, 9000, 9000]), latency: { p50Ms: 2 } })?.seconds, 2);
  assert.equal(pausedMidRun({ series: series([0, 9000, 0, 9000, 9000]), latency: { p50Ms: 2 } })?.atStart, false, 'a pause mid-run as well: a pause');
  assert.equal(pausedMidRun({ series: series([0, 2, 1]), latency: { p50Ms: 1500 } }), null, 'slow responses: a second without one is no wait');

  const run = ownRun({ pool: false, rps: 12_921, cpus: [50, 45], spawnedCpuPct: 0, main: { elu: 0.42, blocked: 0, cpuPct: 35, loopCpuPct: 30, waitPct: 5 } });
  run.load.series = late.series;
  run.load.latency = { ...run.load.latency, p50Ms: 0.12 };
  const advice = adviseRun(adviceInput(run));
  assert.equal(advice.size, null);
  assert.equal(advice.reasons[0].id, 'paused');
  const words = adviceParagraphs(advice, run.plan.target).join('\n');
  assert.match(words, /^No recommendation: the server answered nothing at the start of the measured time\.$/m);
  assert.match(words, /It answered nothing in the first second of the 3 measured, where its other seconds answered ~18,513 each: it was still getting ready when the warm-up ended/);
  assert.match(words, /Run again with a longer --warmup \(-w\)/);
  assert.doesNotMatch(words, /One process is enough|mid-run/);
});

test('a stalled run: no recommendation, and every gate fails saying why', () => {
  const run = ownRun({ pool: false, rps: 9000, cpus: [50, 45], spawnedCpuPct: 0, main: { elu: 0.75, blocked: 0, cpuPct: 28, loopCpuPct: 20, waitPct: 10 } });
  run.load.unanswered = { count: 4, oldestMs: 1800 };
  run.load.latency = { ...run.load.latency, maxMs: 19.6 };
  const advice = adviseRun(adviceInput(run));
  assert.equal(advice.size, null);
  assert.equal(advice.reasons[0].id, 'stopped-answering');
  const words = adviceParagraphs(advice, run.plan.target).join('\n');
  assert.match(words, /^No recommendation: the server stopped answering\.$/m);
  assert.match(words, /4 requests were still unanswered when the run ended, the oldest after 1\.8 s/);
  assert.doesNotMatch(words, /nothing it runs on was saturated|One process is enough/);
  const outcomes = evaluateAssertions([parseAssertion('max<100ms'), parseAssertion('rps>=1')], gateFigures(run));
  assert.deepEqual(outcomes.map((o) => [o.pass, o.why]), [[false, 'stopped-answering'], [false, 'stopped-answering']]);
  run.load.unanswered = { count: 4, oldestMs: 3 };
  assert.ok(evaluateAssertions([parseAssertion('rps>=1')], gateFigures(run))[0].pass, 'requests cut off by the end are no stall');
});

test('diagnose: a server that stopped answering is the verdict, not "healthy"', () => {
  const result = syntheticResult({ elu: 0.75, p50Ms: 0.07, p99Ms: 0.6, maxMs: 11.3 });
  const healthy = wordDiagnosis(diagnoseEvidence(buildEvidence(result)));
  assert.notEqual(healthy.verdict.id, 'stopped-answering');
  result.load.unanswered = { count: 4, oldestMs: 1700 };
  const { verdict } = wordDiagnosis(diagnoseEvidence(buildEvidence(result)));
  assert.equal(verdict.id, 'stopped-answering');
  assert.equal(verdict.title, 'the server stopped answering: 4 requests were still unanswered when the run ended');
  assert.match(verdict.evidence[0], /^the oldest had waited 1\.7 s, far longer than any answered request \([\d.]+ ms\)$/);
});

test('compare: a row with a run that failed while measured (stopped answering) fails its gates and says so', () => {
  // Seen: compare --command a="node stopself.js": its runs stopped answering, the row read p99 1.18 ms and 'p99<50ms' passed.
  const stopped = "'node stopself.js' stopped answering: 4 requests were still unanswered when the run ended, the oldest after 0.7 s";
  const run = (strategy, repeat, failures) => ({ workload: 'echo', strategy, repeat, rps: 20000, p50Ms: 0.1, p99Ms: 1.2, errors: 0, requests: 40000, attempts: 40000, succeeded: 40000, durationMs: 2000, partial: false, failures });
  const result = {
    kind: 'compare',
    plan: { strategies: ['baseline', 'a'], workloads: ['echo'], repeat: 2, load: { mode: 'closed', connections: 4, durationMs: 2000, warmupMs: 0 }, commands: { a: ['node', 'stopself.js'] } },
    machine: { node: '20.20.2', cores: 2 },
    runs: [run('baseline', 1, []), run('a', 1, [stopped]), run('baseline', 2, []), run('a', 2, [])],
    notes: [],
  };
  result.rows = compareTable(result.runs, result.plan);
  const outcomes = evaluateAssertions([parseAssertion('p99<50ms')], gateFigures(result));
  assert.deepEqual(outcomes.map((o) => [o.where, o.pass, o.why ?? null]), [['baseline · echo', true, null], ['a · echo', false, 'run-failed']]);
  assert.match(formatCompare(result), /WARNING +a: 1 of 2 runs failed while measured \('node stopself\.js' stopped answering: 4 requests were still unanswered/);
});

test('-n: a run whose server answers nothing for 3 × --timeout is ended, not settled one timeout at a time', () => {
  // Seen: run -n 100000 -c 4 of a server frozen after 1.5 s was still running a minute later (4 timeouts per 10 s).
  let t = 0;
  const engine = Object.assign(new EventEmitter(), { ended: 0, endLoad() { this.ended++; } });
  const stop = endLoadWhenSilent(engine, { requests: 100_000, timeoutMs: 2000 }, () => t);
  const tick = (requests) => engine.emit('tick', { phase: 'measure', requests });
  for (const [at, requests] of [[1000, 500], [2000, 900], [3000, 900], [7000, 900]]) {
    t = at;
    tick(requests);
  }
  assert.equal(engine.ended, 0, '5 s without a response: under 3 × 2 s');
  t = 8000;
  tick(900);
  assert.equal(engine.ended, 1);
  t = 9000;
  tick(900);
  assert.equal(engine.ended, 1, 'ended once');
  stop();
  // A -d run ends by itself; a short --timeout still waits SILENT_END_MIN_MS.
  const timed = Object.assign(new EventEmitter(), { ended: 0, endLoad() { this.ended++; } });
  endLoadWhenSilent(timed, { requests: null, timeoutMs: 10 }, () => t);
  assert.equal(timed.listenerCount('tick'), 0);
  const short = Object.assign(new EventEmitter(), { ended: 0, endLoad() { this.ended++; } });
  endLoadWhenSilent(short, { requests: 10, timeoutMs: 10 }, () => t);
  t = 0;
  short.emit('tick', { phase: 'measure', requests: 1 });
  t = 2900;
  short.emit('tick', { phase: 'measure', requests: 1 });
  assert.equal(short.ended, 0);
  t = 3000;
  short.emit('tick', { phase: 'measure', requests: 1 });
  assert.equal(short.ended, 1);
});

test('one request held while the server answers the rest to the end is lost, not a stall: the run is sized as usual', async () => {
  // Seen: a node:cluster worker SIGKILLed with a request in it; the server answered thousands after it, yet the run
  // said '1 request was still unanswered … the server stopped answering' and gave no recommendation.
  answered = 0;
  answerFirst = Infinity;
  seen = 0;
  holdOnly = 20;
  try {
    // The 20th request is held from the run's first milliseconds: 1 s later it is twice the 500 ms a stall needs.
    const result = await startLoad({ url: server.url, connections: 3, warmupMs: 0, durationMs: 1000 }).done;
    assert.equal(result.unanswered.lateCount, 1, 'one held; the others were in flight at the end');
    assert.ok(result.unanswered.count >= 1 && result.unanswered.count <= 3, `${result.unanswered.count} in flight at the end`);
    assert.ok(result.unanswered.oldestMs >= 500, `oldest ${result.unanswered.oldestMs}`);
    assert.ok(result.unanswered.quietMs < 500, `quiet ${result.unanswered.quietMs} ms at the end`);
    assert.equal(stalledAtEnd(result), null);
    assert.deepEqual(lostAtEnd(result), { count: 1, oldestMs: result.unanswered.oldestMs });
    assert.ok(result.notes.some((n) => /^1 request was still unanswered when the run ended, the oldest after \d\.\d s, while the server kept answering others: it lost it/.test(n)), result.notes.join('\n'));
    assert.ok(!result.notes.some((n) => /stopped answering/.test(n)), result.notes.join('\n'));
  } finally {
    holdOnly = null;
  }
  // A result saved before quietMs was recorded reads as before.
  assert.deepEqual(stalledAtEnd({ unanswered: { count: 1, oldestMs: 1800 }, latency: { maxMs: 5 } }), { count: 1, oldestMs: 1800 });
  assert.equal(lostAtEnd({ unanswered: { count: 1, oldestMs: 1800 }, latency: { maxMs: 5 } }), null);
  // Quiet for as long as the stall rule asks: a stall, whatever the count.
  assert.deepEqual(stalledAtEnd({ unanswered: { count: 1, oldestMs: 1800, quietMs: 900 }, latency: { maxMs: 5 } }), { count: 1, oldestMs: 1800 });
});

// spawnbench itself stopped mid-run (Ctrl-Z, SIGSTOP): stopped 2 s of a 3-s run, it read "18,100 req/s … One process
// is enough: the limit is the load offered" of a server that served 54,284 requests in the ~1 s it was driven. The
// generator's report interval that spans the stop is recorded (load.generatorStopped), and the run is not sized.

/** A measured phase of one generator thread, one report per interval given (ms). */
function measuredIntervals(intervals) {
  const aggregator = new Aggregator(1);
  let elapsed = 0;
  intervals.forEach((intervalMs, index) => {
    const stats = new IntervalStats();
    for (let i = 0; i < 100; i++) stats.response(200, 1, false);
    elapsed += intervalMs;
    aggregator.add(0, { index, phase: 'measure', intervalMs, phaseElapsedMs: elapsed, cpuMs: null, final: index === intervals.length - 1, eluActiveMs: 0, eluIdleMs: 1, ...stats.take() });
  });
  return aggregator.measured();
}

test('a report interval a second or more past its period is spawnbench stopped; late reports of a busy thread are not', () => {
  assert.deepEqual(measuredIntervals([1000, 3100, 1000]).stopped, { ms: 2100, longestMs: 2100 });
  assert.deepEqual(measuredIntervals([1000, 2500, 2200]).stopped, { ms: 2700, longestMs: 1500 });
  assert.equal(measuredIntervals([1000, 1400, 1900, 300]).stopped, null, 'a thread that reported up to 0.9 s late (a loaded machine) was not stopped');
  // A stop in the warm-up, kept apart: an open loop sends the requests due then late, into the measured time.
  const aggregator = new Aggregator(1);
  aggregator.add(0, { index: 0, phase: 'warmup', intervalMs: 2600, phaseElapsedMs: 2600, cpuMs: null, final: false, eluActiveMs: 0, eluIdleMs: 1, ...new IntervalStats().take() });
  aggregator.add(0, { index: 1, phase: 'measure', intervalMs: 1000, phaseElapsedMs: 1000, cpuMs: null, final: true, eluActiveMs: 0, eluIdleMs: 1, ...new IntervalStats().take() });
  const warm = aggregator.measured();
  assert.equal(warm.stopped, null);
  assert.deepEqual(warm.warmupStopped, { ms: 1600, longestMs: 1600 });
});

test('a run whose generator was stopped is not sized, and says why', () => {
  const run = ownRun({ pool: false, rps: 18100, durationMs: 3000, cpus: [40, 30], spawnedCpuPct: 0, main: { elu: 0.33, blocked: 0, cpuPct: 70, loopCpuPct: 70, waitPct: 0 } });
  const before = adviseRun(adviceInput(run));
  assert.notEqual(before.reasons[0].id, 'generator-stopped');
  run.load.generatorStopped = { ms: 2000, longestMs: 2000 };
  const advice = adviseRun(adviceInput(run));
  assert.equal(advice.size, null);
  assert.equal(advice.reasons[0].id, 'generator-stopped');
  const lines = adviceParagraphs(advice, currentOf(run));
  assert.equal(lines[0], 'No recommendation: spawnbench itself was stopped during the run.');
  assert.ok(lines.some((l) => l.startsWith('- spawnbench did not run for 2.0 s of the 3.0 s measured (Ctrl-Z or SIGSTOP')), lines.join('\n'));
  assert.ok(!lines.some((l) => /load offered/.test(l)), lines.join('\n'));
  // Its gates fail: a server's ELU averaged over the stop read 0.33 where it ran at 0.84, and 'elu<0.9' passed.
  const gates = evaluateAssertions([parseAssertion('elu<0.9'), parseAssertion('errors=0')], gateFigures(run));
  assert.deepEqual(gates.map((g) => [g.pass, g.why]), [[false, 'generator-stopped'], [false, 'generator-stopped']]);
  delete run.load.generatorStopped;
  assert.ok(evaluateAssertions([parseAssertion('errors=0')], gateFigures(run))[0].pass, 'not stopped: the gate as before');
  run.load.generatorStopped = { ms: 1100, longestMs: 1100, inWarmup: true };
  assert.ok(adviceParagraphs(adviseRun(adviceInput(run)), currentOf(run)).some((l) => l.includes('did not run for 1.1 s in the warm-up') && l.includes('sent the requests due then late')));
});
