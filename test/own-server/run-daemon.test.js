// A launcher that daemonises (pm2 start, a double fork: fixtures/servers/daemonise.js
// starts the server in a session of its own and exits 0 at once): run -- <command>
// follows it to the server by the port, measures the server's processes, says the
// command daemonised, and ends the server and everything it started at the end,
// under a cgroup and with the process group alone (where escapees are found by
// the port and the tree). A process that served the port before the command
// started is never taken for it, nor ended.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnCli, fixtureServer, startFixtureServer, waitFor } from '../helpers/harness.js';
import { isAlive, processesMatching } from '../helpers/processes.js';
import { findDaemon, ticksNow } from '../../src/runner/daemon.js';
import { readStat } from '../../src/sample/proc.js';
import { assertNothingLeft } from './helpers.js';
import { fileURLToPath } from 'node:url';

/**
 * What is checked is whom run follows, measures and ends, not how much the server can serve: an open loop at a
 * low rate, for 1 s (4 samples at the 250 ms interval; no advice is read).
 */
const QUICK = ['-d', '1s', '-w', '500ms', '-c', '6', '-r', '20'];
const daemonise = fixtureServer('daemonise');
const server = fixtureServer('workers-flag');

for (const containment of ['cgroup', 'process-group']) {
  test(`a command that daemonises (${containment}): the server it left is measured, named, and ended`, async () => {
    const env = { ...process.env, CI: 'true', ...(containment === 'process-group' ? { SPAWNBENCH_CONTAINMENT: 'process-group' } : {}) };
    const { code, out, err } = await spawnCli(['run', ...QUICK, '--json', '--', process.execPath, daemonise, server, '--workers', '2'], { env });
    assert.equal(code, 0, err);
    const result = JSON.parse(out);
    const { target } = result;
    assert.equal(target.daemonised, true);
    assert.notEqual(target.pid, target.leaderPid, 'the server is not the command spawnbench started');
    assert.deepEqual([result.server.pid, result.server.kind, result.server.workers.length], [target.pid, 'processes', 2]);
    assert.deepEqual([result.sizeKnob.source, result.sizeKnob.size], ['command', 2]);
    assert.ok(result.load.requests > 0 && result.load.errors.total === 0, 'the daemon served the load');
    const main = result.samples.processes.find((p) => p.role === 'main');
    assert.equal(main.pid, target.pid, 'the daemon is the main process sampled');
    assert.equal(target.containment.daemon.pid, target.pid);
    await assertNothingLeft({ pids: [target.leaderPid, target.pid], marker: server, seen: new Set([target.pid, ...result.server.workers]) });
  });
}

for (const linger of ['0', '1500']) {
  test(`run follows a server that puts itself in the background (its parent exits 0 ${linger === '0' ? 'at once' : 'after 1.5 s'}), and ends it`, async () => {
    const file = fixtureServer('daemonises');
    const env = { ...process.env, CI: 'true', DAEMON_PARENT_LINGER_MS: linger };
    // The parent that lingers exits 1.5 s into a 3 s measurement; the one that does not exits as its server listens.
    const { code, out, err } = await spawnCli(['run', '-d', linger === '0' ? '1s' : '3s', '-w', '0s', '-c', '1', '-r', '20', '--', process.execPath, file], { env });
    assert.equal(code, 0, err);
    assert.match(out, /^the command daemonised: its server runs in the background, outside its process group; measured pid \d+ \(one process\), which serves the port, and ended it at the end$/m);
    assert.doesNotMatch(`${out}${err}`, /FAILED|exited with code 0/);
    await waitFor(() => processesMatching(file).length === 0, { timeoutMs: 5000, what: `the daemon of ${file} to be gone` });
  });
}

test('the daemon is found by the port among processes started after the command, never one from before', async () => {
  const before = await startFixtureServer('spawn-per-request');
  try {
    const start = readStat(before.child.pid).starttime;
    const found = findDaemon(before.port, start);
    assert.deepEqual([found?.pid, found?.start], [before.child.pid, start], 'started at or after: it is the one');
    await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(findDaemon(before.port, ticksNow()), null, 'running before the command: not taken');
    assert.ok(isAlive(before.child.pid));
  } finally {
    await before.stop();
  }
});

test('a classic double fork (fork, setsid, fork, exec node): the server it left is the process sampled, with its workers', async () => {
  const doubleFork = fileURLToPath(new URL('../../fixtures/servers/double-fork.sh', import.meta.url));
  const env = { ...process.env, CI: 'true' };
  const { code, out, err } = await spawnCli(['run', ...QUICK, '--json', '--', doubleFork, server, '--workers', '2'], { env });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  const { target } = result;
  assert.equal(target.daemonised, true);
  // Its process group's leader (the first child, which called setsid) is gone: the server is sampled from its own pid.
  const sampled = result.samples.processes.filter((p) => p.threadId === null).map((p) => [p.pid, p.role]);
  assert.deepEqual(sampled, [[target.pid, 'main'], ...result.server.workers.map((pid) => [pid, 'worker'])]);
  assert.equal(result.server.workers.length, 2);
  const main = result.samples.processes.find((p) => p.role === 'main');
  assert.ok(main.summary.cpuPct > 0, 'the server itself was measured');
  await assertNothingLeft({ pids: [target.leaderPid], marker: server, seen: new Set([target.pid, ...result.server.workers]) });
});
