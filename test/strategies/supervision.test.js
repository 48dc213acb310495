// Supervision and clean exits: a killed worker's requests get 502, the worker is
// replaced and the run goes on; SIGTERM or a closed stdin take every process along.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { boot, hammer, groupMembers } from './helpers.js';
import { waitFor } from '../helpers/harness.js';

/** Long enough that each worker holds requests when we kill it; short enough for a quick test. */
const SLOW_ECHO = { command: 'sh', args: ['-c', 'sleep 0.2; echo hi'] };
const REQUESTS = 80;
const started = [];
after(async () => {
  for (const s of started) await s.stop();
  for (const s of started) assert.deepEqual(groupMembers(s.pid), []);
});

for (const name of ['fork-pool', 'comm-channel', 'send-advanced']) {
  test(`${name}: a worker killed mid-run is replaced, its requests get 502, the run completes; SIGTERM to the main alone ends it all`, async () => {
    const strategy = await boot(name, { ...SLOW_ECHO, poolSize: 2 });
    started.push(strategy);
    const run = hammer({ port: strategy.port, requests: REQUESTS, connections: 10, expected: Buffer.from('hi\n') });
    const victim = await waitFor(() => strategy.workers().find((w) => w.id === 0 && w.inFlight > 0), { what: 'worker 0 busy' });
    process.kill(victim.pid, 'SIGKILL');
    const result = await run;

    // A streamed response whose 200 had already gone out cannot become a 502: it is cut
    // ('aborted'). Rare (the kill must land between 'hi' and the exit), but counted the same.
    assert.deepEqual(result.errors.filter((e) => e !== 'aborted'), []);
    assert.equal(result.mismatches, 0);
    const failed = (result.statuses[502] ?? 0) + result.errors.length;
    assert.ok(result.statuses[502] >= 1, `expected some 502s, got ${JSON.stringify(result.statuses)}`);
    assert.equal(result.statuses[200] + failed, REQUESTS);
    assert.match(result.bodies[502], new RegExp(`worker 0 \\(pid ${victim.pid}\\) was killed by SIGKILL`));

    const workers = await waitFor(() => {
      const w = strategy.workers();
      return w.reduce((sum, x) => sum + x.completed + x.failed, 0) === REQUESTS && w;
    }, { what: 'workers lines adding up to every request' });
    const slot = workers.find((w) => w.id === 0);
    assert.equal(slot.restarts, 1);
    assert.notEqual(slot.pid, victim.pid);
    assert.equal(slot.failed, failed);
    assert.equal(workers.find((w) => w.id === 1).failed, 0);

    // SIGTERM to the main process alone ends every process it started, the replacement too.
    process.kill(strategy.pid, 'SIGTERM');
    const { code } = await strategy.exited;
    assert.equal(code, 0);
    await waitFor(() => groupMembers(strategy.pid).length === 0, { what: `${name}'s workers to exit` });
  });
}

test('cluster: a killed worker is replaced in its slot and the server goes on; SIGTERM to the main alone ends it all', async () => {
  const strategy = await boot('cluster', { poolSize: 2 });
  started.push(strategy);
  const victim = await waitFor(() => strategy.workers().find((w) => w.id === 0), { what: 'worker 0' });
  process.kill(victim.pid, 'SIGKILL');
  await waitFor(() => strategy.workers().find((w) => w.id === 0 && w.pid !== victim.pid), { what: 'a new worker 0' });
  const result = await hammer({ port: strategy.port, requests: 40, connections: 4, expected: Buffer.from('hi\n') });
  assert.equal(result.ok, 40);
  // SIGTERM to the main process alone ends every process it started, the replacement too.
  process.kill(strategy.pid, 'SIGTERM');
  const { code } = await strategy.exited;
  assert.equal(code, 0);
  await waitFor(() => groupMembers(strategy.pid).length === 0, { what: 'cluster\'s workers to exit' });
});

// cluster, fork-pool, comm-channel and send-advanced take the same SIGTERM at the end of their killed-worker case above.
for (const name of ['worker-threads']) {
  test(`${name}: SIGTERM to the main process alone ends every process it started`, async () => {
    const strategy = await boot(name, { poolSize: 2 });
    started.push(strategy);
    process.kill(strategy.pid, 'SIGTERM');
    const { code } = await strategy.exited;
    assert.equal(code, 0);
    await waitFor(() => groupMembers(strategy.pid).length === 0, { what: `${name}'s workers to exit` });
  });
}

test('fork-pool: when stdin closes (spawnbench is gone) the strategy and its workers exit', async () => {
  const strategy = await boot('fork-pool', { poolSize: 2 });
  started.push(strategy);
  strategy.child.stdin.end();
  await strategy.exited;
  await waitFor(() => groupMembers(strategy.pid).length === 0, { what: 'the workers to exit' });
});
