// The exit paths of a real spawnbench process: normal end, Ctrl-C (SIGINT), SIGTERM.
// Every process the run started (strategy, its children) must be gone afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from '../helpers/harness.js';
import { startSpawnbench } from '../helpers/spawnbench-process.js';
import { isAlive as alive } from '../helpers/processes.js';

async function assertAllGone(seen) {
  assert.ok(seen.size > 0, 'the run started processes');
  await waitFor(() => [...seen].every((p) => !alive(p)), { what: () => `every process to end: still alive ${[...seen].filter(alive)}` });
}

for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  test(`${signal} stops the run, prints the summary, leaves nothing behind`, async () => {
    const run = startSpawnbench(['--strategy', 'baseline', '--duration', '60s', '--warmup', '0s', '--connections', '4', '--no-dashboard']);
    // Wait until the strategy has spawned workload commands under load: beyond the strategy
    // and its group's watchdog (a `sh` spawnbench starts with it), at least one more.
    await waitFor(() => run.seen.size >= 3, { timeoutMs: 15_000, what: 'the strategy to start workload commands' });
    // A moment more under load, so commands are in flight when the signal comes.
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill(signal);
    const { code, out, err } = await run.exited;
    assert.equal(code, exitCode, err);
    assert.match(out, /Requests\s+[\d,]+/);
    assert.match(out, /stopped early/);
    await assertAllGone(run.seen);
  });
}

test('a normal end leaves nothing behind', async () => {
  // An open loop at a low rate: the normal end is the exit path checked here; the signal tests above stop it under load.
  const run = startSpawnbench(['--strategy', 'baseline', '--duration', '1s', '--warmup', '0s', '--connections', '2', '--rate', '20', '--no-dashboard']);
  const { code, out, err } = await run.exited;
  assert.equal(code, 0, err);
  assert.match(out, /Errors\s+none/);
  await assertAllGone(run.seen);
});
