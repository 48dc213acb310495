import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLoad } from '../../src/load/index.js';
import { isGone, startFixture } from './helpers.js';

const fixtures = [];
after(async () => {
  await Promise.all(fixtures.map((f) => f.stop()));
  for (const f of fixtures) assert.ok(isGone(f.child.pid), `fixture ${f.child.pid} still running`);
});

test('a server that delays every response by 50 ms measures p50 between 45 and 150 ms', async () => {
  const server = await startFixture('fixed-delay.js', ['--delay-ms', '50']);
  fixtures.push(server);
  const result = await startLoad({ url: server.url, connections: 5, warmupMs: 200, durationMs: 1500, expectedBody: 'hi\n' })
    .done;
  assert.equal(result.errors.total, 0);
  assert.ok(result.requests >= 20, `requests ${result.requests}`);
  assert.ok(result.latency.p50Ms >= 45 && result.latency.p50Ms <= 150, `p50 ${result.latency.p50Ms} ms`);
  assert.ok(result.latency.minMs >= 45, `min ${result.latency.minMs} ms: nothing answers faster than the delay`);
});
