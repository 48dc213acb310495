// --pool-size and --balance take effect in the running strategies: the per-worker
// counts in the workers lines are what the balancer predicts.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { boot, hammer, groupMembers, WORKLOADS } from './helpers.js';
import { waitFor } from '../helpers/harness.js';
import { createBalancer } from '../../strategies/lib/balancers.js';

const started = [];
after(async () => {
  for (const s of started) await s.stop();
  for (const s of started) assert.deepEqual(groupMembers(s.pid), []);
});

async function countsAfter(strategy, requests, connections) {
  const result = await hammer({ port: strategy.port, requests, connections, expected: WORKLOADS.echo.expected });
  assert.equal(result.ok, requests);
  const workers = await waitFor(() => {
    const w = strategy.workers();
    return w.reduce((sum, x) => sum + x.completed, 0) === requests && w;
  }, { what: 'workers lines adding up to every request' });
  return workers.sort((a, b) => a.id - b.id);
}

for (const name of ['fork-pool', 'worker-threads', 'comm-channel', 'send-advanced']) {
  test(`${name}: --pool-size 3 --balance round-robin gives equal counts, ±1`, async () => {
    const strategy = await boot(name, { poolSize: 3, balance: 'round-robin' });
    started.push(strategy);
    const workers = await countsAfter(strategy, 60, 10);
    assert.equal(workers.length, 3);
    assert.deepEqual(workers.map((w) => w.id), [0, 1, 2]);
    for (const w of workers) assert.ok(Math.abs(w.completed - 60 / 3) <= 1, `worker ${w.id}: ${w.completed}`);
    const ids = name === 'worker-threads' ? workers.map((w) => w.threadId) : workers.map((w) => w.pid);
    assert.equal(new Set(ids).size, 3);
    await strategy.stop();
  });
}

test('fork-pool: --balance random with a seed picks exactly what the balancer predicts', async () => {
  const seed = 1234;
  const requests = 120;
  const strategy = await boot('fork-pool', { poolSize: 4, balance: 'random', seed });
  started.push(strategy);
  const workers = await countsAfter(strategy, requests, 10);
  const pick = createBalancer('random', { seed });
  const predicted = [0, 0, 0, 0];
  for (let i = 0; i < requests; i++) predicted[pick([0, 0, 0, 0])]++;
  assert.deepEqual(workers.map((w) => w.completed), predicted);
  assert.notDeepEqual(predicted, [30, 30, 30, 30]); // not what round-robin would give
  await strategy.stop();
});

test('fork-pool: least-requests and p2c serve with every worker used', async () => {
  for (const balance of ['least-requests', 'p2c']) {
    const strategy = await boot('fork-pool', { poolSize: 2, balance });
    started.push(strategy);
    const workers = await countsAfter(strategy, 40, 10);
    assert.equal(workers.length, 2);
    for (const w of workers) assert.ok(w.completed > 0, `${balance}: worker ${w.id} got nothing`);
    await strategy.stop();
  }
});

test('cluster: --pool-size 3 starts 3 workers that each report themselves', async () => {
  const strategy = await boot('cluster', { poolSize: 3 });
  started.push(strategy);
  const workers = await waitFor(() => strategy.workers().length === 3 && strategy.workers(), { what: '3 cluster workers' });
  assert.deepEqual(workers.map((w) => w.id).sort(), [0, 1, 2]);
  const result = await hammer({ port: strategy.port, requests: 60, connections: 6, expected: WORKLOADS.echo.expected });
  assert.equal(result.ok, 60);
  await strategy.stop();
});
