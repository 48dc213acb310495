import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { decodeHistogram, startLoad } from '../../src/load/index.js';
import { isGone, startFixture } from './helpers.js';

const fixtures = [];
after(async () => {
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

// The server freezes for 1 s, 1 s into the run; both loops run 4 s side by side
// against their own copy of the server.
test('open loop sees a 1 s stall in its tail; closed loop sees one slow request per connection', async () => {
  const [openServer, closedServer] = await Promise.all([
    startFixture('stall-once.js', ['--after-ms', '1000', '--stall-ms', '1000']),
    startFixture('stall-once.js', ['--after-ms', '1000', '--stall-ms', '1000']),
  ]);
  fixtures.push(openServer, closedServer);
  const CONNECTIONS = 4;
  const [open, closed] = await Promise.all([
    startLoad({ url: openServer.url, rate: 50, durationMs: 4000, expectedBody: 'hi\n' }).done,
    startLoad({ url: closedServer.url, connections: CONNECTIONS, durationMs: 4000, expectedBody: 'hi\n' }).done,
  ]);

  assert.equal(open.mode, 'open');
  assert.equal(open.rate, 50);
  assert.equal(open.errors.total, 0);
  assert.ok(open.requests >= 180 && open.requests <= 205, `open-loop requests ${open.requests}`);
  assert.ok(open.latency.p99Ms >= 500, `open-loop p99 ${open.latency.p99Ms} ms`);

  assert.equal(closed.mode, 'closed');
  assert.equal(closed.errors.total, 0);
  const slow = countAtLeast(closed, 300);
  assert.ok(slow.count >= 1 && slow.count <= CONNECTIONS, `closed loop: ${slow.count} slow of ${slow.total}`);
  assert.ok(closed.latency.p99Ms < 500, `closed-loop p99 ${closed.latency.p99Ms} ms hides the stall`);
  assert.ok(closed.latency.maxMs >= 500, `closed-loop max ${closed.latency.maxMs} ms`);
});
