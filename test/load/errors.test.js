import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLoad } from '../../src/load/index.js';
import { freePort, startHttpServer, startMisbehaving } from './helpers.js';
import { TIMEOUT_TEXT, KEPT_ALIVE_CLOSE_TEXT, NEW_CONNECTION_CLOSE_TEXT } from '../../src/load/connection.js';
import { unreachableNote } from '../../src/load/notes.js';
import { neighbourReasons } from '../../src/analysis/run-advice.js';

test('a server that closes each kept-alive connection after its response, without Connection: close: the request sent on it is said to have got no answer, not a cut response', async () => {
  // It read "reset ×3,064: closed before the response ended" where no response had begun.
  const result = await run((await misbehaving('close-after-each-unsaid')).url);
  const resets = result.errorTexts.filter((e) => e.kind === 'reset');
  assert.ok(result.errors.reset > 0 && resets.length > 0, JSON.stringify(result.errorTexts));
  assert.ok(resets.some((e) => e.texts.some((t) => t.text === KEPT_ALIVE_CLOSE_TEXT)), JSON.stringify(resets));
  assert.ok(!resets.some((e) => e.texts.some((t) => t.text === 'closed before the response ended')), JSON.stringify(resets));
});

test('a server that holds fewer connections than sent closes the others unanswered: said so, not "closed before the response ended"', async () => {
  const server = await startHttpServer((req, res) => res.end('hi\n'));
  servers.push(server);
  server.server.maxConnections = 1;
  const result = await run(server.url, { connections: 3 });
  const resets = result.errorTexts.filter((e) => e.kind === 'reset');
  assert.ok(result.requests > 0 && result.errors.reset > 0, JSON.stringify(result.errorTexts));
  assert.ok(resets.some((e) => e.texts.some((t) => t.text === NEW_CONNECTION_CLOSE_TEXT)), JSON.stringify(resets));
  assert.ok(!resets.some((e) => e.texts.some((t) => t.text === 'closed before the response ended')), JSON.stringify(resets));
});

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function misbehaving(mode) {
  const server = await startMisbehaving(mode);
  servers.push(server);
  return server;
}

/**
 * A short run; every error test must still end with a full result. A closed loop against an
 * error that comes at once keeps a core busy: 250 ms still counts hundreds of them. The runs
 * that wait on --timeout (cheap: the loop is idle) keep 500 ms.
 */
async function run(url, extra = {}) {
  const result = await startLoad({ warmupMs: 0, url, connections: 2, durationMs: 250, timeoutMs: 150, expectedBody: 'hi\n', ...extra })
    .done;
  assert.equal(result.mode, 'closed');
  // A latency with no response behind it is null, never a 0 that would pass a gate.
  assert.equal(result.latency.p99Ms === null, result.requests === 0, `p99 ${result.latency.p99Ms} of ${result.requests} responses`);
  if (result.requests > 0) assert.equal(typeof result.latency.p99Ms, 'number');
  const kinds = ['connect', 'reset', 'timeout', 'parse', 'mismatch', 'non2xx'];
  assert.equal(result.errors.total, kinds.reduce((n, k) => n + result.errors[k], 0));
  return result;
}

/** One run against a port nothing listens on, shared by the two cases about it. */
let refusedRun = null;
const refused = async () => (refusedRun ??= run(`http://127.0.0.1:${await freePort()}/`));
/** One run against a server that closes in the middle of a body, shared by the two cases about it. */
let closedEarlyRun = null;
const closedEarly = async () => (closedEarlyRun ??= misbehaving('close-early').then((server) => run(server.url)));

test('connect refused is counted and says the server is not there', async () => {
  const result = await refused();
  assert.ok(result.errors.connect > 0);
  assert.equal(result.requests, 0);
  assert.ok(result.notes.some((n) => /could not connect/.test(n)), result.notes.join('\n'));
});

test('a reset connection is counted as reset', async () => {
  const result = await run((await misbehaving('reset')).url);
  assert.ok(result.errors.reset > 0);
  assert.equal(result.requests, 0);
});

test('a server closing in the middle of a body is counted as reset', async () => {
  const result = await closedEarly();
  assert.ok(result.errors.reset > 0);
  assert.equal(result.errors.parse, 0);
});

test('a server that never answers is counted as timeouts, each with its text, so they are why requests failed', async () => {
  const result = await run((await misbehaving('never-answer')).url, { durationMs: 500 });
  assert.ok(result.errors.timeout >= 2, `timeouts: ${result.errors.timeout}`);
  assert.equal(result.requests, 0);
  // Without a text, timeouts were missing from the error texts: a few connect ETIMEDOUTs beside them were named instead.
  const timeouts = result.errorTexts.filter((e) => e.kind === 'timeout');
  assert.equal(timeouts.reduce((n, e) => n + e.count, 0), result.errors.timeout, JSON.stringify(result.errorTexts));
  assert.deepEqual(timeouts[0].texts, [{ text: TIMEOUT_TEXT, count: result.errors.timeout }]);
  const why = neighbourReasons({ errors: result.errors.total + 3, cores: 2, stderr: null, downstreams: [],
    errorTexts: [...result.errorTexts, { status: null, kind: 'connect', count: 3, texts: [{ text: 'ETIMEDOUT', count: 3 }], other: 0 }].sort((a, b) => b.count - a.count) })
    .find((r) => r.id === 'errors-why');
  assert.equal(why.figures.kind, 'timeout');
  assert.equal(why.figures.text, TIMEOUT_TEXT);
});

