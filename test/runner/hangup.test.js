// Closing the terminal spawnbench runs in (SIGHUP, then EIO on every write to it) used to
// end it with SIGSEGV or SIGABRT: Node's own exit resets the dead terminal and asserts.
// Now the processes it started are stopped and it ends as a program ended by SIGHUP
// (a shell shows 129), dashboard or not; without a terminal, `kill -HUP` gives exit 129.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BIN, startSpawnbench, waitForLog, processTree, stillAlive } from '../helpers/spawnbench-process.js';
import { waitFor } from '../helpers/harness.js';
import { processesWithEnvironment as withEnvironment } from '../helpers/processes.js';

const PTY = fileURLToPath(new URL('../../fixtures/pty-hangup.py', import.meta.url));
const SIGHUP = 1;

for (const flags of [[], ['--no-dashboard']]) {
  test(`the terminal closes during a run${flags.length ? ` (${flags.join(' ')})` : ' (dashboard)'}: ended by SIGHUP, nothing left`, async () => {
    const marker = `hangup-${process.pid}-${flags.length}`;
    const env = { ...process.env, TERM: 'xterm' };
    delete env.CI;
    // --workload-cmd names the run's processes, so what is left of it can be found.
    // The terminal closes once the first progress line of the measured phase is printed (under load), 15 s at the latest.
    const result = spawnSync('python3', [PTY, '--until', 'measure ', '--after', '15', process.execPath, BIN, 'run', '-s', 'fork-pool', '-d', '60s', '-w', '0s', '-c', '2', '--workload-cmd', `echo ${marker}`, ...flags], { encoding: 'utf8', env, timeout: 30_000 });
    assert.equal(result.status, 0, result.stderr);
    const ended = JSON.parse(result.stdout);
    assert.deepEqual({ code: ended.code, signal: ended.signal }, { code: null, signal: SIGHUP }, JSON.stringify(ended));
    assert.ok(ended.afterMs < 5000, `took ${ended.afterMs} ms`);
    assert.ok(await waitFor(() => withEnvironment(marker).length === 0, { timeoutMs: 5000 }), `left: ${withEnvironment(marker)}`);
  });
}

test('kill -HUP without a terminal: the run stops, the summary prints, exit 129', async (t) => {
  const sb = startSpawnbench(['run', '-s', 'baseline', '-d', '60s', '-w', '0s', '-c', '2', '--no-dashboard']);
  t.after(sb.removeLog);
  await waitForLog(sb, 'load start');
  const tree = processTree(sb.child.pid);
  sb.child.kill('SIGHUP');
  const { code, signal } = await sb.exited;
  assert.deepEqual({ code, signal }, { code: 129, signal: null }, sb.err());
  assert.match(sb.out(), /Requests\s+[\d,]+ in/);
  assert.ok(await waitFor(() => stillAlive(tree).length === 0, { timeoutMs: 5000 }));
});
