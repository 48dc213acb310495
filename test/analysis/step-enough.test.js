/**
 * Tune steps long enough for the endpoint (#37 item 5), on synthetic figures: what
 * counts as enough responses to rank, steps with too few never recommended, no
 * recommendation when no step had enough, the watcher that ends an extended step,
 * and the -d of the tune command a run prints.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { hasEnoughResponses, stepMsFor } from '../../src/analysis/step-enough.js';
import { recommend } from '../../src/analysis/recommend.js';
import { wordRecommendation } from '../../src/report/tune-words.js';
import { enoughMarks } from '../../src/tune/tune-engine.js';
import { formatEvidence } from '../../src/report/tune-text.js';
import { endLoadWhenEnough } from '../../src/runner/enough-watch.js';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { TUNE_MIN_RESPONSES } from '../../src/base/thresholds.js';
import { sweep } from './sweeps.js';
import { syntheticRun, evenWorkers } from './synthetic-runs.js';

test('enough to rank: 200 responses over at least 5 × the step\'s p99', () => {
  assert.equal(hasEnoughResponses({ requests: 9000, durationMs: 3000, p99Ms: 12 }), true);
  assert.equal(hasEnoughResponses({ requests: 199, durationMs: 3000, p99Ms: 12 }), false);
  // A 1–2 s endpoint: 54 responses in 3 s, and 3 s is under 5 × its 1.9 s p99.
  assert.equal(hasEnoughResponses({ requests: 54, durationMs: 3000, p99Ms: 1900 }), false);
  assert.equal(hasEnoughResponses({ requests: 240, durationMs: 9000, p99Ms: 1900 }), false, '9 s < 5 × 1.9 s');
  assert.equal(hasEnoughResponses({ requests: 240, durationMs: 10_000, p99Ms: 1900 }), true);
  assert.equal(hasEnoughResponses({ requests: 0, durationMs: 3000, p99Ms: null }), false);
});

test('the step length that fits a latency seen: whole seconds, tune\'s default at least, a minute at most', () => {
  assert.equal(stepMsFor({ rps: 12000, p99Ms: 9 }), 3000);
  assert.equal(stepMsFor({ rps: 23, p99Ms: 1900 }), 10_000, '5 × 1.9 s, above 200 / 23 req/s = 8.7 s');
  assert.equal(stepMsFor({ rps: 10, p99Ms: 80 }), 20_000, '200 responses at 10 req/s');
  assert.equal(stepMsFor({ rps: 0.5, p99Ms: 2000 }), 60_000);
  assert.equal(stepMsFor({ rps: null, p99Ms: null }), 3000);
});

/** A sweep of a slow endpoint: 1–2 s per request, 30 connections; `requests` per step from its rps over `durationMs`. */
function slowSweep({ sizes, rps, durationMs, tooFewAt = () => false }) {
  return sweep({ sizes, rps: (size) => rps[size], p99: () => 1900, noise: 0.02, seed: 5 }).map((s) => {
    const requests = Math.round((s.rps * durationMs) / 1000);
    return { ...s, requests, durationMs, ...enoughMarks({ ...s, requests, durationMs }, { durationMs: 3000, extendToMs: 60_000 }), ...(tooFewAt(s.size) ? { tooFew: true } : {}) };
  });
}

test('a step with too few responses is marked, never recommended, and said', () => {
  // 3 s steps at 10–17 req/s: every step short of 200 responses and of 5 × p99.
  const short = slowSweep({ sizes: [1, 2, 3], rps: { 1: 10, 2: 14, 3: 17 }, durationMs: 3000 });
  assert.ok(short.every((s) => s.tooFew && !s.extended));
  const none = wordRecommendation(recommend(short));
  assert.equal(none.size, null);
  assert.deepEqual(none.reasons, ['too-few-responses']);
  assert.match(none.sentences[0], /^No step had enough responses to rank sizes \(200, over at least 5 × its p99\), so there is no recommendation: 1 worker \(3 steps\): at most \d+ responses in 3\.0 s; 2 workers/);
  assert.doesNotMatch(none.sentences.join(' '), /^Use /m);

  // Steps that ran 20 s: enough; but size 3, the fastest, had too few in its steps: not ranked.
  const long = slowSweep({ sizes: [1, 2, 3], rps: { 1: 12, 2: 21, 3: 23 }, durationMs: 20_000, tooFewAt: (size) => size === 3 });
  assert.ok(long.filter((s) => s.size < 3).every((s) => !s.tooFew && s.extended));
  const rec = wordRecommendation(recommend(long));
  assert.equal(rec.size, 2);
  assert.ok(rec.reasons.includes('too-few-at-sizes'));
  assert.ok(rec.cells.every((c) => c.size !== 3));
  assert.match(rec.sentences.join(' '), /Some steps had too few responses to rank \(200, over at least 5 × their p99\) and were not considered: 3 workers \(3 steps\)/);
});