test('"could not connect" is said where failed connects are most of the errors, not of a few connect timeouts beside many request timeouts', () => {
  const url = 'http://127.0.0.1:9/';
  assert.match(unreachableNote({ requests: 0, errors: { connect: 30, total: 30 } }, url), /could not connect to http:\/\/127\.0\.0\.1:9\//);
  assert.equal(unreachableNote({ requests: 0, errors: { connect: 109, total: 1739 } }, url), null);
  assert.equal(unreachableNote({ requests: 5, errors: { connect: 30, total: 30 } }, url), null);
  assert.equal(unreachableNote({ requests: 0, errors: { connect: 0, total: 30 } }, url), null);
});

test('a response that ends after --timeout is a timeout, however late the sweep looks (--timeout 10ms, answers after 12 ms)', async () => {
  // The sweep runs every 10 ms at the least: a response between the timeout and the next sweep was counted
  // a success, so --timeout 1ms printed p99 12.7 ms among its successes.
  const server = await startHttpServer((req, res) => setTimeout(() => res.end('hi\n'), 12));
  servers.push(server);
  const result = await run(server.url, { timeoutMs: 10, durationMs: 500 });
  assert.ok(result.errors.timeout > 0, JSON.stringify(result.errors));
  for (const [name, latency] of [['every response', result.latency], ['successes', result.succeededLatency]]) {
    assert.ok(latency.maxMs === null || latency.maxMs <= 10, `${name}: max ${latency.maxMs} ms beyond the 10 ms timeout`);
  }
});

test('garbage is counted as parse errors', async () => {
  const result = await run((await misbehaving('garbage')).url);
  assert.ok(result.errors.parse > 0);
  assert.equal(result.requests, 0);
});

test('a 2xx body that differs from the expected bytes is a mismatch', async () => {
  const server = await startHttpServer((req, res) => res.end('bye\n'));
  servers.push(server);
  const result = await run(server.url);
  assert.ok(result.requests > 0);
  assert.equal(result.errors.mismatch, result.requests);
  const unchecked = await run(server.url, { expectedBody: null });
  assert.equal(unchecked.errors.total, 0, 'no expected body, no verification');
});

test('non-2xx statuses are counted by status with a sample of the first body', async () => {
  const result = await run((await misbehaving('status-500')).url);
  assert.ok(result.errors.non2xx > 0);
  assert.equal(result.errors.non2xx, result.requests);
  assert.deepEqual(Object.keys(result.statuses), ['500']);
  assert.deepEqual(result.bodySamples, { 500: 'spawn nosuchcmd ENOENT\n' });
  assert.equal(result.errors.mismatch, 0, 'a non-2xx body is not compared');
});

test('a body sample is cut at 200 bytes', async () => {
  const server = await startHttpServer((req, res) => {
    res.writeHead(404);
    res.end('x'.repeat(1000));
  });
  servers.push(server);
  const result = await run(server.url);
  assert.equal(result.bodySamples['404'], 'x'.repeat(200));
});

test('every non-2xx first line is counted by text; hostile texts come out cleaned and bounded', async () => {
  let n = 0;
  const server = await startHttpServer((req, res) => {
    n++;
    res.writeHead(n % 2 === 0 ? 500 : 503);
    if (n % 2 === 0) res.end('sorry, too many clients already\nsecond line\n');
    else if (n % 3 === 0) res.end(`<script>alert(1)</script> \u001b[31mred\u001b[0m\u0007 ${'y'.repeat(400)}`);
    else res.end(`request ${n} failed\n`);
  });
  servers.push(server);
  const result = await run(server.url);
  const e500 = result.errorTexts.find((e) => e.status === 500);
  assert.equal(e500.kind, 'non2xx');
  assert.equal(e500.count, result.statuses['500']);
  assert.deepEqual(e500.texts, [{ text: 'sorry, too many clients already', count: result.statuses['500'] }]);
  const e503 = result.errorTexts.find((e) => e.status === 503);
  assert.equal(e503.count, result.statuses['503']);
  // The first few distinct texts are kept; the rest are only counted.
  assert.ok(e503.texts.length <= 5, `${e503.texts.length} texts kept`);
  assert.equal(e503.texts.reduce((s, t) => s + t.count, 0) + e503.other, e503.count);
  for (const { text } of e503.texts) {
    assert.ok(Buffer.byteLength(text) <= 200, text);
    assert.doesNotMatch(text, /[\u0000-\u001f\u007f]/);
  }
  const hostile = e503.texts.find((t) => t.text.startsWith('<script>'));
  assert.ok(hostile, JSON.stringify(e503.texts));
  assert.match(hostile.text, /^<script>alert\(1\)<\/script> red y+$/);
});

test('a refused connection keeps its errno as the text of its kind', async () => {
  const result = await refused();
  const connect = result.errorTexts.find((e) => e.kind === 'connect');
  assert.equal(connect.status, null);
  assert.equal(connect.texts[0].text, 'ECONNREFUSED');
});

test('every reset has a text: a close with no socket error (no errno) is counted under its own text, so the texts add up to the count', async () => {
  const result = await closedEarly();
  assert.ok(result.errors.reset > 0);
  const resets = result.errorTexts.filter((e) => e.kind === 'reset');
  assert.equal(resets.reduce((n, e) => n + e.count, 0), result.errors.reset, JSON.stringify(result.errorTexts));
  assert.ok(resets.some((e) => e.texts.some((t) => t.text === 'closed before the response ended')), JSON.stringify(resets));
});
