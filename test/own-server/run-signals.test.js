// Every exit path of `run -- <command>` leaves nothing of the user's server:
// Ctrl-C (SIGINT) and SIGTERM of a real spawnbench while it loads a node:cluster
// server (the result so far printed, the signal's exit code), and the server
// crashing mid-run (a worker killed; the primary exits, as cluster-env.js does:
// exit 1 naming the crash). The normal end is covered in run.test.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { processesMatching } from '../helpers/processes.js';
import { readStat } from '../../src/sample/proc.js';
import { startUnderLoad, fixture, assertNothingLeft } from './helpers.js';

/** A long run, so the signal lands while the server is under load. */
const LONG = ['--duration', '30s', '--warmup', '0', '--connections', '4', '--json'];
const server = () => [process.execPath, fixture('cluster-env')];

for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  test(`${signal} during run -- <command>: the figures so far, exit ${exitCode}, nothing left`, async () => {
    const run = await startUnderLoad(['run', ...LONG, '--', ...server()], { env: { WORKERS: '2' } });
    run.child.kill(signal);
    const { code, out, err } = await run.exited;
    assert.equal(code, exitCode, err);
    const result = JSON.parse(out);
    assert.equal(result.stoppedEarly, true);
    assert.equal(result.sizeKnob.size, 2);
    await assertNothingLeft({ pids: [result.target.pid], marker: fixture('cluster-env'), seen: run.seen });
    run.removeLog();
  });
}

test('the server crashing mid-run: the run ends, says so, exits 1, nothing left', async () => {
  const run = await startUnderLoad(['run', ...LONG, '--', ...server()], { env: { WORKERS: '2' } });
  // spawnbench's own command line names the fixture too: the primary is its child, a worker the primary's.
  const mine = processesMatching(fixture('cluster-env')).filter((pid) => pid !== run.child.pid);
  const worker = mine.find((pid) => mine.includes(readStat(pid)?.ppid));
  assert.ok(worker, `a cluster worker among ${mine}`);
  process.kill(worker, 'SIGKILL');
  const { code, out, err } = await run.exited;
  assert.equal(code, 1, err);
  const result = JSON.parse(out);
  assert.match(result.failures.join('\n'), /exited with code 1 during the run; its stderr ends:[\s\S]*cluster-env: worker \d+ exited \(SIGKILL\)/);
  assert.equal(result.stoppedEarly, false);
  await assertNothingLeft({ pids: [result.target.pid], marker: fixture('cluster-env'), seen: run.seen });
  run.removeLog();
});
