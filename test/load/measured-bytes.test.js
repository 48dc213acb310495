// What the measured phase counts (issue 36, medium 9): "Requests 0 … 9.3 MB received" came
// from bytes counted for warm-up requests answered in the measured phase, and an open loop far
// beyond the server's capacity spent its whole measured phase on the warm-up's backlog, so
// nothing was counted. The bytes are the counted responses' own, and the measured phase
// sends its own requests.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { startLoad } from '../../src/load/index.js';
import { OpenLoop } from '../../src/load/open-loop.js';
import { noResponseFailure } from '../../src/load/host-check.js';

const RESPONSE = 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nhi\n';
const SIZE = Buffer.byteLength(RESPONSE);
const servers = [];
after(() => Promise.all(servers.map((s) => new Promise((resolve) => {
  for (const socket of s.sockets) socket.destroy();
  s.close(resolve);
}))));

/**
 * A raw server answering each request in one write of SIZE bytes: the first on each
 * connection after `firstMs`, the others after `delayMs`.
 */
async function delayedServer(delayMs, firstMs = delayMs) {
  const server = net.createServer((socket) => {
    server.sockets.add(socket);
    socket.on('close', () => server.sockets.delete(socket));
    socket.on('error', () => {});
    let answered = 0;
    socket.on('data', () => {
      setTimeout(() => socket.writable && socket.write(RESPONSE), answered++ === 0 ? firstMs : delayMs);
    });
  });
  server.sockets = new Set();
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${server.address().port}/`;
}

test('closed loop: warm-up requests answered in the measured phase count neither as requests nor as bytes', async () => {
  // Each connection's first request, sent in the 100 ms warm-up, is answered 150 ms later: in the measured phase.
  const url = await delayedServer(1, 150);
  const result = await startLoad({ url, connections: 2, warmupMs: 100, durationMs: 400, timeoutMs: 5000 }).done;
  assert.ok(result.requests > 0, 'the measured phase\'s own requests are answered');
  assert.equal(result.bytes, result.requests * SIZE, `${result.bytes} bytes for ${result.requests} responses of ${SIZE}`);
});

test('open loop far beyond capacity: the measured phase counts its own requests, not the warm-up\'s backlog; the note says to lower --rate', async () => {
  const url = await delayedServer(1);
  const result = await startLoad({ url, connections: 4, rate: 200_000, warmupMs: 300, durationMs: 500, timeoutMs: 10_000 }).done;
  assert.ok(result.requests > 0, `requests ${result.requests}, bytes ${result.bytes}, missed ${result.missed}`);
  assert.equal(result.bytes, result.requests * SIZE);
  assert.ok(result.missed > result.requests);
  assert.ok(result.notes.some((n) => /^the open loop at 200000 req\/s is far beyond what was answered \(\d+ req\/s\): .*; lower --rate, or raise --connections if the server has room$/.test(n)), result.notes.join('\n'));
});

test('OpenLoop.dropDueBefore drops the queued requests due before the time given, and no others', () => {
  const loop = new OpenLoop({ running: () => false }, 1000, 0);
  loop.t0 = 0;
  loop.queueStart = 0;
  loop.queueEnd = 10; // due at 0, 1, …, 9 ms
  loop.dropDueBefore(4.5);
  assert.equal(loop.queueStart, 5);
  loop.dropDueBefore(100);
  assert.equal(loop.queueStart, 10, 'never past the end of the queue');
});

test('no response in the measured phase: an open loop far beyond capacity is said so; a closed loop\'s phase too short for its requests', () => {
  const none = { total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0, tls: 0 };
  const planned = { durationMs: 10, timeoutMs: 10_000 };
  assert.equal(
    noResponseFailure({ requests: 0, errors: none, bytes: 0, mode: 'open', rate: 1_000_000, missed: 2_000_000 }, false, planned),
    'no response finished within the measured 10ms: an open loop at 1000000 req/s is far beyond what the server answers; lower --rate',
  );
  assert.match(noResponseFailure({ requests: 0, errors: none, bytes: 0, mode: 'closed', rate: null, missed: 0 }, false, planned), /^no response arrived within the measured 10ms: requests were sent and none finished in it \(the measured phase was too short for them\); give a longer --duration/);
});

test('a stream that never ends (server-sent events): its responses had begun, and the failure says to give --path a route that ends, not only a longer --duration', async () => {
  const server = net.createServer((socket) => {
    server.sockets.add(socket);
    socket.on('close', () => server.sockets.delete(socket));
    socket.on('error', () => {});
    socket.once('data', () => {
      socket.write('HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n');
      const tick = setInterval(() => (socket.writable ? socket.write('9\r\ndata: x\n\n\r\n') : clearInterval(tick)), 20);
      socket.on('close', () => clearInterval(tick));
    });
  });
  server.sockets = new Set();
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const result = await startLoad({ warmupMs: 0, url: `http://127.0.0.1:${server.address().port}/`, connections: 2, durationMs: 300, timeoutMs: 5000, expectedBody: null }).done;
  assert.equal(result.requests, 0);
  assert.equal(result.unanswered.begun, 2, JSON.stringify(result.unanswered));
  const failure = noResponseFailure(result, false, { durationMs: 300 });
  assert.match(failure, /^no response finished within the measured 300ms: 2 responses had begun \(the status and headers arrived\) and none ended; a stream \(server-sent events, a long poll\) never ends: give --path a route whose response ends/);
});
