import { test } from 'node:test';
import assert from 'node:assert/strict';
import childProcess, { execSync, spawnSync, exec, execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { once } from 'node:events';
import { installSpawnTimer, OWN_SPAWN_CHANNELS } from '../../src/probe/spawn-timer.js';

import { spawnChannelPublished } from '../helpers/spawn-channel.js';

const major = Number(process.versions.node.split('.')[0]);
const expectedTiming = (await spawnChannelPublished()) ? 'diagnostics-channel' : 'patch';

test('Node 26 publishes the spawn channel and Node 20 does not (what the timer relies on)', () => {
  if (major >= 26) assert.equal(expectedTiming, 'diagnostics-channel');
  if (major === 20) assert.equal(expectedTiming, 'patch');
});

test('spawn timer counts every child_process entry point once and leaves behaviour unchanged', async (t) => {
  const originals = {
    spawnSync: childProcess.spawnSync,
    execSync: childProcess.execSync,
    execFileSync: childProcess.execFileSync,
    protoSpawn: childProcess.ChildProcess.prototype.spawn,
  };
  const timer = installSpawnTimer();
  t.after(() => timer.uninstall());

  // ESM named imports see the wrapper (syncBuiltinESMExports).
  const { execSync: liveExecSync } = await import('node:child_process');
  assert.equal(liveExecSync, childProcess.execSync);
  assert.notEqual(childProcess.execSync, originals.execSync);
  assert.equal(childProcess.execSync.name, 'execSync');
  assert.equal(childProcess.execSync.length, originals.execSync.length);

  assert.equal(execSync('echo hi', { encoding: 'utf8' }), 'hi\n');
  assert.equal(spawnSync('echo', ['x']).stdout.toString(), 'x\n');
  assert.equal(childProcess.execFileSync('echo', ['y'], { encoding: 'utf8' }), 'y\n');
  assert.deepEqual(timer.take().count, 3);

  const child = childProcess.spawn('echo', ['z']);
  assert.ok(child instanceof childProcess.ChildProcess);
  await once(child, 'close');
  // `node --eval ''`: a fork with nothing to run, exits at once.
  const forked = childProcess.fork('', [], { execArgv: ['--eval', ''], stdio: 'ignore' });
  await once(forked, 'exit');
  assert.equal((await promisify(exec)('echo a')).stdout, 'a\n');
  assert.equal((await promisify(execFile)('echo', ['b'])).stdout, 'b\n');
  const taken = timer.take();
  assert.equal(taken.count, 4, 'spawn, fork, promisified exec and execFile: one each');
  assert.ok(taken.blockedMs > 0);
  assert.equal(taken.timing, expectedTiming);
  if (expectedTiming === 'diagnostics-channel') {
    assert.equal(childProcess.ChildProcess.prototype.spawn, originals.protoSpawn, 'the channel times spawn: the prototype is left as Node made it');
  }
  assert.deepEqual(timer.take(), { count: 0, blockedMs: 0, timing: expectedTiming, failures: null });

  // Errors are the originals', thrown the same way, and still counted.
  assert.throws(() => execSync('exit 3', { stdio: 'ignore' }), (error) => error.status === 3);
  assert.throws(() => childProcess.spawn(42), { code: 'ERR_INVALID_ARG_TYPE' });
  assert.equal(spawnSync('no-such-command-spawnbench').error.code, 'ENOENT');
  await new Promise((resolve) => execFile('no-such-command-spawnbench', (error) => resolve(assert.equal(error.code, 'ENOENT'))));
  assert.equal(timer.take().count, 3, 'the synchronous calls that reached the binding, and the async ENOENT');

  timer.uninstall();
  assert.equal(childProcess.execSync, originals.execSync);
  assert.equal(childProcess.ChildProcess.prototype.spawn, originals.protoSpawn);
  assert.equal(spawnSync, childProcess.spawnSync);
});

test('failed spawns are counted by command and errno, in both ways of timing, and the host still handles the error (issue #36)', async () => {
  for (const timing of ['auto', 'patch']) {
    const timer = installSpawnTimer({ timing });
    try {
      // ENOENT: the native spawn returns the errno (the patch reads it) and Node emits 'error' on the next tick
      // (where the channel speaks, it publishes `:error` with the error instead).
      const child = childProcess.spawn('no-such-command-spawnbench', ['x']);
      assert.equal(child.listenerCount('error'), 0, `${timing}: no 'error' listener added to the host's child`);
      const [error] = await once(child, 'error');
      assert.equal(error.code, 'ENOENT');
      await new Promise((resolve) => execFile('no-such-command-spawnbench', (e) => resolve(assert.equal(e.code, 'ENOENT'))));
      assert.equal(spawnSync('no-such-command-spawnbench').error.code, 'ENOENT');
      assert.throws(() => childProcess.execFileSync('no-such-command-spawnbench'), { code: 'ENOENT' });
      // No failed spawn: a command that ran and exited 3, arguments refused before the spawn, a spawn that worked.
      assert.throws(() => execSync('exit 3', { stdio: 'ignore' }), (e) => e.status === 3);
      assert.throws(() => childProcess.spawn(42), { code: 'ERR_INVALID_ARG_TYPE' });
      await once(childProcess.spawn('echo', ['ok']), 'close');
      const taken = timer.take();
      assert.equal(taken.timing, timing === 'patch' ? 'patch' : expectedTiming);
      assert.deepEqual(taken.failures, [{ command: 'no-such-command-spawnbench', code: 'ENOENT', count: 4 }], timing);
      assert.equal(timer.take().failures, null, 'counted since the previous take');
    } finally {
      timer.uninstall();
    }
  }
});

test('spawns made without child_process are counted where their maker publishes them (posix_spawn)', async (t) => {
  const { loadPosixSpawn } = await import('../../strategies/lib/posix-spawn.js');
  const posix = await loadPosixSpawn({});
  const timer = installSpawnTimer();
  t.after(() => timer.uninstall());
  if (posix.run) {
    // node:ffi or koffi loads: five real spawns through posix_spawn.
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve, reject) => posix.run('true', [], { onStdout() {}, onExit: resolve, onError: reject }));
    }
  } else {
    // Elsewhere the publisher is the same two channels, published by hand.
    const { default: dc } = await import('node:diagnostics_channel');
    for (let i = 0; i < 5; i++) {
      dc.channel(OWN_SPAWN_CHANNELS.start).publish({ command: 'true', args: [] });
      dc.channel(OWN_SPAWN_CHANNELS.end).publish({ command: 'true', args: [], error: 0 });
    }
  }
  const taken = timer.take();
  assert.equal(taken.count, 5);
  assert.ok(taken.blockedMs >= 0 && taken.blockedMs < 5_000, `blocked ${taken.blockedMs} ms`);
  assert.equal(taken.timing, 'posix_spawn');
  timer.uninstall();
  // Uninstalled: no longer counted.
  const { default: dc } = await import('node:diagnostics_channel');
  dc.channel(OWN_SPAWN_CHANNELS.start).publish({});
  dc.channel(OWN_SPAWN_CHANNELS.end).publish({});
  assert.equal(timer.take().count, 0);
});
