/**
 * Temp directories that name their owner. A SIGKILL gives spawnbench no chance to remove
 * what it made, so each directory's name carries the owner's pid and start time
 * (`spawnbench-run-<pid>-<start>-XXXXXX`), and each start of spawnbench removes the ones
 * whose owner is gone: no process with that pid, or one with another start time (the pid
 * was reused).
 */
import { mkdtemp } from 'node:fs/promises';
import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readStat } from './proc.js';

/** The kinds of directory spawnbench makes and removes itself (a CPU-profile dir is the user's output, not swept). */
const KINDS = ['run', 'probe'];
const OWNED = new RegExp(`^spawnbench-(?:${KINDS.join('|')})-(\\d+)-(\\d+)-`);

let ownStart;
/** This process's start time in clock ticks since boot (0 where /proc cannot tell). */
function startTime(pid = process.pid) {
  return readStat(pid)?.starttime ?? null;
}

/**
 * Makes a 0700 temp directory owned by this process.
 * @param {'run'|'probe'} kind
 * @param {string} [base] where (default: the system temp dir)
 * @returns {Promise<string>}
 */
export function makeOwnedTempDir(kind, base = tmpdir()) {
  ownStart ??= startTime() ?? 0;
  return mkdtemp(path.join(base, `spawnbench-${kind}-${process.pid}-${ownStart}-`));
}

/**
 * Removes the owned temp directories whose owner is gone. Never throws: a directory
 * that cannot be removed (another user's) is left as it is.
 * @param {string} [base]
 * @returns {string[]} the directories removed
 */
export function removeOrphanedTempDirs(base = tmpdir()) {
  const removed = [];
  let names;
  try {
    names = readdirSync(base);
  } catch {
    return removed;
  }
  for (const name of names) {
    const match = OWNED.exec(name);
    if (!match) continue;
    const [, pid, start] = match;
    if (startTime(Number(pid)) === Number(start)) continue; // the owner still runs
    try {
      rmSync(path.join(base, name), { recursive: true, force: true });
      removed.push(name);
    } catch {
      // not ours to remove (permissions): leave it
    }
  }
  return removed;
}

