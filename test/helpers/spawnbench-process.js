/** spawnbench as a real process (for signals and exit paths), with every descendant it ever had recorded. */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { descendants } from './processes.js';
import { BIN } from './harness.js';

/**
 * @param {string[]} args
 * @returns {{ child: import('node:child_process').ChildProcess, seen: Set<number>, err: () => string,
 *   exited: Promise<{ code: number|null, signal: string|null, out: string, err: string }> }}
 */
export function startSpawnbench(args) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const seen = new Set();
  const watch = setInterval(() => descendants(child.pid).forEach((p) => seen.add(p)), 50);
  const exited = once(child, 'exit').then(([code, signal]) => {
    clearInterval(watch);
    return { code, signal, out, err };
  });
  return { child, seen, exited, err: () => err };
}
