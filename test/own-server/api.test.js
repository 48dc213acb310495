// The programmatic API on a user's own server: tune({ command, sizeEnv }) and
// run({ command }) resolve to the same results as the CLI, and bad options reject before anything starts.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { tune, run, UsageError } from 'spawnbench';
import { fixture, assertNothingLeft } from './helpers.js';

test('tune({ command, sizeEnv }) sweeps the user\'s server', async () => {
  const result = await tune({ command: [process.execPath, fixture('cluster-env')], sizeEnv: 'WORKERS', sizes: '2', repeat: 1, duration: '1s', warmup: '300ms', connections: 4 });
  assert.equal(result.kind, 'tune');
  assert.equal(result.recommendation.size, 2);
  assert.equal(result.recommendation.policy, null);
  await assertNothingLeft({ pids: result.steps.map((s) => s.pid), marker: fixture('cluster-env') });
});

test('tune({ command }) without a size knob rejects with a UsageError', async () => {
  await assert.rejects(() => tune({ command: ['node', 'server.js'] }), (e) => e instanceof UsageError && /say how your server gets its size/.test(e.message));
});

test('run({ command }) measures the user\'s server once: its knob, its shape, a recommendation for it', async () => {
  // An open loop at a low rate: the knob, the shape and that advice comes are checked, not the server's figures.
  const result = await run({ command: [process.execPath, fixture('workers-flag'), '--workers', '2'], duration: '1s', warmup: '300ms', connections: 4, rate: 20 });
  assert.equal(result.kind, 'run');
  assert.deepEqual([result.sizeKnob.source, result.sizeKnob.size, result.server.workers.length], ['command', 2, 2]);
  assert.ok(result.recommendation.reasons.length > 0);
  await assertNothingLeft({ pids: [result.target.leaderPid], marker: fixture('workers-flag') });
  await assert.rejects(() => run({ command: ['node', 's.js', '--workers', '{size}'] }), (e) => e instanceof UsageError && /needs this run's size: add --pool-size N/.test(e.message));
});
