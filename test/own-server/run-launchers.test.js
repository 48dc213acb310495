// run -- <command> behind launchers (the probe finds the server behind them:
// launchers.test.js): `npm run <script>` starting a node:cluster server sized by
// WORKERS, and `sh -c '… --workers N'`. The server is the process that listens
// below npm → sh, its workers are the cluster's, the knob is found in the
// environment or inside the shell's line, the confirm tunes the same launcher
// command, and nothing is left.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { spawnCli } from '../helpers/harness.js';
import { assertNothingLeft } from './helpers.js';

const DIR = fileURLToPath(new URL('../../fixtures/launchers/', import.meta.url));
/**
 * Who serves below the launchers and the knob's confirm command are checked, not how much the server serves (the
 * confirm is built from the knob on a run of any length): an open loop at a low rate, for 1 s.
 */
const QUICK = ['-d', '1s', '-w', '500ms', '-c', '6', '-r', '20', '--json'];

async function runIn(args, env = {}) {
  const { code, out, err } = await spawnCli(args, { cwd: DIR, env: { ...process.env, CI: 'true', ...env }, timeoutMs: 120_000 });
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

test('run -- npm run start:cluster: the cluster under npm → sh, size 2 from WORKERS, the confirm tunes npm run', async () => {
  const result = await runIn(['run', ...QUICK, '--', 'npm', 'run', 'start:cluster'], { WORKERS: '2' });
  const { target, server, sizeKnob } = result;
  await assertNothingLeft({ pids: [target.leaderPid], marker: 'cluster-env.js', seen: new Set([target.pid, ...server.workers]) });
  assert.deepEqual(server.launchers.map((l) => l.name), ['npm', 'sh']);
  assert.deepEqual([server.pid, server.kind, server.workers.length], [target.pid, 'cluster', 2]);
  assert.deepEqual([sizeKnob.source, sizeKnob.written], ['environment', 'WORKERS=2']);
  const main = result.samples.processes.filter((p) => p.role === 'main');
  assert.deepEqual(main.map((p) => p.pid), [target.pid], 'the primary is the main process, not npm');
  const argv = result.recommendation.confirmWith.argv;
  assert.equal(argv[argv.indexOf('--size-env') + 1], 'WORKERS');
  assert.deepEqual(argv.slice(-4), ['--', 'npm', 'run', 'start:cluster']);
});

test("run -- sh -c 'node … --workers 2': the knob inside the shell's line, {size} put in its place", async () => {
  const result = await runIn(['run', ...QUICK, '--', 'sh', '-c', 'node ../servers/workers-flag.js --workers 2']);
  const { target, server, sizeKnob } = result;
  await assertNothingLeft({ pids: [target.leaderPid], marker: 'workers-flag.js' });
  assert.deepEqual(server.launchers.map((l) => l.name), ['sh']);
  assert.deepEqual([server.kind, server.workers.length], ['processes', 2]);
  assert.deepEqual([sizeKnob.source, sizeKnob.written], ['command', '--workers 2']);
  assert.deepEqual(result.recommendation.confirmWith.argv.slice(-3), ['sh', '-c', 'node ../servers/workers-flag.js --workers {size}']);
});
