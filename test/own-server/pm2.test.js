// PM2's foreground launcher, `pm2-runtime start app.js -i N`: it stays in the
// foreground as the cluster's primary, so the knob is its -i N and the workers
// are the cluster's; and `pm2 start`, which daemonises: the daemon it started
// serves the port, is followed, measured and ended. Needs pm2 (not a dependency: `npm install -g pm2`); skips,
// saying so, where pm2-runtime is not on PATH. The -i N knob itself is a pure
// unit test in knob.test.js and runs everywhere.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, findOnPath, ROOT } from '../helpers/harness.js';
import { assertNothingLeft } from './helpers.js';

const PM2_RUNTIME = findOnPath('pm2-runtime');
// Its own PM2_HOME: never the user's daemon, logs or dump file.
const home = mkdtempSync(join(tmpdir(), 'spawnbench-pm2-home-'));
after(() => rmSync(home, { recursive: true, force: true }));

test('pm2-runtime start app.js -i 2: size 2 from -i 2, two cluster workers under it, nothing left', { skip: PM2_RUNTIME ? false : 'pm2-runtime is not installed (npm install -g pm2)' }, async () => {
  const app = join(ROOT, 'fixtures/servers/plain-spawn.cjs');
  const { code, out, err } = await spawnCli(['-d', '2s', '-w', '500ms', '-c', '6', '--json', '--', PM2_RUNTIME, 'start', app, '-i', '2'], {
    env: { ...process.env, CI: 'true', PM2_HOME: home },
  });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.deepEqual([result.sizeKnob.source, result.sizeKnob.written, result.sizeKnob.size], ['command', '-i 2', 2]);
  assert.deepEqual([result.server.kind, result.server.workers.length], ['cluster', 2]);
  assert.deepEqual(result.recommendation.confirmWith.argv.slice(-5), [PM2_RUNTIME, 'start', app, '-i', '{size}'], 'tune sweeps its -i');
  await assertNothingLeft({ pids: [result.target.pid], marker: app });
});

test('pm2 start app.js -i 2 (it daemonises): PM2\'s daemon it started is followed, measured with its workers, and ended', { skip: PM2_RUNTIME ? false : 'pm2 is not installed (npm install -g pm2)' }, async () => {
  const app = join(ROOT, 'fixtures/servers/plain-spawn.cjs');
  const fresh = mkdtempSync(join(tmpdir(), 'spawnbench-pm2-start-home-'));
  try {
    const pm2 = join(PM2_RUNTIME, '..', 'pm2');
    const { code, out, err } = await spawnCli(['-d', '2s', '-w', '500ms', '-c', '6', '--json', '--', pm2, 'start', app, '-i', '2'], {
      env: { ...process.env, CI: 'true', PM2_HOME: fresh },
    });
    assert.equal(code, 0, err);
    const result = JSON.parse(out);
    assert.equal(result.target.daemonised, true);
    assert.deepEqual([result.server.kind, result.server.workers.length, result.sizeKnob.written], ['cluster', 2, '-i 2']);
    await assertNothingLeft({ pids: [result.target.leaderPid], marker: app, seen: new Set([result.target.pid, ...result.server.workers]) });
  } finally {
    rmSync(fresh, { recursive: true, force: true });
  }
});
