import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { openProbeChannel } from '../../src/probe/channel.js';
import { startSampler } from '../../src/sample/index.js';
import { startServer, runLoad } from '../probe/helpers/servers.js';
import { formatProcesses } from '../../src/report/processes-text.js';

/** The sampler watches the middle of the load only, so both count the same steady state. */
const LOAD_MS = 3000;
const SETTLE_MS = 400;
const SAMPLE_MS = 2000;

const channel = await openProbeChannel({ intervalMs: 250 });
const server = await startServer('strategies/baseline/index.js', { env: channel.env });
after(async () => {
  await server.stop();
  await channel.close();
});

test('baseline under load: blocked in spawn > 0 and spawns/s ≈ requests/s (±30%)', async (t) => {
  // Two connections keep a request always waiting on the spawning main thread (blocked 50-60%); 8 filled both cores for the same ratio.
  const load = runLoad({ port: server.port, connections: 2, durationMs: LOAD_MS });
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
  const sampler = startSampler({ rootPid: server.child.pid, channel });
  const startedAt = performance.now();
  const requestsAtStart = load.progress();
  await new Promise((resolve) => setTimeout(resolve, SAMPLE_MS));
  const summary = await sampler.stop();
  const rps = (load.progress() - requestsAtStart) / ((performance.now() - startedAt) / 1000);
  const result = await load;
  assert.equal(result.errors, 0);
  assert.deepEqual([...result.bodies], ['hi\n']);

  const main = summary.processes.find((p) => p.role === 'main');
  assert.ok(main.summary.blockedFraction > 0, `blocked ${main.summary.blockedFraction}`);
  assert.ok(main.summary.msPerSpawn > 0);
  const ratio = main.summary.spawnsPerSec / rps;
  t.diagnostic(`spawns/s ${main.summary.spawnsPerSec.toFixed(0)}, rps ${rps.toFixed(0)}, blocked ${(main.summary.blockedFraction * 100).toFixed(0)}%, ${main.summary.msPerSpawn.toFixed(2)} ms/spawn`);
  // ±30%: the probe's 250 ms reports and this window do not start and end together, and a loaded fresh-clone CI run read
  // 122 spawns/s beside 100 req/s (within 4% on a quiet machine); one spawn a request, not two, is what is checked.
  assert.ok(ratio > 0.7 && ratio < 1.3, `spawns/s ${main.summary.spawnsPerSec.toFixed(0)} vs rps ${rps.toFixed(0)}`);
  assert.ok(summary.spawned.cpuPct > 0, 'the spawned commands\' CPU shows through cutime');
  assert.match(formatProcesses(summary), /^main\s+ELU \d\.\d\d {2}blocked in spawn \d+% \(\d+(\.\d)? ms each\) {2}loop p99 [\d.]+ ms {2}CPU \d+%$/m);
});
