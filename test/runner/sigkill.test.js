// kill -9 of spawnbench: none of its exit handlers run, yet no process it started may keep
// running (a user's server still listening was the failure) and the temp directories it
// made go at the next start of spawnbench.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { startSpawnbench, waitForLog, processTree, stillAlive, tempDirsOf, BIN } from '../helpers/spawnbench-process.js';
import { processesMatching } from '../helpers/processes.js';
import { waitFor } from '../helpers/harness.js';

const HEALTHY = fileURLToPath(new URL('../../fixtures/servers/healthy.js', import.meta.url));
const IGNORES_TERM = fileURLToPath(new URL('../../fixtures/servers/ignores-sigterm.js', import.meta.url));
/** The stop grace (3 s) plus room for a loaded machine. */
const GONE_WITHIN_MS = 6_000;

const accepts = (port) => new Promise((resolve) => {
  const socket = net.connect({ host: '127.0.0.1', port }, () => { socket.destroy(); resolve(true); });
  socket.on('error', () => resolve(false));
});

const CASES = [
  { name: 'run (comm-channel, with the probe)', args: ['run', '-s', 'comm-channel', '--pool-size', '2', '-d', '60s', '-w', '0s', '-c', '2', '--no-dashboard'], ready: 'strategy ready' },
  { name: 'tune', args: ['tune', '-s', 'fork-pool', '-d', '60s', '-w', '0s', '-c', '2', '--no-dashboard'], ready: 'strategy ready' },
  { name: 'diagnose (a server without a SIGTERM handler)', args: ['diagnose', '-d', '60s', '-w', '0s', '-c', '2', '--no-dashboard', '--', process.execPath, HEALTHY], ready: 'server ready', port: true },
  { name: 'diagnose (a server that ignores SIGTERM)', args: ['diagnose', '-d', '60s', '-w', '0s', '-c', '2', '--no-dashboard', '--', process.execPath, IGNORES_TERM], ready: 'server ready', port: true },
  // Gone from the tree and the group at once, stdio closed: only the cgroup (killed by the watchdog) holds it.
  { name: 'diagnose (a server with a double-forked setsid escapee)', args: ['diagnose', '-d', '60s', '-w', '0s', '-c', '2', '--no-dashboard', '--', 'sh', '-c', '(setsid sleep 1008 </dev/null >/dev/null 2>&1 &); exec "$0" "$1"', process.execPath, HEALTHY], ready: 'server ready', port: true, marker: 'sleep 1008' },
];

for (const c of CASES) {
  test(`kill -9 of spawnbench during ${c.name}: no process left, no temp dir left after the next start`, async (t) => {
    const sb = startSpawnbench(c.args);
    t.after(sb.removeLog);
    await waitForLog(sb, c.ready);
    const port = c.port ? JSON.parse(sb.log().split('\n').find((l) => l.includes('"msg":"server ready"'))).port : null;
    const tree = processTree(sb.child.pid);
    assert.ok(tree.length > 0, 'spawnbench started processes');
    assert.ok(tempDirsOf(sb.child.pid).length > 0, 'it made a temp dir');
    sb.child.kill('SIGKILL');
    await sb.exited;
    const gone = await waitFor(() => stillAlive(tree).length === 0, { timeoutMs: GONE_WITHIN_MS });
    assert.ok(gone, `still running ${GONE_WITHIN_MS} ms after the kill: ${JSON.stringify(stillAlive(tree))}`);
    if (port) assert.equal(await accepts(port), false, `port ${port} still accepts`);
    if (c.marker) {
      const left = await waitFor(() => processesMatching(c.marker).length === 0, { timeoutMs: GONE_WITHIN_MS });
      for (const pid of processesMatching(c.marker)) process.kill(pid, 'SIGKILL');
      assert.ok(left, `the escapee (${c.marker}) still runs`);
    }
    // The next start of spawnbench (any command) removes what the killed one left.
    assert.equal(spawnSync(process.execPath, [BIN, '--version']).status, 0);
    assert.deepEqual(tempDirsOf(sb.child.pid), []);
  });
}
