import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHistogram, startLoad } from '../../src/load/index.js';
import { isGone, startFixture, startHttpServer } from './helpers.js';

const fixtures = [];
const servers = [];
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  await Promise.all(fixtures.map((f) => f.stop()));
  for (const f of fixtures) assert.ok(isGone(f.child.pid), `fixture ${f.child.pid} still running`);
});

/** How many latencies were recorded at or above `ms`, from the result's histogram. */
function countAtLeast(result, ms) {
  const histogram = decodeHistogram(result.histogram);
  const values = histogram.recordedValuesIterator;
  values.reset();
  let count = 0;
  while (values.hasNext()) {
    const value = values.next();
    if (value.valueIteratedTo >= ms * 1000) count += value.countAtValueIteratedTo;
  }
  return { count, total: histogram.totalCount };
}

// The server freezes for 1 s, 1 s into the run; both loops run 3 s side by side
// against their own copy of the server (a second of load after the stall: the closed loop
// at full speed counts thousands there, so its few slow requests stay under 1%).
test('open loop sees a 1 s stall in its tail; closed loop sees one slow request per connection', async () => {
  const [openServer, closedServer] = await Promise.all([
    startFixture('stall-once.js', ['--after-ms', '1000', '--stall-ms', '1000']),
    startFixture('stall-once.js', ['--after-ms', '1000', '--stall-ms', '1000']),
  ]);
  fixtures.push(openServer, closedServer);
  const CONNECTIONS = 4;
  const [open, closed] = await Promise.all([
    startLoad({ warmupMs: 0, url: openServer.url, rate: 50, durationMs: 3000, expectedBody: 'hi\n' }).done,
    startLoad({ warmupMs: 0, url: closedServer.url, connections: CONNECTIONS, durationMs: 3000, expectedBody: 'hi\n' }).done,
  ]);

  assert.equal(open.mode, 'open');
  assert.equal(open.rate, 50);
  assert.equal(open.errors.total, 0);
  // 150 fall due in 3 s at 50/s: a few over at the most, 20 under at the most (as with 4 s).
  assert.ok(open.requests >= 130 && open.requests <= 155, `open-loop requests ${open.requests}`);
  assert.ok(open.latency.p99Ms >= 500, `open-loop p99 ${open.latency.p99Ms} ms`);

  assert.equal(closed.mode, 'closed');
  assert.equal(closed.errors.total, 0);
  const slow = countAtLeast(closed, 300);
  assert.ok(slow.count >= 1 && slow.count <= CONNECTIONS, `closed loop: ${slow.count} slow of ${slow.total}`);
  assert.ok(closed.latency.p99Ms < 500, `closed-loop p99 ${closed.latency.p99Ms} ms hides the stall`);
  assert.ok(closed.latency.maxMs >= 500, `closed-loop max ${closed.latency.maxMs} ms`);
});

test('open loop in requests mode sends exactly N at the rate', async () => {
  const server = await startHttpServer((req, res) => res.end('hi\n'));
  servers.push(server);
  const startedAt = Date.now();
  const result = await startLoad({ warmupMs: 0, url: server.url, rate: 400, requests: 200, threads: 2, expectedBody: 'hi\n' }).done;
  const tookMs = Date.now() - startedAt;
  assert.equal(result.mode, 'open');
  assert.equal(result.requests, 200);
  assert.equal(result.errors.total, 0);
  assert.ok(tookMs >= 400, `200 requests at 400/s took ${tookMs} ms`);
});

test('open loop with too few connections counts missed requests and says so', async () => {
  const server = await startHttpServer((req, res) => setTimeout(() => res.end('hi\n'), 100));
  servers.push(server);
  const result = await startLoad({ warmupMs: 0, url: server.url, rate: 50, connections: 1, durationMs: 1000 }).done;
  // One connection answers 10 requests a second; 50 fall due.
  assert.ok(result.missed >= 20, `missed ${result.missed}`);
  assert.ok(result.latency.maxMs >= 500, 'the wait for a connection is part of the latency');
  assert.ok(result.notes.some((n) => /could not be sent on time.*raise --connections/.test(n)), result.notes.join('\n'));
});

test('a request sent late on an idle connection (this thread\'s timer fired late) is not "missed"; one that waited for a connection is', async () => {
  const { OpenLoop } = await import('../../src/load/open-loop.js');
  const { performance } = await import('node:perf_hooks');
  let missed = 0;
  let issued = 0;
  const run = { canIssue: () => issued < 1, issue: () => issued++, generationAt: () => 1, generation: () => 1, running: () => true, missed: () => missed++ };
  const sent = [];
  const conn = { connected: true, inFlight: false, idleListed: false, send: (due, now) => sent.push(now - due) };
  // At 2 req/s on a busy machine, the timer fired 50 ms late: it said "all 10 connections were busy; raise --connections".
  const late = new OpenLoop(run, 2, 0);
  late.onIdle(conn, performance.now());
  late.t0 = performance.now() - 50;
  late.fire();
  late.stop();
  assert.equal(sent.length, 1);
  assert.ok(sent[0] >= 50, `sent ${sent[0]} ms after it was due`);
  assert.equal(missed, 0, 'the pool had an idle connection');
  // No idle connection when it fell due: it waits in the queue, and goes out late on the next one to free up.
  issued = 0;
  const queued = new OpenLoop(run, 2, 0);
  queued.t0 = performance.now() - 50;
  queued.fire();
  queued.onIdle(conn, performance.now());
  queued.stop();
  assert.equal(sent.length, 2);
  assert.equal(missed, 1);
});

test('a rate whose next request is due beyond what a timer holds (--rate 1e-9) waits without a warning or a busy timer', async () => {
  const { OpenLoop } = await import('../../src/load/open-loop.js');
  const { performance } = await import('node:perf_hooks');
  const warnings = [];
  const onWarning = (w) => warnings.push(w.name);
  process.on('warning', onWarning);
  let issued = 0;
  let fires = 0;
  const run = { canIssue: () => true, issue: () => issued++, generationAt: () => 1, generation: () => 1, running: () => true, missed: () => {} };
  const loop = new OpenLoop(run, 1e-9, 0);
  const fire = loop.fire.bind(loop);
  loop.fire = () => { fires++; fire(); };
  loop.start(performance.now());
  await new Promise((resolve) => setTimeout(resolve, 100));
  loop.stop();
  process.off('warning', onWarning);
  assert.equal(issued, 1, 'the first request falls due at once, the next in 31 years');
  assert.ok(fires <= 1, `the timer fired ${fires} times in 100 ms`);
  assert.deepEqual(warnings.filter((name) => name === 'TimeoutOverflowWarning'), []);
});
