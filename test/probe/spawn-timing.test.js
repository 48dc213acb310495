// The two ways the probe times spawn: Node's `tracing:child_process.spawn` channel
// (Node 26) and the patched ChildProcess.prototype.spawn (every Node). Both run on
// the same spawns at once, in a Node 26 process (this one when it is 26 or newer,
// else node26 from the runtime cache, test/helpers/runtimes.js), and must agree on the time blocked.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { spawnChannelPublished } from '../helpers/spawn-channel.js';
import { runtimePath, missingRuntime } from '../helpers/runtimes.js';

const TIMER = new URL('../../src/probe/spawn-timer.js', import.meta.url).href;
const hasChannel = await spawnChannelPublished();
const MAJOR = Number(process.versions.node.split('.')[0]);
// A Node with the channel: this one, else node26 from the cache (skipped when not fetched).
const NODE26 = MAJOR >= 26 ? process.execPath : runtimePath('node26');
const needs26 = { skip: MAJOR < 26 && missingRuntime('node26') };

/** Runs `script` (an ES module) on `node`, returns what it printed as JSON. */
async function runOn(node, script) {
  const { stdout } = await promisify(execFile)(node, ['--input-type=module', '-e', script], { timeout: 60_000 });
  return JSON.parse(stdout);
}

test('on Node 26 the channel and the patch time the same spawns alike (blocked ms within 2×, same count)', needs26, async () => {
  const script = `
    import { spawn } from 'node:child_process';
    import { once } from 'node:events';
    import { installSpawnTimer } from ${JSON.stringify(TIMER)};
    const patch = installSpawnTimer({ timing: 'patch' });
    const channel = installSpawnTimer({ timing: 'diagnostics-channel' });
    // Warm up (first spawns load code), then measure 150 spawns of 'true', 10 at a time.
    for (let i = 0; i < 5; i += 1) await once(spawn('true', { stdio: 'ignore' }), 'exit');
    patch.take();
    channel.take();
    for (let round = 0; round < 15; round += 1) {
      const children = Array.from({ length: 10 }, () => spawn('true', { stdio: 'ignore' }));
      await Promise.all(children.map((child) => once(child, 'exit')));
    }
    const result = { patch: patch.take(), channel: channel.take(), node: process.versions.node };
    channel.uninstall();
    patch.uninstall();
    console.log(JSON.stringify(result));
  `;
  const { patch, channel, node } = await runOn(NODE26, script);
  assert.ok(Number(node.split('.')[0]) >= 26, `ran on Node ${node}`);
  assert.equal(patch.timing, 'patch');
  assert.equal(channel.timing, 'diagnostics-channel');
  assert.equal(patch.count, 150);
  assert.equal(channel.count, 150, 'the channel saw every spawn the patch saw');
  assert.ok(channel.blockedMs > 0);
  // The channel brackets the native call inside the patched method, so it can only
  // be shorter, by the JavaScript around it (options, stdio): a fork costs far more.
  const ratio = channel.blockedMs / patch.blockedMs;
  assert.ok(ratio > 0.5 && ratio <= 1.001, `channel ${channel.blockedMs.toFixed(1)} ms vs patch ${patch.blockedMs.toFixed(1)} ms (ratio ${ratio.toFixed(2)})`);
});

test('auto picks the channel where Node publishes it and the patch elsewhere, and leaves a failed spawn counted', needs26, async () => {
  const script = `
    import childProcess, { spawn } from 'node:child_process';
    import { once } from 'node:events';
    import { installSpawnTimer } from ${JSON.stringify(TIMER)};
    const original = childProcess.ChildProcess.prototype.spawn;
    const timer = installSpawnTimer();
    const before = timer.take();
    await once(spawn('true', { stdio: 'ignore' }), 'exit');
    const patched = childProcess.ChildProcess.prototype.spawn !== original;
    await once(spawn('no-such-command-spawnbench', { stdio: 'ignore' }), 'error');
    const after = timer.take();
    timer.uninstall();
    console.log(JSON.stringify({ before, after, patched, restored: childProcess.ChildProcess.prototype.spawn === original }));
  `;
  const nodes = [process.execPath, ...(hasChannel ? [] : [NODE26])];
  for (const node of nodes) {
    const { before, after, patched, restored } = await runOn(node, script);
    const channel = node === NODE26 || hasChannel;
    assert.deepEqual(before, { count: 0, blockedMs: 0, timing: null, failures: null }, 'undecided before any spawn');
    assert.equal(after.timing, channel ? 'diagnostics-channel' : 'patch', node);
    assert.equal(after.count, 2, 'the spawn and the ENOENT one');
    assert.deepEqual(after.failures, [{ command: 'no-such-command-spawnbench', code: 'ENOENT', count: 1 }], `${node}: the failed one, by its errno (patch: spawn's return value; channel: its :error)`);
    assert.ok(after.blockedMs > 0);
    assert.equal(patched, !channel, 'the prototype stays patched only without the channel');
    assert.ok(restored);
  }
});
