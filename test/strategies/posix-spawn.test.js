// Node workers spawn with posix_spawn through node:ffi where Node has it (≥ 26.1), and
// must give each command exactly what child_process.spawn gives it: the same stdout
// byte for byte, exit codes, start errors, stdio, fds and signal state. spawn-cases.js
// runs the same commands both ways on Node 26 (this one, else node26 from the runtime cache).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { runtimePath, missingRuntime } from '../helpers/runtimes.js';
import { exitCode, loadPosixSpawn } from '../../strategies/lib/posix-spawn.js';

const CASES = fileURLToPath(new URL('./spawn-cases.js', import.meta.url));
const MAJOR = Number(process.versions.node.split('.')[0]);
const NODE26 = MAJOR >= 26 ? process.execPath : runtimePath('node26');
const needs26 = { skip: MAJOR < 26 && missingRuntime('node26') };

const casesOn = (node, env = {}) =>
  JSON.parse(execFileSync(node, ['--no-warnings', CASES], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 }));

test('on Node 26, posix_spawn gives every command what child_process.spawn gives it', needs26, () => {
  const posix = casesOn(NODE26);
  const childProcess = casesOn(NODE26, { SPAWNBENCH_SPAWN_API: 'child_process' });
  assert.equal(posix.api, 'posix_spawn');
  assert.equal(childProcess.api, 'child_process');
  assert.deepEqual(posix.results, childProcess.results);
  const r = posix.results;
  assert.deepEqual(r.echo, { code: 0, stdout: 'hi there\n' });
  assert.deepEqual(r.exitCode, { code: 3, stdout: 'x y\n' });
  assert.deepEqual(r.notFound, { error: 'spawn /no/such/command ENOENT' });
  assert.deepEqual(r.notExecutable, { error: 'spawn <dir>/not-executable EACCES' });
  assert.equal(r.killedBySignal.code, -1);
  assert.deepEqual(r.stdoutClosedFirst, { code: 4, stdout: '' }, 'the exit code of a command that closed stdout before it exited');
  assert.deepEqual(r.stdio, { code: 0, stdout: '/dev/null\n/dev/null\n' });
  assert.match(r.signals.stdout, /^SigBlk:\t0+\nSigIgn:\t0+\n$/, 'no signal blocked or ignored in the command');
  assert.equal(r.large.stdout, 300_000);
  assert.deepEqual(r.env, { code: 0, stdout: 'set after start\n' }, 'the environment as it is at the spawn');
  assert.equal(r.many, true);
});

test('where node:ffi is missing or turned off, Node workers use child_process and say why', needs26, async () => {
  assert.deepEqual(await loadPosixSpawn({ SPAWNBENCH_SPAWN_API: 'child_process' }), { unavailable: 'SPAWNBENCH_SPAWN_API=child_process' });
  const hasFfi = await import('node:ffi').then(() => true, () => false);
  const loaded = await loadPosixSpawn({});
  if (hasFfi) assert.equal(typeof loaded.run, 'function');
  else assert.match(loaded.unavailable, /^node:ffi is not in Node v\d+/);
  const onThisNode = casesOn(process.execPath);
  assert.equal(onThisNode.api, hasFfi ? 'posix_spawn' : 'child_process');
  assert.deepEqual(onThisNode.results, casesOn(NODE26).results);
});

test('a wait status becomes the exit code, or -1 for a signal', () => {
  assert.equal(exitCode(0), 0);
  assert.equal(exitCode(3 << 8), 3);
  assert.equal(exitCode(255 << 8), 255);
  assert.equal(exitCode(15), -1); // SIGTERM
  assert.equal(exitCode(9 | 0x80), -1); // SIGKILL, core dumped
});
