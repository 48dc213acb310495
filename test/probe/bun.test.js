import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { openProbeChannel, preloadArgs } from '../../src/probe/channel.js';
import { runLoad, stopGroup } from './helpers/servers.js';
import { runtimePath, missingRuntime } from '../helpers/runtimes.js';

const BUN = runtimePath('bun');
const BASELINE = new URL('../../strategies/baseline/index.js', import.meta.url).pathname;

test('preloadArgs: nothing for node (NODE_OPTIONS does it), --preload for bun, null for deno', () => {
  assert.deepEqual(preloadArgs('node'), []);
  assert.equal(preloadArgs('bun')[0], '--preload');
  assert.ok(existsSync(preloadArgs('bun')[1]));
  assert.equal(preloadArgs('deno'), null);
});

test('on bun the probe reports time blocked in spawn and loop delay, and no ELU', { skip: missingRuntime('bun') }, async () => {
  const channel = await openProbeChannel({ intervalMs: 100 });
  const reports = [];
  channel.on('report', (r) => reports.push(r));
  const child = spawn(BUN, [...preloadArgs('bun'), BASELINE], {
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...channel.env, SPAWNBENCH_STRATEGY_CONFIG: JSON.stringify({ command: 'echo', args: ['hi'] }) },
  });
  try {
    const port = await new Promise((resolve, reject) => {
      child.stdout.setEncoding('utf8').on('data', (chunk) => {
        const match = chunk.match(/"spawnbench":"ready","port":(\d+)/);
        if (match) resolve(Number(match[1]));
      });
      child.once('exit', () => reject(new Error('bun baseline exited before it was ready')));
    });
    const load = await runLoad({ port, connections: 4, durationMs: 800 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    assert.equal(load.errors, 0);
    const fromBun = reports.filter((r) => r.pid === child.pid);
    assert.ok(fromBun.length >= 3, `${fromBun.length} reports`);
    assert.ok(fromBun.every((r) => r.elu === null), 'no ELU on bun');
    assert.ok(fromBun.some((r) => r.loopDelay?.count > 0), 'loop delay measured');
    const spawns = fromBun.reduce((sum, r) => sum + r.spawn.count, 0);
    assert.ok(spawns >= load.requests * 0.8, `${spawns} spawns for ${load.requests} requests`);
  } finally {
    await stopGroup(child);
    await channel.close();
  }
});
