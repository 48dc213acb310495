// Ctrl-C (SIGINT) and SIGTERM of a real spawnbench process while it tunes or
// compares a user's own server: the result so far is printed, the exit code is the
// signal's, and no process of the user's command is left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startUnderLoad, fixture, assertNothingLeft } from './helpers.js';

/** Long steps, so the signal lands while the server is under load. */
const LONG = ['--duration', '30s', '--warmup', '0', '--connections', '4', '--repeat', '1'];

for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  test(`${signal} during tune on a command: the partial step, exit ${exitCode}, nothing left`, async () => {
    const run = await startUnderLoad(['tune', '--sizes', '2,3', '--size-env', 'WORKERS', '--json', ...LONG, '--', process.execPath, fixture('cluster-env')]);
    run.child.kill(signal);
    const { code, out, err } = await run.exited;
    assert.equal(code, exitCode, err);
    const result = JSON.parse(out);
    assert.equal(result.stoppedEarly, true);
    assert.deepEqual(result.steps.map((s) => [s.size, s.partial]), [[2, true]]);
    await assertNothingLeft({ pids: result.steps.map((s) => s.pid), marker: fixture('cluster-env'), seen: run.seen });
  });
}

test('SIGTERM during compare --command: exit 143, nothing left', async () => {
  const run = await startUnderLoad(['compare', '--command', `flag=${process.execPath} ${fixture('workers-flag')} --workers 2`, '--json', ...LONG]);
  run.child.kill('SIGTERM');
  const { code, out, err } = await run.exited;
  assert.equal(code, 143, err);
  const result = JSON.parse(out);
  assert.equal(result.stoppedEarly, true);
  await assertNothingLeft({ pids: result.runs.map((r) => r.pid), marker: fixture('workers-flag'), seen: run.seen });
});
