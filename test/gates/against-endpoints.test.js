// --against per endpoint of a mix: each endpoint found in both results is judged against
// its own noise (its own histogram and error share), so one route that got slower is
// flagged while the others, and the totals' words, stay as they were.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { againstBaseline } from '../../src/analysis/against-deltas.js';
import { formatAgainst } from '../../src/report/against-text.js';
import { createHistogram, recordMs, encodeHistogram, fullSummary } from '../../src/load/histogram.js';
import { parseAssertion } from '../../src/plan/assert-expr.js';
import { gateFigures, evaluateAssertions } from '../../src/analysis/assert-evaluate.js';
import { formatAssertionLine } from '../../src/report/assert-text.js';

/** An endpoint of `requests` responses spread evenly over [lowMs, highMs], `errors` of them 500s. */
function endpoint(name, { requests = 2000, lowMs, highMs, errors = 0 }) {
  const h = createHistogram();
  for (let i = 0; i < requests; i++) recordMs(h, lowMs + ((highMs - lowMs) * i) / requests);
  const latency = fullSummary(h);
  const [method, path] = name.split(' ');
  return {
    name, method, path, weight: 1, requests, share: 0.5, rps: requests / 10,
    errors: { total: errors, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: errors, tls: 0 },
    statuses: { 200: requests - errors, ...(errors ? { 500: errors } : {}) },
    p50Ms: latency.p50Ms, p90Ms: latency.p90Ms, p99Ms: latency.p99Ms, maxMs: latency.maxMs, latency, histogram: encodeHistogram(h), errorTexts: [],
  };
}

function run(endpoints) {
  const h = createHistogram();
  for (let i = 0; i < 4000; i++) recordMs(h, 5 + (i % 10));
  return {
    kind: 'run',
    load: {
      requests: 4000, rps: 400, durationMs: 10_000, latency: fullSummary(h), histogram: encodeHistogram(h),
      errors: { total: 0, non2xx: 0, mismatch: 0 }, series: Array.from({ length: 10 }, (_, i) => ({ second: i + 1, requests: 400 })), endpoints,
    },
  };
}

const baseline = run([endpoint('GET /health', { lowMs: 1, highMs: 2 }), endpoint('GET /report', { lowMs: 15, highMs: 17 })]);
const current = run([endpoint('GET /health', { lowMs: 1, highMs: 2 }), endpoint('GET /report', { lowMs: 30, highMs: 34, errors: 40 })]);

test('the endpoint that got slower and failed is flagged on its own; the one that did not is within its noise', () => {
  const against = againstBaseline(current, baseline);
  assert.deepEqual(against.endpoints.map((e) => e.name), ['GET /health', 'GET /report']);
  const [health, report] = against.endpoints;
  assert.equal(health.summary.changes, 0);
  const by = Object.fromEntries(report.deltas.map((d) => [d.metric, d]));
  assert.equal(by.p99.significant, true);
  assert.equal(by.p99.better, false);
  assert.equal(by.errors.significant, true);
  assert.equal(by.rps.significant, null, 'a rate per endpoint is shown, not judged');
  assert.equal(against.summary.changes, 0, 'the totals are as they were');
  const text = formatAgainst(against, { file: 'old.json' });
  assert.match(text, /^ {2}GET \/health: no change beyond its noise$/m);
  assert.match(text, /^ {2}GET \/report: \d+ beyond its noise \(0 better, \d+ worse\)$/m);
  assert.match(text, /^ {4}p99 +\d+\.\d+ → \d+\.\d+ ms +\+\d+% +worse/m);
});

test('without a mix on both sides, --against has no endpoints', () => {
  assert.equal('endpoints' in againstBaseline(run(undefined), baseline), false);
});

