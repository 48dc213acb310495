/**
 * The lowest soft limits on processes and open files among a process group's
 * processes (the server, its workers, the commands in flight), read from /proc
 * before it stops: a failed spawn's errno points at one of them, and a limit
 * lowered on one worker (`prlimit --pid`) is the one that counts.
 */
import { pidsInGroup, readLimits } from '../sample/proc.js';
import { lowestLimits } from '../analysis/spawn-failures.js';

/**
 * @param {number} pgid
 * @returns {{ processes: number|null, openFiles: number|null } | null} null where /proc cannot say
 */
export function groupLimits(pgid) {
  return lowestLimits(pidsInGroup(pgid).map(readLimits));
}
