/**
 * Test helpers for the probe and sampler tests: boot a server (strategy or
 * fixture) with the probe channel's env in its own process group, drive it with
 * a small keep-alive load, and prove its whole group is gone afterwards.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import { once } from 'node:events';

export const ROOT = new URL('../../../', import.meta.url);

/** 10 s: a strategy boots in well under a second; anything slower is a failure, not a slow machine. */
const READY_TIMEOUT_MS = 10_000;

/** 3 s for SIGTERM to work before the group gets SIGKILL. */
const GRACE_MS = 3_000;

/**
 * Starts `file` (relative to the repo root) with node, in its own process group.
 * @param {string} file
 * @param {{ env?: object, config?: object }} [options] `config`: SPAWNBENCH_STRATEGY_CONFIG
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, port: number,
 *   workers: () => object[], stop: () => Promise<void> }>} `workers()`: the latest merged workers list
 */
export async function startServer(file, { env = {}, config = {} } = {}) {
  const child = spawn(process.execPath, [new URL(file, ROOT).pathname], {
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env, SPAWNBENCH_STRATEGY_CONFIG: JSON.stringify({ command: 'echo', args: ['hi'], ...config }) },
  });
  const workers = new Map();
  let resolveReady;
  const ready = new Promise((resolve) => {
    resolveReady = resolve;
  });
  let pending = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    pending += chunk;
    const lines = pending.split('\n');
    pending = lines.pop();
    for (const line of lines) {
      let message;
      try {
        message = JSON.parse(line);
      } catch {
        continue;
      }
      if (message.spawnbench === 'ready') resolveReady(message.port);
      if (message.spawnbench === 'workers') for (const w of message.workers) workers.set(w.id, w);
    }
  });
  const stop = () => stopGroup(child);
  const timeout = setTimeout(() => resolveReady(null), READY_TIMEOUT_MS);
  const port = await Promise.race([ready, once(child, 'exit').then(() => null)]);
  clearTimeout(timeout);
  if (!port) {
    await stop();
    throw new Error(`${file} did not print its ready line`);
  }
  return { child, port, workers: () => [...workers.values()], stop };
}

/**
 * SIGTERM to the group, SIGKILL after the grace period, then proves the group is gone.
 * @param {import('node:child_process').ChildProcess} child
 */
export async function stopGroup(child) {
  const exited = child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : once(child, 'exit');
  signalGroup(child.pid, 'SIGTERM');
  const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), GRACE_MS);
  await exited;
  clearTimeout(timer);
  signalGroup(child.pid, 'SIGKILL');
  for (let i = 0; i < 100 && groupAlive(child.pid); i += 1) await new Promise((r) => setTimeout(r, 20));
  if (groupAlive(child.pid)) throw new Error(`process group ${child.pid} survived`);
}

function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
  } catch {
    // already gone
  }
}

/** True while any process of the group exists (zombies included until reaped). */
export function groupAlive(pgid) {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Closed-loop keep-alive load: `connections` requests in flight until `durationMs` passes.
 * @returns {Promise<{ requests: number, errors: number, rps: number, bodies: Set<string> }> & { progress: () => number }}
 *   `progress()`: successful requests so far
 */
export function runLoad({ port, connections = 8, durationMs = 2000, path = '/' }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const started = performance.now();
  const deadline = started + durationMs;
  let requests = 0;
  let errors = 0;
  const bodies = new Set();
  const one = () =>
    new Promise((resolve) => {
      const req = http.get({ host: '127.0.0.1', port, path, agent }, (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (c) => (body += c));
        res.on('end', () => {
          if (res.statusCode === 200) requests += 1;
          else errors += 1;
          if (bodies.size < 5) bodies.add(body);
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
    });
  const loop = async () => {
    while (performance.now() < deadline) await one();
  };
  const done = Promise.all(Array.from({ length: connections }, loop)).then(() => {
    agent.destroy();
    return { requests, errors, rps: requests / ((performance.now() - started) / 1000), bodies };
  });
  return Object.assign(done, { progress: () => requests });
}
