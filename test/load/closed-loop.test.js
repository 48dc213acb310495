import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHistogram, startLoad } from '../../src/load/index.js';
import { startHttpServer, startMisbehaving } from './helpers.js';
import { waitFor } from '../helpers/harness.js';

const servers = [];
after(() => Promise.all(servers.map((s) => s.close())));

async function hello() {
  const server = await startHttpServer((req, res) => {
    req.resume();
    res.end('hi\n');
  });
  servers.push(server);
  return server;
}

/**
 * Answers like hello() after `SLOW_MS`: a closed loop over a few connections then sends a few
 * hundred requests a second instead of saturating the CPU, for the cases that run for a time.
 */
const SLOW_MS = 5;
async function slowHello() {
  let answered = 0;
  const server = await startHttpServer((req, res) => {
    req.resume();
    setTimeout(() => {
      res.end('hi\n');
      answered += 1;
    }, SLOW_MS);
  });
  servers.push(server);
  return Object.assign(server, { answered: () => answered });
}

const TICK_KEYS = [
  'second', 'phase', 'elapsedMs', 'plannedMs', 'requests', 'rps', 'meanRps', 'bytes', 'errors',
  'statuses', 'errorTexts', 'interval', 'overall', 'missed', 'generator',
].sort();

test('closed loop: keep-alive reuse, phases, ticks and the result shape', async () => {
  const server = await slowHello();
  const load = startLoad({ url: server.url, connections: 3, warmupMs: 1000, durationMs: 1200, expectedBody: 'hi\n' });
  const phases = [];
  const phaseAt = {};
  const ticks = [];
  load.on('phase', ({ phase }) => {
    phases.push(phase);
    phaseAt[phase] = Date.now();
  });
  load.on('tick', (tick) => ticks.push(tick));
  const result = await load.done;

  assert.deepEqual(phases, ['warmup', 'measure', 'done']);
  const warmupMs = phaseAt.measure - phaseAt.warmup;
  assert.ok(warmupMs >= 900 && warmupMs < 1800, `measure began ${warmupMs} ms after warm-up`);
  assert.equal(server.connections, 3, 'each connection is opened once and reused');
  assert.equal(result.mode, 'closed');
  assert.equal(result.connections, 3);
  assert.equal(result.rate, null);
  assert.ok(result.requests > 0);
  assert.deepEqual(result.statuses, { 200: result.requests });
  assert.equal(result.errors.total, 0);
  assert.deepEqual(result.errorTexts, []);
  assert.equal(result.missed, 0);
  assert.ok(result.durationMs >= 1150 && result.durationMs < 3000, `durationMs ${result.durationMs}`);
  assert.ok(result.latency.p50Ms >= SLOW_MS && result.latency.p50Ms <= result.latency.p99Ms);
  assert.ok(result.latency.p99Ms <= result.latency.maxMs);
  assert.equal(decodeHistogram(result.histogram).totalCount, result.requests);
  assert.equal(result.series.reduce((n, s) => n + s.requests, 0), result.requests);
  assert.ok(result.generator.cpuPct > 0 && result.generator.elu > 0);

  assert.ok(ticks.some((t) => t.phase === 'warmup') && ticks.some((t) => t.phase === 'measure'));
  for (const tick of ticks) assert.deepEqual(Object.keys(tick).sort(), TICK_KEYS);
  const first = ticks.find((t) => t.phase === 'measure');
  assert.equal(first.plannedMs, 1200);
  assert.ok(first.rps > 0);
  assert.deepEqual(Object.keys(first.interval).sort(), ['maxMs', 'p50Ms', 'p90Ms', 'p99Ms']);
});

test('requests mode stops after exactly N measured requests', async () => {
  const server = await hello();
  const result = await startLoad({ warmupMs: 0, url: server.url, connections: 4, requests: 500, threads: 2 }).done;
  assert.equal(result.requests, 500);
  assert.equal(result.threads, 2);
  assert.equal(result.errors.total, 0);
  assert.equal(decodeHistogram(result.histogram).totalCount, 500);
});

test('stop() ends early and resolves with the result so far', async () => {
  const server = await slowHello();
  const load = startLoad({ warmupMs: 0, url: server.url, connections: 2, durationMs: 60_000 });
  // Some responses first (a loaded machine can take longer than a fixed wait to start the generator's thread).
  await waitFor(() => server.answered() >= 20, { timeoutMs: 20_000, what: 'the first responses' });
  const startedStop = Date.now();
  const result = await load.stop();
  assert.ok(Date.now() - startedStop < 2000);
  assert.ok(result.requests > 0);
  assert.ok(result.durationMs < 5000);
  assert.equal(await load.done, result);
});

test('method, headers and body reach the server', async () => {
  const seen = [];
  const server = await startHttpServer((req, res) => {
    let body = '';
    req.on('data', (d) => (body += d));
    req.on('end', () => {
      if (seen.length < 1) seen.push({ method: req.method, header: req.headers['x-run'], body });
      res.end('hi\n');
    });
  });
  servers.push(server);
  const result = await startLoad({
    warmupMs: 0,
    url: server.url, method: 'POST', headers: { 'x-run': 'one' }, body: '{"a":1}', connections: 1, requests: 20,
  }).done;
  assert.equal(result.requests, 20);
  assert.deepEqual(seen[0], { method: 'POST', header: 'one', body: '{"a":1}' });
});

const AWKWARD_REQUESTS = 40;
for (const mode of ['chunked-odd', 'split-head', 'close-after-each', 'until-close', 'http10']) {
  test(`valid but awkward responses are read without error: ${mode}`, async () => {
    const server = await startMisbehaving(mode);
    servers.push(server);
    // A count, not a time: as many requests on a loaded machine, and no more.
    const result = await startLoad({ warmupMs: 0, url: server.url, connections: 2, requests: AWKWARD_REQUESTS, expectedBody: 'hi\n' }).done;
    assert.equal(result.requests, AWKWARD_REQUESTS);
    assert.deepEqual(result.errors, { total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0, tls: 0 });
    assert.deepEqual(result.statuses, { 200: result.requests });
  });
}

test('two threads split the connections and merge their histograms', async () => {
  const server = await slowHello();
  const result = await startLoad({ warmupMs: 0, url: server.url, connections: 4, durationMs: 800, threads: 2 }).done;
  assert.equal(server.connections, 4);
  assert.equal(result.threads, 2);
  assert.equal(decodeHistogram(result.histogram).totalCount, result.requests);
  assert.ok(result.requests > 0);
});
