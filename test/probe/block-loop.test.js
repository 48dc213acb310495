import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { openProbeChannel } from '../../src/probe/channel.js';
import { startSampler } from '../../src/sample/index.js';
import { startServer } from './helpers/servers.js';

/** Three blocks of 100 ms (one every 500 ms) fall inside this window. */
const OBSERVE_MS = 1600;

const channel = await openProbeChannel({ intervalMs: 250 });
const server = await startServer('fixtures/servers/block-loop.js', { env: channel.env });
after(async () => {
  await server.stop();
  await channel.close();
});

test('a server that blocks its loop 100 ms every 500 ms: loop delay max ≥ 90 ms and p99 ≥ 50 ms', async (t) => {
  const sampler = startSampler({ rootPid: server.child.pid, channel });
  const samples = [];
  sampler.on('sample', (s) => samples.push(s));
  await new Promise((resolve) => setTimeout(resolve, OBSERVE_MS));
  const summary = await sampler.stop();

  assert.equal(summary.probe.available, true);
  const main = summary.processes.find((p) => p.role === 'main');
  assert.ok(main, 'the main process is listed');
  t.diagnostic(`loop delay p50 ${main.summary.loopDelayP50Ms} p99 ${main.summary.loopDelayP99Ms} max ${main.summary.loopDelayMaxMs} ms`);
  assert.ok(main.summary.loopDelayMaxMs >= 90, `max ${main.summary.loopDelayMaxMs} ms`);
  assert.ok(main.summary.loopDelayP99Ms >= 50, `p99 ${main.summary.loopDelayP99Ms} ms`);
  assert.ok(main.summary.loopDelayP50Ms < 50, `p50 ${main.summary.loopDelayP50Ms} ms: most turns are not blocked`);
  const perInterval = samples.flatMap((s) => s.processes).map((p) => p.probe?.loopDelay?.maxMs ?? 0);
  assert.ok(Math.max(...perInterval) >= 90, 'the live samples show the block too');
});
