/**
 * What the tests share to drive spawnbench: the CLI in-process or as a real
 * process, one wait that throws when the wait is over, and a fixture server
 * started on a free port (and proven gone when stopped).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { runCli } from '../../src/cli.js';
import { findFreePort } from '../../src/runner/free-port.js';
import { accepts } from '../../src/runner/wait-listening.js';
import { fakeIo } from './io.js';
import { TEST_FILE_TAG } from './processes.js';

export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const BIN = fileURLToPath(new URL('../../bin/spawnbench.js', import.meta.url));

/**
 * Runs the CLI in this process (no TTY, CI set) and collects what it printed.
 * @param {...string} args
 * @returns {Promise<{ code: number, out: string, err: string }>}
 */
export async function cli(...args) {
  const io = fakeIo();
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

/**
 * Runs bin/spawnbench.js as its own process (no TTY) and collects its output.
 * @param {string[]} args
 * @param {{ env?: Record<string, string|undefined>, timeoutMs?: number, cwd?: string }} [options] env replaces
 *   process.env; cwd: where it runs (default the repository's root)
 * @returns {Promise<{ code: number|null, signal: string|null, out: string, err: string }>}
 */
export async function spawnCli(args, { env = process.env, timeoutMs = 60_000, cwd = ROOT } = {}) {
  // The file's tag goes with a replaced environment too (test/helpers/processes.js).
  const child = spawn(process.execPath, [BIN, ...args], { cwd, env: { ...TEST_FILE_TAG, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => { out += chunk; });
  child.stderr.setEncoding('utf8').on('data', (chunk) => { err += chunk; });
  const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
  const [code, signal] = await once(child, 'exit');
  clearTimeout(timer);
  if (signal === 'SIGKILL') throw new Error(`spawnbench ${args.join(' ')} did not end within ${timeoutMs / 1000}s; stderr: ${err}`);
  return { code, signal, out, err };
}

/**
 * Polls until `check()` returns something truthy and returns it; throws when
 * `timeoutMs` passes, naming `what`. Limits are generous: a slow machine only waits longer.
 * @template T
 * @param {() => T|Promise<T>} check
 * @param {{ timeoutMs?: number, intervalMs?: number, what?: string|(() => string) }} [options]
 * @returns {Promise<T>}
 */
export async function waitFor(check, { timeoutMs = 10_000, intervalMs = 25, what = 'the condition' } = {}) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs / 1000}s waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/** The path of fixtures/servers/<name>.js. */
export function fixtureServer(name) {
  return fileURLToPath(new URL(`../../fixtures/servers/${name}.js`, import.meta.url));
}

/**
 * Starts fixtures/servers/<name>.js on a free port (given as PORT) and waits until it accepts connections.
 * @param {string} name
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, port: number, url: string, file: string, stop: () => Promise<void> }>}
 */
export async function startFixtureServer(name, env = {}) {
  const port = await findFreePort();
  const file = fixtureServer(name);
  const child = spawn(process.execPath, [file], { env: { ...process.env, ...env, PORT: String(port) }, stdio: 'ignore' });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
  };
  try {
    await waitFor(() => accepts('127.0.0.1', port), { what: `${name} to accept connections on port ${port}` });
  } catch (error) {
    await stop();
    throw error;
  }
  return { child, port, url: `http://127.0.0.1:${port}/`, file, stop };
}

/**
 * The full path of an executable found on PATH, or null: a test that needs a
 * tool that is absent skips and says which (nothing else skips).
 * @param {string} name
 */
export function findOnPath(name) {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not here
    }
  }
  return null;
}
