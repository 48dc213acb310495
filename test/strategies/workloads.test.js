// Every strategy x {echo, large}: 60 requests over 10 keep-alive connections (6 on each,
// 5 in flight on each of the 2 workers), every body byte-exact, no errors; and a command that cannot start answers 500 with why.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { boot, hammer, groupMembers, WORKLOADS } from './helpers.js';

const STRATEGIES = ['baseline', 'cluster', 'worker-threads', 'fork-pool', 'comm-channel', 'send-advanced'];
const REQUESTS = 60;
const CONNECTIONS = 10;
const started = [];

after(async () => {
  for (const s of started) await s.stop();
  for (const s of started) assert.deepEqual(groupMembers(s.pid), [], `group ${s.pid} left processes`);
});

for (const name of STRATEGIES) {
  for (const workload of ['echo', 'large']) {
    test(`${name} serves ${workload} byte-exact`, async () => {
      const strategy = await boot(name, { workload });
      started.push(strategy);
      const result = await hammer({ port: strategy.port, requests: REQUESTS, connections: CONNECTIONS, expected: WORKLOADS[workload].expected });
      assert.deepEqual(result.errors, []);
      assert.equal(result.mismatches, 0);
      assert.deepEqual(result.statuses, { 200: REQUESTS });
      assert.equal(result.ok, REQUESTS);
      await strategy.stop();
      assert.deepEqual(groupMembers(strategy.pid), []);
    });
  }
}

for (const name of STRATEGIES) {
  test(`${name} answers 500 with the error when the command cannot start`, async () => {
    // One worker is enough to fail to start a command (a pool boots a worker less).
    const strategy = await boot(name, { command: 'nosuchcmd-spawnbench', args: [], poolSize: 1 });
    started.push(strategy);
    const result = await hammer({ port: strategy.port, requests: 4, connections: 2, expected: null });
    assert.deepEqual(result.statuses, { 500: 4 });
    assert.match(result.bodies[500], /spawn nosuchcmd-spawnbench ENOENT/);
    await strategy.stop();
  });
}
