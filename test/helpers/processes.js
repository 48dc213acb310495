/** Process-tree checks for the "nothing left behind" tests. */
import { readdirSync, readFileSync } from 'node:fs';

/** Live pids of a process group: the same /proc reader spawnbench uses. */
export { pidsInGroup as processesInGroup } from '../../src/sample/proc.js';

/** Every live descendant of `rootPid` (children, grandchildren, …). */
export function descendants(rootPid) {
  const stats = allStats();
  const found = [];
  const queue = [rootPid];
  while (queue.length) {
    const parent = queue.shift();
    for (const s of stats) {
      if (s.ppid === parent && s.state !== 'Z') {
        found.push(s.pid);
        queue.push(s.pid);
      }
    }
  }
  return found;
}

/**
 * This test file's tag in the environment of every process it starts (spawnbench passes
 * its environment on to the servers and strategies it starts): test files run in
 * parallel, and one file's servers run the same fixtures as another's.
 */
const TAG_NAME = 'SPAWNBENCH_TEST_FILE';
process.env[TAG_NAME] ??= String(process.pid);
const OWN_TAG = `${TAG_NAME}=${process.env[TAG_NAME]}`;
/** The tag as an environment entry, for a process started with an environment of its own. */
export const TEST_FILE_TAG = Object.freeze({ [TAG_NAME]: process.env[TAG_NAME] });

/** Whether a process carries another test file's tag (one with no tag, its environment cleared, is not excluded). */
function othersProcess(pid) {
  try {
    const vars = readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0');
    return vars.some((v) => v.startsWith(`${TAG_NAME}=`)) && !vars.includes(OWN_TAG);
  } catch {
    return false;
  }
}

/** Live processes whose command line contains `text`, but for those another test file started. */
export function processesMatching(text) {
  const pids = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cmdline = readFileSync(`/proc/${name}/cmdline`, 'utf8').replaceAll('\0', ' ');
      if (cmdline.includes(text) && !othersProcess(name)) pids.push(Number(name));
    } catch {
      // gone between readdir and read
    }
  }
  return pids;
}

function allStats() {
  const stats = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      stats.push({ pid: Number(name), state: fields[0], ppid: Number(fields[1]) });
    } catch {
      // gone between readdir and read
    }
  }
  return stats;
}

/**
 * Whether `pid` is still a live process: it exists and is not a zombie. A zombie has ended;
 * one whose parent ended waits for the init to reap it, which here takes ~2 s (and in a
 * container whose PID 1 does not reap, forever), so signal 0 alone would wait on the init.
 */
export function isAlive(pid) {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return process.platform !== 'linux'; // gone between the two reads (no /proc elsewhere: signal 0 is all there is)
  }
}

/** Live (not zombie) processes whose environment holds `text` (a marker set on the command, or a workload the strategy's processes carry). */
export function processesWithEnvironment(text) {
  return readdirSync('/proc').filter((n) => /^\d+$/.test(n) && Number(n) !== process.pid).filter((n) => {
    try {
      return readFileSync(`/proc/${n}/environ`, 'latin1').includes(text) && !readFileSync(`/proc/${n}/stat`, 'latin1').includes(') Z ');
    } catch {
      return false;
    }
  });
}
