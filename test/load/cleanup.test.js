import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { isGone } from './helpers.js';

const SCRIPT = fileURLToPath(new URL('./fixtures/run-to-exit.js', import.meta.url));
// A process that has not exited this long after its load ended leaked a handle.
const EXIT_WITHIN_MS = 10_000;

/**
 * Runs fixtures/run-to-exit.js (through `sh -c` when a shell prefix is given). Its closed loops run at
 * full speed: 200 ms of them open every connection and thread and send thousands of requests.
 */
async function runToExit(options, shellPrefix = null) {
  const args = [SCRIPT, JSON.stringify(options)];
  const child = shellPrefix
    ? spawn('sh', ['-c', `${shellPrefix}; exec "$0" "$@"`, process.execPath, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  const killer = setTimeout(() => child.kill('SIGKILL'), EXIT_WITHIN_MS);
  const [code, signal] = await once(child, 'exit');
  clearTimeout(killer);
  assert.ok(isGone(child.pid));
  assert.equal(signal, null, `the process did not exit on its own (leaked handle?)\n${stderr}`);
  assert.equal(code, 0, stderr);
  return JSON.parse(stdout);
}

test('after a run, sockets and threads are closed: the process exits by itself', async () => {
  const result = await runToExit({ connections: 4, threads: 2, warmupMs: 200 });
  assert.ok(result.requests > 0);
});

test('after stop(), the process exits by itself', async () => {
  const result = await runToExit({ connections: 2, durationMs: 60_000, stopAfterMs: 400 });
  assert.ok(result.requests > 0);
});

test('open loop: the process exits by itself', async () => {
  const result = await runToExit({ connections: 2, rate: 200 });
  assert.equal(result.mode, 'open');
});

test('EMFILE is counted and reported with the fix', async () => {
  // 40 descriptors leave room for node itself but not for 100 connections
  // (each costs two here: the generator's socket and the server's).
  const result = await runToExit({ connections: 100 }, 'ulimit -n 40');
  assert.ok(result.errors.connect > 0);
  assert.ok(result.notes.some((n) => /EMFILE.*ulimit -n.*fewer --connections/.test(n)), result.notes.join('\n'));
});
