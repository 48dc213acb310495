/**
 * Every process group spawnbench starts is tracked here, so that whatever ends
 * spawnbench (normal end, Ctrl-C, SIGTERM, an uncaught error) can kill them all.
 * The graceful path is each owner's stop(); this is the last line of defence.
 */
import { rmSync } from 'node:fs';

const groups = new Set();
const dirs = new Set();
let installed = false;

/**
 * Sends a signal to a whole process group, ignoring groups that are already gone.
 * @returns {boolean} whether any process received it
 */
export function signalGroup(pgid, signal) {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (error) {
    if (error.code === 'ESRCH') return false;
    throw error;
  }
}

/** Kills every tracked group at once, then removes every tracked directory, synchronously (safe inside process.on('exit')). */
export function killAllSync() {
  for (const pgid of groups) signalGroup(pgid, 'SIGKILL');
  groups.clear();
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  dirs.clear();
}

function installExitHandler() {
  if (installed) return;
  installed = true;
  process.on('exit', killAllSync);
}

/**
 * Tracks a process group until the returned function is called.
 * @param {number} pgid
 * @returns {() => void} untrack
 */
export function trackGroup(pgid) {
  installExitHandler();
  groups.add(pgid);
  return () => groups.delete(pgid);
}

/**
 * Tracks a directory spawnbench made for a run until the returned function
 * removes it; removed on exit otherwise.
 * @param {string} dir
 * @returns {() => void} remove it now
 */
export function trackDir(dir) {
  installExitHandler();
  dirs.add(dir);
  return () => {
    dirs.delete(dir);
    rmSync(dir, { recursive: true, force: true });
  };
}

/** How many groups are live (for tests). */
export function trackedGroupCount() {
  return groups.size;
}
