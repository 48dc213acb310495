/**
 * CPU time of the calling thread. Node 20 has no per-thread CPU API
 * (process.threadCpuUsage arrived in Node 23.9) and process.cpuUsage() counts
 * the whole process, so on Linux each generator thread reads its own
 * /proc/thread-self/stat (utime + stime, in clock ticks). Elsewhere it returns
 * null and the caller falls back to ELU × 100, which tracks CPU closely for a
 * loop that only does network I/O and JS (it overstates time spent in syscalls
 * that block, which this generator does not make).
 */
import { readFileSync } from 'node:fs';

// Linux reports /proc times in USER_HZ ticks, fixed at 100 per second by the ABI
// on every mainstream architecture (what `getconf CLK_TCK` prints): 10 ms each.
const MS_PER_TICK = 10;
const STAT_PATH = '/proc/thread-self/stat';

/**
 * @returns {() => (number|null)} reads this thread's CPU time so far in ms, or null when unavailable
 */
export function createThreadCpuReader() {
  const read = () => {
    try {
      const stat = readFileSync(STAT_PATH, 'latin1');
      // Fields after the command name (which may hold spaces) in parentheses;
      // utime and stime are fields 14 and 15, i.e. 12th and 13th after ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK;
    } catch {
      return null;
    }
  };
  return read() === null ? () => null : read;
}
