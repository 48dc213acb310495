import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLoad } from '../../src/load/index.js';
import { MISBEHAVE_AT_REQUEST } from '../../fixtures/servers/misbehave-responses.js';
import { startMisbehaving } from './helpers.js';
import { requestOutcome } from '../../src/analysis/request-outcome.js';
import { attemptsOf } from '../../src/analysis/metrics.js';
import { buildEvidence } from '../../src/diagnose/evidence.js';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { wordDiagnosis } from '../../src/report/diagnose-words.js';

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));

// The bad answer is the 5th; a closed loop sends thousands in this time.
const DURATION_MS = 300;
// Longer than the run, so an error counted is never a timeout in disguise.
const TIMEOUT_MS = 2000;
// A run ends when its duration is over; this much later is not "on time" (worker
// threads start and stop within it even on a busy machine: 3.4 s seen with 20 test files at once).
const END_SLACK_MS = 3700;

/**
 * A 0.3 s closed-loop run against a misbehaving mode whose one bad answer is the
 * server's MISBEHAVE_AT_REQUEST-th; every other answer is a valid 200 "hi\n".
 */
async function run(mode) {
  const server = await startMisbehaving(mode);
  servers.push(server);
  const startedAt = Date.now();
  const result = await startLoad({
    warmupMs: 0,
    url: server.url,
    connections: 3,
    durationMs: DURATION_MS,
    timeoutMs: TIMEOUT_MS,
    expectedBody: Buffer.from('hi\n'),
  }).done;
  const elapsedMs = Date.now() - startedAt;
  assert.ok(elapsedMs < DURATION_MS + END_SLACK_MS, `the run ended ${elapsedMs} ms after it started`);
  return result;
}

test('a second, unrequested response is one parse error; the requested one and later ones count', async () => {
  const result = await run('double-once');
  const { total, parse } = result.errors;
  assert.deepEqual({ total, parse }, { total: 1, parse: 1 }, JSON.stringify(result.errors));
  assert.equal(result.statuses['203'], 1, `the requested answer was counted: ${JSON.stringify(result.statuses)}`);
  assert.equal(result.statuses['200'], result.requests - 1);
  assert.ok(result.statuses['200'] >= MISBEHAVE_AT_REQUEST, 'good answers after the bad one are counted');
  // It failed no request: counted apart, so the outcome and the gates' share do not take it for one.
  assert.equal(result.unsolicited, 1);
  const outcome = requestOutcome(result);
  assert.deepEqual([outcome.attempts, outcome.failed], [result.requests, 0]);
  assert.equal(attemptsOf(result), result.requests);
  assert.match(result.notes.join('\n'), /the server sent 1 response \(or bytes\) that no request asked for/);
});

test('diagnose on responses nobody asked for: its own finding, not "50% of requests failed"', () => {
  const result = { kind: 'diagnose', load: { requests: 3571, errors: { total: 3571, connect: 0, reset: 0, timeout: 0, parse: 3571, mismatch: 0, non2xx: 0, tls: 0 }, unsolicited: 3571, statuses: { 200: 3571 }, latency: {} }, samples: null };
  const evidence = buildEvidence(result);
  assert.deepEqual([evidence.load.errors, evidence.load.attempts, evidence.load.errorRate], [0, 3571, 0]);
  const { verdict, findings } = wordDiagnosis(diagnoseEvidence(evidence));
  const found = [verdict, ...findings];
  assert.ok(!found.some((f) => f.id === 'errors'), JSON.stringify(found.map((f) => f.id)));
  const unsolicited = found.find((f) => f.id === 'unsolicited-responses');
  assert.equal(unsolicited.title, 'the server sent responses no request asked for: 3,571 after 3,571 requests');
});

test('a response with LF-only line endings is a parse error at once, not a timeout', async () => {
  const result = await run('lf-only-once');
  const { total, parse, timeout } = result.errors;
  assert.deepEqual({ total, parse, timeout }, { total: 1, parse: 1, timeout: 0 }, JSON.stringify(result.errors));
  // What broke it is kept as the error's text: without it the failure only asked whether the port was right.
  assert.deepEqual(result.errorTexts.filter((e) => e.kind === 'parse').flatMap((e) => e.texts.map((t) => t.text)), ['line ending without CR in head']);
  assert.deepEqual(Object.keys(result.statuses), ['200']);
  assert.equal(result.statuses['200'], result.requests);
  assert.ok(result.requests >= MISBEHAVE_AT_REQUEST, 'good answers after the bad one are counted');
});

test('no request answered in valid HTTP/1.1 by a server that speaks it: the failure names what broke, not "is it the right port?"', async () => {
  const { noResponseReason } = await import('../../src/load/host-check.js');
  const broken = noResponseReason({ errors: { total: 9, parse: 9 }, errorTexts: [{ status: null, kind: 'parse', count: 9, texts: [{ text: 'bad content-length', count: 9 }], other: 0 }] });
  assert.match(broken.hint, /^the server answers HTTP\/1\.1 but breaks it \(bad content-length\); .*fix what the server sends$/);
  // Bytes that never began as HTTP/1.x still ask about the port.
  const foreign = noResponseReason({ errors: { total: 9, parse: 9 }, errorTexts: [{ status: null, kind: 'parse', count: 9, texts: [{ text: 'response does not start with HTTP/1.x', count: 9 }], other: 0 }] });
  assert.match(foreign.hint, /is it the right port/);
});
