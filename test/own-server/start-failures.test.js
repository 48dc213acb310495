// A command that cannot serve, said at once and in its own words: `run -- true` exits 0
// and leaves nothing that listens, so run says it exited with code 0 (a short wait for a
// daemon's port, not the whole --ready-timeout, and no blame on the port); a server
// whose start is slow under a CPU quota of a fraction of a CPU is told the quota in the
// timeout message. The quota case runs wherever this process is root on Linux with a
// cgroup filesystem, and always in CI (CI set), where a missing cgroup fails it.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { spawnCli, fixtureServer } from '../helpers/harness.js';
import { makeQuotaCgroup } from '../helpers/cpu-cgroup.js';
import { processesMatching } from '../helpers/processes.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';

const env = { ...process.env, CI: 'true' };

test('run -- true: "exited with code 0", not a wait for the whole ready timeout and a port to blame', async () => {
  // A ready timeout longer than the CLI is given to end: only the early answer passes.
  const { code, err } = await spawnCli(['run', '-d', '1s', '--ready-timeout', '120s', '--', 'true'], { env, timeoutMs: 60_000 });
  assert.equal(code, 1, err);
  assert.match(err, /^spawnbench: 'true' exited with code 0 before it was ready, and nothing listened on its port \d+s later/m);
  assert.doesNotMatch(err, /did not accept connections|pass --port|\n\s+at /);
  assert.equal(trackedGroupCount(), 0);
});

test('a server that crashes just after its port first answered: its exit and stderr, not "something running before serves that port"', async () => {
  const server = fixtureServer('listens-then-crashes');
  const { code, err } = await spawnCli(['run', '-d', '1s', '--', process.execPath, server], { env, timeoutMs: 60_000 });
  assert.equal(code, 1, err);
  assert.match(err, /^spawnbench: '[^']+listens-then-crashes\.js' exited with code 1 just after its port \d+ answered; its stderr ends:\nError: listen EADDRINUSE/m);
  assert.doesNotMatch(err, /running before|\n\s+at /);
  assert.deepEqual(processesMatching(server), []);
});

const inCi = Boolean(process.env.CI) && !['0', 'false'].includes(process.env.CI);
const mustRun = inCi || (process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/sys/fs/cgroup'));
const quota = makeQuotaCgroup(0.01);
const why = quota.skip ?? null;
after(() => {
  if (!quota.skip) assert.ok(quota.remove(), `the test cgroup ${quota.dir} is removed`);
});

test('a server under a 0.01-CPU quota that does not listen in time: the timeout message names the quota', { skip: !mustRun && why ? why : false }, async () => {
  assert.equal(why, null, `root on Linux with a cgroup filesystem must be able to make a quota cgroup: ${why}`);
  const server = fixtureServer('never-listens');
  const { code, err } = await spawnCli(['run', '-d', '1s', '--ready-timeout', '2s', '--', ...quota.wrap([process.execPath, server])], { env });
  assert.equal(code, 1, err);
  assert.match(err, /did not accept connections on port \d+ \(given to it as PORT\) within 2s; it runs under a CPU quota of 0\.01 CPUs \(cgroup [^)]+\), which may be what made its start this slow/);
  assert.doesNotMatch(err, /\n\s+at /);
  assert.deepEqual(processesMatching(server), []);
});
