/**
 * The machine's floor for bench:strategies: bench/floor/spawn-loop.c, built when a
 * C compiler (`cc`) is on PATH, runs the workload's command one spawn after another
 * (posix_spawnp, stdout on a pipe read to its end, waitpid) and reports its own CPU
 * and the commands'. What a request costs above that is what a server adds.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('./floor/spawn-loop.c', import.meta.url));
const NODE_LOOP = fileURLToPath(new URL('./floor/node-spawn-loop.js', import.meta.url));
/** Commands in flight at once in the Node loop, as in a worker with requests queued. */
const NODE_CONCURRENCY = 4;
/** Spawns per measurement: ~1–3 s on the 2-core machine. */
const SPAWNS = 1500;

/**
 * Builds a C source of bench/ with `cc -O2` into a temp dir; `skipped` (with `what`
 * and why) where there is no compiler or the build fails.
 * @param {string} source
 * @param {string} name the binary's name
 * @param {string} what what is left out without it, e.g. 'no floor row'
 * @returns {{ binary: string, cleanup: () => void } | { skipped: string }}
 */
export function buildC(source, name, what) {
  const dir = mkdtempSync(join(tmpdir(), `spawnbench-${name}-`));
  const binary = join(dir, name);
  try {
    execFileSync('cc', ['-O2', '-o', binary, source], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const why = error.code === 'ENOENT' ? '`cc` is not on PATH' : (error.stderr?.toString().trim().split('\n')[0] ?? error.message);
    return { skipped: `${what}: ${why}` };
  }
  return { binary, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** @returns {{ binary: string, cleanup: () => void } | { skipped: string }} */
export const buildFloor = () => buildC(SOURCE, 'spawn-loop', 'no floor row');

/**
 * One measurement: CPU milliseconds per spawn of the loop itself and of the commands.
 * @param {string} binary
 * @param {{ command: string, args: string[] }} workload
 * @returns {{ cpu: { main: number, workers: null, spawned: number, generator: null } } | { failed: string }}
 */
export function measureFloor(binary, { command, args }) {
  try {
    const out = execFileSync(binary, [String(SPAWNS), command, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const { spawns, selfMs, childrenMs } = JSON.parse(out);
    return { cpu: { main: selfMs / spawns, workers: null, spawned: childrenMs / spawns, generator: null } };
  } catch (error) {
    return { failed: error.message.split('\n')[0] };
  }
}

/**
 * The Node floor: the strategies' own spawn path (strategies/lib/spawn-command.js) in a
 * loop on the given Node, no HTTP around it (bench/floor/node-spawn-loop.js). CPU
 * milliseconds per spawn of the loop and of the commands, and the spawn API it used.
 * @param {string} node the Node executable
 * @param {{ command: string, args: string[] }} workload
 * @returns {{ cpu: { main: number, workers: null, spawned: number, generator: null }, api: string } | { failed: string }}
 */
export function measureNodeFloor(node, { command, args }) {
  try {
    const out = execFileSync(node, ['--no-warnings', NODE_LOOP, String(SPAWNS), String(NODE_CONCURRENCY), command, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const { spawns, selfMs, childrenMs, api } = JSON.parse(out);
    return { cpu: { main: selfMs / spawns, workers: null, spawned: childrenMs / spawns, generator: null }, api };
  } catch (error) {
    return { failed: error.message.split('\n')[0] };
  }
}
