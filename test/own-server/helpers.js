/** Running spawnbench on the own-server fixtures, in-process or as a real process, and proving nothing is left. */
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { fakeIo } from '../helpers/io.js';
import { processesInGroup, processesMatching, waitFor } from '../helpers/processes.js';

/** Short steps: the suite must stay quick; the figures are not what these tests check. */
export const QUICK = ['--duration', '1s', '--warmup', '300ms', '--connections', '4'];

/** Absolute path of a fixture server. */
export function fixture(name) {
  return fileURLToPath(new URL(`../../fixtures/servers/${name}.js`, import.meta.url));
}

/** spawnbench in-process: exit code, stdout, stderr. */
export async function cli(...args) {
  const io = fakeIo();
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

export { startSpawnbench as startBin } from '../helpers/spawnbench-process.js';

/**
 * No process of the user's command is left: each step's process group is empty,
 * nothing runs with `marker` on its command line, every descendant seen is gone.
 * @param {{ pids?: number[], marker?: string, seen?: Set<number> }} what
 */
export async function assertNothingLeft({ pids = [], marker = null, seen = new Set() }) {
  for (const pid of pids) {
    assert.ok(pid > 0, 'each step names its process group');
    assert.ok(await waitFor(() => processesInGroup(pid).length === 0), `left in group ${pid}: ${processesInGroup(pid)}`);
  }
  if (marker) assert.ok(await waitFor(() => processesMatching(marker).length === 0), `still running: ${processesMatching(marker)}`);
  const alive = () => [...seen].filter((pid) => processesInGroup(pid).length > 0 || isAlive(pid));
  assert.ok(await waitFor(() => alive().length === 0), `still alive: ${alive()}`);
  assert.equal(trackedGroupCount(), 0);
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