test('gates read the endpoint named by its name or METHOD path; an unknown one is not measured and fails', () => {
  const asserts = ['p99{GET /report}<20ms', 'errors{GET /report}=0', 'errors{GET /report}<=5%', 'p99{GET /health}<20ms', 'rps{GET /nope}>=1'].map((t) => parseAssertion(t));
  const outcomes = evaluateAssertions(asserts, gateFigures(current));
  assert.deepEqual(outcomes.map((o) => [o.expr, o.id, o.endpoint]), [
    ['p99{GET /report}<20ms', 'assert-fail', 'GET /report'],
    ['errors{GET /report}=0', 'assert-fail', 'GET /report'],
    ['errors{GET /report}<=5%', 'assert-pass', 'GET /report'],
    ['p99{GET /health}<20ms', 'assert-pass', 'GET /health'],
    ['rps{GET /nope}>=1', 'assert-not-measured', 'GET /nope'],
  ]);
  assert.equal(outcomes[2].measured, 2);
  assert.match(formatAssertionLine(outcomes[4]), /not measured \(no endpoint 'GET \/nope' in the result's mix/);
});

test('a name two endpoints answer to reads neither, and its gates fail saying so; an exact METHOD path beats the one without its query', () => {
  const slow = endpoint('GET /items?page=1', { lowMs: 80, highMs: 90 });
  const fast = endpoint('GET /items?page=2', { lowMs: 1, highMs: 2 });
  const bare = endpoint('GET /items', { lowMs: 1, highMs: 2 });
  const named = { ...endpoint('GET /slow', { lowMs: 80, highMs: 90 }), name: 'slow' };
  const decoy = { ...endpoint('GET /fast', { lowMs: 1, highMs: 2 }), name: 'GET /slow' };
  const gate = (endpoints, text) => evaluateAssertions([parseAssertion(text)], gateFigures(run(endpoints)))[0];
  // The query-less name of two pages: the gate read the last page (p99 2 ms) and passed while page 1 took 90 ms.
  const both = gate([slow, fast], 'p99{GET /items}<50ms');
  assert.equal(both.pass, false);
  assert.equal(both.why, 'ambiguous-endpoint');
  assert.match(formatAssertionLine(both), /FAIL {2}not measured \(more than one endpoint of the mix answers to that name; name one by its name, or METHOD path with its query\)/);
  assert.equal(gate([slow, fast], 'p99{GET /items?page=1}<50ms').pass, false, 'the slow page by its own path');
  assert.equal(gate([slow, fast], 'errors{GET /items}=0').pass, false);
  // One entry's name is another's METHOD path: neither is read.
  assert.equal(gate([named, decoy], 'p99{GET /slow}<50ms').why, 'ambiguous-endpoint');
  assert.equal(gate([named, decoy], 'p99{slow}<50ms').pass, false, 'by its own name, the slow entry');
  // /items exactly and /items?page=1: GET /items is the entry with that path.
  const exact = gate([slow, bare], 'p99{GET /items}<50ms');
  assert.equal(exact.pass, true);
  assert.equal(exact.measured, bare.p99Ms);
});

test('an endpoint the draw never picked has no error count: its errors gate fails, not passes on nothing sent', () => {
  const never = { ...endpoint('GET /500', { requests: 0, lowMs: 1, highMs: 1 }), rps: 0, share: 0 };
  const outcomes = evaluateAssertions(['errors{GET /500}=0', 'errors{GET /500}<=1%', 'p99{GET /500}<50ms'].map((t) => parseAssertion(t)), gateFigures(run([endpoint('GET /a', { lowMs: 1, highMs: 2 }), never])));
  assert.deepEqual(outcomes.map((o) => [o.id, o.pass, o.why]), [
    ['assert-not-measured', false, 'no-responses'],
    ['assert-not-measured', false, 'no-responses'],
    ['assert-not-measured', false, 'no-responses'],
  ]);
  assert.match(formatAssertionLine(outcomes[0]), /errors\{GET \/500\}=0 {2}FAIL {2}not measured \(no request to 'GET \/500' was measured/);
});

test('an endpoint gate beside requests the server lost (never answered while it answered others) fails: which endpoint they went to is not known', () => {
  // errors{GET /report}=0 passed while the run's note said the server had lost 20 requests.
  const lossy = run([endpoint('GET /health', { lowMs: 1, highMs: 2 }), endpoint('GET /report', { lowMs: 15, highMs: 17 })]);
  lossy.load.unanswered = { count: 20, oldestMs: 1800, quietMs: 30, lateCount: 20, warmup: { count: 0, oldestMs: 0, answered: 0, answeredMaxMs: null } };
  lossy.load.latency.maxMs = 20;
  const gate = (text, result) => evaluateAssertions([parseAssertion(text)], gateFigures(result))[0];
  for (const text of ['errors{GET /report}=0', 'p99{GET /report}<1s']) {
    const o = gate(text, lossy);
    assert.deepEqual([o.pass, o.why], [false, 'lost-requests-endpoint'], text);
    assert.match(formatAssertionLine(o), /\(the server never answered some requests while it answered others \(note above\), and which endpoints they went to is not known: this endpoint's figure may leave some of them out\)$/);
  }
  delete lossy.load.unanswered;
  assert.equal(gate('errors{GET /report}=0', lossy).pass, true, 'without lost requests it passes as before');
});

test('an entry named with spaces around or inside is gated by the name shown, as the filter reads it (trimmed, spaces collapsed)', () => {
  // A mix entry "  slow  page " was shown as "slow page", and p99{slow page} said "no endpoint 'slow page'": no filter could name it.
  const named = { ...endpoint('GET /slow', { lowMs: 80, highMs: 90 }), name: '  slow  page ' };
  const outcome = evaluateAssertions([parseAssertion('p99{slow page}<50ms')], gateFigures(run([named, endpoint('GET /fast', { lowMs: 1, highMs: 2 })])))[0];
  assert.deepEqual([outcome.id, outcome.why ?? null], ['assert-fail', null]);
  assert.ok(outcome.measured > 80, `measured ${outcome.measured}`);
});

test('an endpoint whose requests failed by --timeout past its tail fails its latency gate (timed-out); the other endpoint passes', () => {
  const slow = endpoint('GET /report', { lowMs: 1, highMs: 5 });
  slow.errors = { ...slow.errors, total: 100, timeout: 100 };
  const result = run([endpoint('GET /health', { lowMs: 1, highMs: 2 }), slow]);
  const outcomes = evaluateAssertions(['p99{GET /report}<9ms', 'p99{GET /health}<9ms', 'p50{GET /report}<9ms'].map((e) => parseAssertion(e)), gateFigures(result));
  assert.deepEqual(outcomes.map((o) => [o.expr, o.pass, o.why ?? null]), [['p99{GET /report}<9ms', false, 'timed-out'], ['p99{GET /health}<9ms', true, null], ['p50{GET /report}<9ms', true, null]]);
});
