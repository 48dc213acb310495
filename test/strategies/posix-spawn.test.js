// Node workers spawn with posix_spawn through an FFI (node:ffi where Node has it, ≥ 26.1, else
// koffi, an optional dependency with prebuilt binaries), and must give each command exactly
// what child_process.spawn gives it: the same stdout byte for byte, exit codes, start errors,
// stdio, fds and signal state. spawn-cases.js runs the same commands both ways, on this Node
// and on Node 26 (this one, else node26 from the runtime cache), and they are compared.
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
/** Where posix_spawn must load: koffi ships prebuilt binaries for these, and node:ffi is there too. */
const SUPPORTED = process.platform === 'linux' && ['x64', 'arm64'].includes(process.arch);

const casesOn = (node, env = {}) =>
  JSON.parse(execFileSync(node, ['--no-warnings', CASES], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 60_000 }));

/** What every command gives, the same through both APIs. */
function assertCases(posix, childProcess) {
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
}

test(`on Node ${process.versions.node}, posix_spawn loads and gives every command what child_process.spawn gives it`, { skip: !SUPPORTED && `posix_spawn is for Linux x64/arm64, not ${process.platform}/${process.arch}` }, async () => {
  const loaded = await loadPosixSpawn({});
  assert.equal(typeof loaded.run, 'function', `posix_spawn did not load: ${loaded.unavailable}`);
  const hasNodeFfi = await import('node:ffi').then(() => true, () => false);
  assert.equal(loaded.ffi, hasNodeFfi ? 'node:ffi' : 'koffi');
  assertCases(casesOn(process.execPath), casesOn(process.execPath, { SPAWNBENCH_SPAWN_API: 'child_process' }));
});

test('on Node 26, posix_spawn through node:ffi gives every command what child_process.spawn gives it', needs26, () => {
  assertCases(casesOn(NODE26), casesOn(NODE26, { SPAWNBENCH_SPAWN_API: 'child_process' }));
});

const missing = () => Promise.reject(new Error('not here'));

test('turned off, or neither FFI loads: child_process, saying why', async () => {
  assert.deepEqual(await loadPosixSpawn({ SPAWNBENCH_SPAWN_API: 'child_process' }), { unavailable: 'SPAWNBENCH_SPAWN_API=child_process' });
  // koffi there but broken: its own words.
  const broken = async () => ({ default: { load: () => { throw new Error('libc.so.6: cannot open'); } } });
  assert.deepEqual(await loadPosixSpawn({}, { nodeFfi: missing, koffi: broken }), { unavailable: `node:ffi is not in Node ${process.version}, and koffi: libc.so.6: cannot open` });
  assert.deepEqual(await loadPosixSpawn({}, { nodeFfi: missing, koffi: missing }), { unavailable: `node:ffi is not in Node ${process.version}, and koffi is not installed` });
});

test('without node:ffi (Node before 26.1), koffi: a real spawn through it, whatever this Node is', { skip: !SUPPORTED && `koffi's posix_spawn path is for Linux x64/arm64, not ${process.platform}/${process.arch}` }, async () => {
  const viaKoffi = await loadPosixSpawn({}, { nodeFfi: missing, koffi: () => import('koffi') });
  assert.equal(viaKoffi.ffi, 'koffi');
  const out = await new Promise((resolve, reject) => {
    let stdout = '';
    viaKoffi.run('echo', ['via', 'koffi'], { onStdout: (chunk) => { stdout += chunk; }, onExit: (code) => resolve({ code, stdout }), onError: reject });
  });
  assert.deepEqual(out, { code: 0, stdout: 'via koffi\n' });
});

test('a wait status becomes the exit code, or -1 for a signal', () => {
  assert.equal(exitCode(0), 0);
  assert.equal(exitCode(3 << 8), 3);
  assert.equal(exitCode(255 << 8), 255);
  assert.equal(exitCode(15), -1); // SIGTERM
  assert.equal(exitCode(9 | 0x80), -1); // SIGKILL, core dumped
});
