import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openProbeChannel } from '../../src/probe/channel.js';
import { startSampler } from '../../src/sample/index.js';
import { formatProcesses } from '../../src/report/processes-text.js';
import { startServer, runLoad } from '../probe/helpers/servers.js';

const LOAD_MS = 1300;
const SETTLE_MS = 300;
const POOL = { poolSize: 3, balance: 'round-robin' };

/**
 * Boots a pool strategy with the probe, loads it, and returns the sampler summary
 * and the strategy's last workers list. Everything started is stopped and proven gone.
 */
async function measurePool(name) {
  const channel = await openProbeChannel({ intervalMs: 250 });
  const server = await startServer(`strategies/${name}/index.js`, { env: channel.env, config: POOL });
  try {
    const load = runLoad({ port: server.port, connections: 6, durationMs: LOAD_MS });
    await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
    const sampler = startSampler({ rootPid: server.child.pid, channel, getWorkers: server.workers });
    await load;
    const summary = await sampler.stop();
    return { summary, workers: server.workers(), load: await load };
  } finally {
    await server.stop();
    await channel.close();
  }
}

/** Whether the workers spawn with posix_spawn here (node:ffi or koffi loads; posix-spawn.test.js says where it must). */
const POSIX_SPAWN = (await import('../../strategies/lib/spawn-command.js')).SPAWN_API === 'posix_spawn';

test('fork-pool --pool-size 3: three worker processes, each with requests, ELU and CPU', async (t) => {
  const { summary, workers, load } = await measurePool('fork-pool');
  for (const line of formatProcesses(summary, workers).split('\n')) t.diagnostic(line);
  assert.equal(load.errors, 0);
  const pool = summary.processes.filter((p) => p.role === 'worker');
  assert.equal(pool.length, 3, `workers: ${pool.map((p) => p.label).join(', ')}`);
  for (const worker of pool) {
    assert.match(worker.label, /^worker \d+$/);
    assert.ok(worker.requests > 0, `${worker.label} requests ${worker.requests}`);
    assert.ok(worker.summary.elu > 0 && worker.summary.elu <= 1, `${worker.label} ELU ${worker.summary.elu}`);
    assert.ok(worker.summary.cpuPct > 0, `${worker.label} CPU ${worker.summary.cpuPct}`);
    assert.ok(worker.summary.spawnsPerSec > 0, 'the worker does the spawning');
    // Where node:ffi or koffi loads, the workers spawn with posix_spawn (strategies/lib/posix-spawn.js), and say so.
    if (POSIX_SPAWN) {
      assert.equal(worker.summary.spawnTiming, 'posix_spawn');
      assert.equal(worker.summary.runtime?.spawnMechanism, 'posix_spawn');
    } else {
      assert.notEqual(worker.summary.spawnTiming, 'posix_spawn');
    }
    assert.ok(worker.summary.loopCpuPct > 0 && worker.summary.waitPct >= 0, `${worker.label} schedstat ${worker.summary.loopCpuPct} ${worker.summary.waitPct}`);
    assert.ok(worker.summary.inFlight >= 0, `${worker.label} in flight ${worker.summary.inFlight}`);
  }
  assert.match(formatProcesses(summary, workers), /^worker\s+requests\s+ELU\s+CPU$/m);
});

test('worker-threads --pool-size 3: three thread entries with ELU', async (t) => {
  const { summary, workers, load } = await measurePool('worker-threads');
  for (const line of formatProcesses(summary, workers).split('\n')) t.diagnostic(line);
  assert.equal(load.errors, 0);
  const threads = summary.processes.filter((p) => p.role === 'thread');
  assert.equal(threads.length, 3, `threads: ${threads.map((p) => p.label).join(', ')}`);
  for (const thread of threads) {
    assert.ok(thread.summary.elu > 0 && thread.summary.elu <= 1, `${thread.label} ELU ${thread.summary.elu}`);
    assert.equal(thread.pid, summary.processes.find((p) => p.role === 'main').pid);
    // Its own thread's run-queue figures, not the process's main thread's.
    assert.ok(thread.summary.loopCpuPct > 0 && thread.summary.waitPct >= 0, `${thread.label} schedstat ${thread.summary.loopCpuPct} ${thread.summary.waitPct}`);
  }
});
