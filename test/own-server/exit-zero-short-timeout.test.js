// run -- true with a --ready-timeout shorter than the wait for a daemon's port (DAEMON_LISTEN_GRACE_MS):
// it said "did not accept connections on port N ... within 2s; if it listens on a fixed port, pass --port N",
// blaming the port of a command that had exited with code 0 at once.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnCli } from '../helpers/harness.js';
import { DAEMON_LISTEN_GRACE_MS } from '../../src/base/thresholds.js';

test('run -- true --ready-timeout under the daemon grace: "exited with code 0", not the port', async () => {
  assert.ok(DAEMON_LISTEN_GRACE_MS > 2000, 'the case needs a ready timeout inside the grace');
  const { code, err } = await spawnCli(['run', '-d', '1s', '-w', '0', '--no-dashboard', '--ready-timeout', '2s', '--', 'true'], { env: { ...process.env, CI: 'true' }, timeoutMs: 60_000 });
  assert.equal(code, 1, err);
  assert.match(err, /^spawnbench: 'true' exited with code 0 before it was ready, and nothing listened on its port before --ready-timeout ran out/m);
  assert.doesNotMatch(err, /pass --port|did not accept connections/);
});