test('a size whose steps had too few responses to rank, but errors among them, is a failed size with its errors, not only "not considered"', () => {
  // 3 workers over a database of 22 connections, on a loaded machine: 528 responses, p99 too long to rank, 173 refused.
  const refused = [{ status: 500, kind: 'non2xx', count: 173, texts: [{ text: 'sorry, too many clients already', count: 173 }] }];
  const steps = slowSweep({ sizes: [1, 2, 3], rps: { 1: 40, 2: 45, 3: 46 }, durationMs: 20_000, tooFewAt: (size) => size === 3 })
    .map((s) => (s.size === 3 ? { ...s, errors: 173, errorTexts: refused } : s));
  const rec = wordRecommendation(recommend(steps));
  assert.ok([1, 2].includes(rec.size));
  assert.deepEqual(rec.basis.errorSizes, [3]);
  assert.deepEqual(rec.basis.failedSizes.map((f) => [f.size, f.status, f.text]), [[3, 500, 'sorry, too many clients already']]);
  assert.ok(!rec.reasons.includes('too-few-at-sizes'), 'said once, as failed');
  assert.match(rec.sentences.join('\n'), /^3 workers: 500 ×[\d,]+ 'sorry, too many clients already'/m);

  // Every step too few to rank, one size with errors: no recommendation, and that size's errors said.
  const short = slowSweep({ sizes: [1, 2], rps: { 1: 10, 2: 14 }, durationMs: 3000 }).map((s) => (s.size === 2 ? { ...s, errors: 5, errorTexts: refused } : s));
  const none = wordRecommendation(recommend(short));
  assert.deepEqual([none.size, none.reasons], [null, ['too-few-responses']]);
  assert.match(none.sentences[0], /no recommendation: 1 worker \(3 steps\)/);
  assert.match(none.sentences.join('\n'), /^2 workers: 500 ×/m);
});

