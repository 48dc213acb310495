import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLoad } from '../../src/load/index.js';
import { MISBEHAVE_AT_REQUEST } from '../../fixtures/servers/misbehave-responses.js';
import { startMisbehaving } from './helpers.js';

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));

const DURATION_MS = 1000;
// A run ends when its duration is over; this much later is not "on time" (worker
// threads start and stop within it even on a busy machine).
const END_SLACK_MS = 3000;

/**
 * A 1 s closed-loop run against a misbehaving mode whose one bad answer is the
 * server's MISBEHAVE_AT_REQUEST-th; every other answer is a valid 200 "hi\n".
 * The timeout is longer than the run, so an error counted is never a timeout in disguise.
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
    timeoutMs: 2 * DURATION_MS,
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
});

test('a response with LF-only line endings is a parse error at once, not a timeout', async () => {
  const result = await run('lf-only-once');
  const { total, parse, timeout } = result.errors;
  assert.deepEqual({ total, parse, timeout }, { total: 1, parse: 1, timeout: 0 }, JSON.stringify(result.errors));
  assert.deepEqual(Object.keys(result.statuses), ['200']);
  assert.equal(result.statuses['200'], result.requests);
  assert.ok(result.requests >= MISBEHAVE_AT_REQUEST, 'good answers after the bad one are counted');
});
