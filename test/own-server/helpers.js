/** Running spawnbench on the own-server fixtures, in-process or as a real process, and proving nothing is left. */
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { processesInGroup, processesMatching, isAlive } from '../helpers/processes.js';
import { waitFor } from '../helpers/harness.js';
import { startSpawnbench } from '../helpers/spawnbench-process.js';

/** Short steps: the suite must stay quick; the figures are not what these tests check. */
export const QUICK = ['--duration', '1s', '--warmup', '300ms', '--connections', '4'];

/** Absolute path of a fixture server; spawnbench in-process (exit code, stdout, stderr). */
export { fixtureServer as fixture, cli } from '../helpers/harness.js';

export { startSpawnbench as startBin } from '../helpers/spawnbench-process.js';

/**
 * A real spawnbench (no TTY) once its server is under load: the moment a signal or a crash tests an exit path.
 * @param {string[]} args
 * @param {{ env?: Record<string, string> }} [options]
 */
export async function startUnderLoad(args, options) {
  const run = startSpawnbench(args, options);
  await waitFor(() => /measure \d/.test(run.err()), { timeoutMs: 20_000, what: () => `the server under load; stderr so far: ${run.err()}` });
  assert.ok(run.seen.size >= 3, 'the server and its workers were seen');
  return run;
}

/**
 * No process of the user's command is left: each step's process group is empty,
 * nothing runs with `marker` on its command line, every descendant seen is gone.
 * @param {{ pids?: number[], marker?: string, seen?: Set<number> }} what
 */
export async function assertNothingLeft({ pids = [], marker = null, seen = new Set() }) {
  for (const pid of pids) {
    assert.ok(pid > 0, 'each step names its process group');
    await waitFor(() => processesInGroup(pid).length === 0, { what: () => `group ${pid} to empty (left: ${processesInGroup(pid)})` });
  }
  if (marker) await waitFor(() => processesMatching(marker).length === 0, { what: () => `nothing to run ${marker} (still running: ${processesMatching(marker)})` });
  const alive = () => [...seen].filter((pid) => processesInGroup(pid).length > 0 || isAlive(pid));
  await waitFor(() => alive().length === 0, { what: () => `every process seen to be gone (still alive: ${alive()})` });
  assert.equal(trackedGroupCount(), 0);
}

/** The busy loop's process name, this test process's own: a loop another file (or person) left running is not it (≤ 15 characters, /proc's comm). */
export const BUSY_LOOP_NAME = `sbloop${process.pid}`.slice(0, 15);

/**
 * A busy loop of 30 ms of CPU every 100 ms: 0.3 of a core (less on a crowded host), named, so it is
 * told from the other node processes of a shared machine. Its system time counts: each reading of
 * the clock is a getrusage call, and a loop that counted user time alone used 0.87 of a core.
 */
export function busyLoop() {
  const body = 'setInterval(() => { const from = process.cpuUsage(); for (;;) { const u = process.cpuUsage(from); if (u.user + u.system >= 30_000) break; } }, 100)';
  return spawn(process.execPath, ['-e', `process.title = ${JSON.stringify(BUSY_LOOP_NAME)}; ${body}`], { stdio: 'ignore' });
}

export async function stopLoop(loop) {
  loop.kill('SIGKILL');
  await new Promise((resolve) => (loop.exitCode !== null || loop.signalCode !== null ? resolve() : loop.once('exit', resolve)));
  assert.ok(!isAlive(loop.pid), 'the busy loop is gone');
}