test('a step whose server crashed is failed, not too short: the recommendation names the crash, not "measure longer steps"', () => {
  // Seen: tune --processes 1 -- node segv.js, its worker killed by SIGSEGV in the warm-up: 0 responses measured.
  const crash = "'node segv.js' in 1 node:cluster worker exited with code 1 during the run; its stderr ends:\nspawnbench cluster: worker 515 exited (SIGSEGV); stopping the others";
  const step = { size: 1, policy: null, rps: 0, p50Ms: null, p99Ms: null, errors: 0, requests: 0, durationMs: 0, partial: false, failures: [crash], signals: null };
  assert.deepEqual(enoughMarks(step, { durationMs: 3000, extendToMs: 60_000 }), { tooFew: false, extended: false });
  const rec = wordRecommendation(recommend([{ ...step, ...enoughMarks(step, { durationMs: 3000, extendToMs: 60_000 }) }]));
  assert.equal(rec.size, null);
  assert.doesNotMatch(rec.sentences.join(' '), /Measure longer steps|enough responses/);
  assert.match(rec.sentences.join(' '), /1 worker: failed \(.*SIGSEGV/);
});

test('tune -n: a step of fewer than 200 requests does not rank sizes; no recommendation, and -n named', () => {
  // tune --processes 1,2 -n 5: "Use 1 process … gave the highest throughput" from 5 responses a step (2 on the next try).
  const nLoad = { durationMs: null, requests: 5 };
  const steps = sweep({ sizes: [1, 2], rps: (size) => (size === 1 ? 472 : 528), p99: () => 8, noise: 0.3, seed: 3 })
    .map((s) => ({ ...s, requests: 5, durationMs: 10, ...enoughMarks({ ...s, requests: 5, durationMs: 10 }, nLoad) }));
  assert.ok(steps.every((s) => s.tooFew && !s.extended));
  const none = wordRecommendation(recommend(steps));
  assert.equal(none.size, null);
  assert.deepEqual(none.reasons, ['too-few-responses']);
  assert.match(none.sentences[0], /Measure longer steps \(-d, or -n 200 or more\)/);
  // Its table: the steps completed, with too few responses; not "(no step measured to completion)".
  assert.deepEqual(formatEvidence(none.cells, none, null, null, steps), ['(no step had enough responses to rank: see below)']);
  assert.deepEqual(formatEvidence([], none, null, null, [{ ...steps[0], tooFew: false, partial: true }]), ['(no step measured to completion)']);
  // -n 200 or more ranks as before.
  assert.deepEqual(enoughMarks({ requests: TUNE_MIN_RESPONSES, durationMs: 400, p99Ms: 8 }, { durationMs: null, requests: TUNE_MIN_RESPONSES }), { tooFew: false, extended: false });
});

test('the watcher ends an extended step at the first tick past -d with enough responses, or with errors', () => {
  const engine = Object.assign(new EventEmitter(), { ended: 0, endLoad() { this.ended += 1; } });
  const unwatch = endLoadWhenEnough(engine, { durationMs: 3000, extendToMs: 60_000 });
  const tick = (elapsedMs, requests, p99Ms, errors = 0) => engine.emit('tick', { phase: 'measure', elapsedMs, requests, overall: { p99Ms }, errors: { total: errors } });
  engine.emit('tick', { phase: 'warmup', elapsedMs: 5000, requests: 900, overall: { p99Ms: 5 }, errors: { total: 0 } });
  tick(1000, 900, 5);
  tick(2000, 1800, 5);
  assert.equal(engine.ended, 0, 'never before -d, however many responses');
  tick(3000, 54, 1900);
  tick(9000, 170, 1900);
  assert.equal(engine.ended, 0, 'too few: extended');
  tick(10_000, TUNE_MIN_RESPONSES + 1, 1900);
  assert.equal(engine.ended, 1);
  tick(11_000, 300, 1900);
  assert.equal(engine.ended, 1, 'ended once');
  unwatch();
  const failing = Object.assign(new EventEmitter(), { ended: 0, endLoad() { this.ended += 1; } });
  endLoadWhenEnough(failing, { durationMs: 3000, extendToMs: 60_000 });
  failing.emit('tick', { phase: 'measure', elapsedMs: 3000, requests: 10, overall: { p99Ms: 900 }, errors: { total: 3 } });
  assert.equal(failing.ended, 1, 'a step with errors is not ranked: not extended');
  // A plan without a cap (run, compare) is not watched.
  const run = Object.assign(new EventEmitter(), { ended: 0, endLoad() { this.ended += 1; } });
  endLoadWhenEnough(run, { durationMs: 3000 });
  run.emit('tick', { phase: 'measure', elapsedMs: 3000, requests: 1000, overall: { p99Ms: 1 }, errors: { total: 0 } });
  assert.equal(run.listenerCount('tick'), 0);
  assert.equal(run.ended, 0);
});

test('the tune command a run prints carries a -d that fits the latency it saw', () => {
  const slow = adviseRun(adviceInput(syntheticRun({ rps: 23, workers: evenWorkers(2, { rps: 23 }) })));
  assert.match(slow.confirmWith.command, / -d 9s$/, slow.confirmWith.command);
  assert.ok(slow.confirmWith.expectedMs >= slow.confirmWith.steps * 9000, 'the estimate counts the longer steps');
  const fast = adviseRun(adviceInput(syntheticRun({})));
  assert.doesNotMatch(fast.confirmWith?.command ?? '', / -d /);
});

test('tune --help says a step\'s -d is a minimum', async () => {
  const { cli } = await import('../helpers/harness.js');
  const { code, out } = await cli('tune', '--help');
  assert.equal(code, 0);
  assert.match(out.replace(/\s+/g, ' '), /-d, --duration <time> measured time of each run, e\.g\. 500ms, 10s, 1m; at least: a step runs on, up to 1m, until it has 200 responses over 5 × its p99/);
});
