/**
 * cgroup v2 containment: where spawnbench may make a cgroup under its own (root, or a
 * delegated subtree), each process group it starts also goes into a cgroup of its own, and
 * stopping it ends with `cgroup.kill`, which reaches every process in it, including one
 * that left the process group (setsid) or lost its parent (a double fork). Elsewhere the
 * process group (plus the escapee tracking in escapees.js) is the containment.
 * Cgroups are named like temp dirs (`spawnbench-<pid>-<start>-<n>`), so a start of
 * spawnbench also removes the ones a SIGKILLed spawnbench left.
 */
import { readFileSync, mkdirSync, writeFileSync, rmdirSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { readStat } from '../sample/proc.js';

const NAME = /^spawnbench-(\d+)-(\d+)-\d+$/;
let counter = 0;

/**
 * A process's cgroup v2 directory (mount point + path), or null (no cgroup v2, not Linux, gone).
 * @param {number|'self'} [pid] this process by default
 */
export function ownCgroupDir(pid = 'self') {
  try {
    const own = readFileSync(`/proc/${pid}/cgroup`, 'utf8').split('\n').find((l) => l.startsWith('0::'));
    if (!own) return null;
    const mount = readFileSync('/proc/self/mountinfo', 'utf8').split('\n')
      .map((line) => line.split(' '))
      .find((fields) => fields[fields.indexOf('-') + 1] === 'cgroup2');
    if (!mount) return null;
    return path.join(mount[4], own.slice(3).trim());
  } catch {
    return null;
  }
}

/**
 * Spawns a process inside a new cgroup under this process's, if it can (not when the
 * environment says SPAWNBENCH_CONTAINMENT=process-group). The child must be in the cgroup
 * from its first instruction: moved in after spawn(), a shell could fork an escapee first.
 * So this process enters the new cgroup, spawns (a fork inherits its parent's cgroup), and
 * returns to its own, all in one synchronous step.
 * @template T
 * @param {() => T} spawnChild
 * @returns {{ child: T, containment: { method: 'cgroup', dir: string } | { method: 'process-group', why: string } }}
 */
export function spawnInCgroup(spawnChild, base = ownCgroupDir()) {
  const fallback = (why) => ({ child: spawnChild(), containment: { method: /** @type {const} */ ('process-group'), why } });
  if (process.env.SPAWNBENCH_CONTAINMENT === 'process-group') return fallback('SPAWNBENCH_CONTAINMENT=process-group');
  if (!base) return fallback('no cgroup v2 here');
  const start = readStat(process.pid)?.starttime ?? 0;
  const dir = path.join(base, `spawnbench-${process.pid}-${start}-${++counter}`);
  try {
    mkdirSync(dir);
  } catch (error) {
    return fallback(`cannot make a cgroup under ${base} (${error.code})`);
  }
  try {
    writeFileSync(path.join(dir, 'cgroup.procs'), String(process.pid));
  } catch (error) {
    tryRmdir(dir);
    return fallback(`cannot enter a new cgroup (${error.code})`);
  }
  let child;
  let returned = true;
  try {
    child = spawnChild();
  } finally {
    try {
      writeFileSync(path.join(base, 'cgroup.procs'), String(process.pid));
    } catch {
      returned = false;
    }
  }
  // Still inside it ourselves: killing that cgroup would kill spawnbench, so it is not used.
  if (!returned) return { child, containment: { method: 'process-group', why: 'could not leave the new cgroup' } };
  return { child, containment: { method: 'cgroup', dir } };
}

function tryRmdir(dir) {
  try {
    rmdirSync(dir);
  } catch {
    // left for the next start's sweep
  }
}

/**
 * Whether a process is still in the cgroup `dir` or one below it; true when that cannot be
 * read (gone, no /proc): only a process seen to have left is taken out of its reach. A
 * launcher such as `cgexec -g cpu:limited` or `systemd-run --scope` moves the server out,
 * and then cgroup.kill reaches none of what it starts.
 * @param {string} dir
 * @param {number} pid
 */
export function cgroupHolds(dir, pid) {
  const now = ownCgroupDir(pid);
  return now === null || now === dir || now.startsWith(`${dir}/`);
}

/** Sends SIGKILL to every process in the cgroup (cgroup.kill), falling back to its cgroup.procs. */
export function killCgroup(dir) {
  try {
    writeFileSync(path.join(dir, 'cgroup.kill'), '1');
    return;
  } catch {
    // a kernel before 5.14: no cgroup.kill
  }
  for (const pid of cgroupPids(dir)) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
}

/** The pids in a cgroup. */
export function cgroupPids(dir) {
  try {
    return readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/**
 * Removes an emptied cgroup, waiting up to `timeoutMs` for its killed processes to be reaped.
 * @returns {Promise<boolean>} whether it is gone
 */
export async function removeCgroup(dir, timeoutMs = 1000) {
  const end = Date.now() + timeoutMs;
  for (;;) {
    try {
      rmdirSync(dir);
      return true;
    } catch (error) {
      if (error.code === 'ENOENT') return true;
      if (Date.now() > end) return false;
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

/** Kills and removes the cgroups a spawnbench that is gone left behind (run at each start). */
export function removeOrphanedCgroups(base = ownCgroupDir()) {
  if (!base) return;
  let names;
  try {
    names = readdirSync(base);
  } catch {
    return;
  }
  for (const name of names) {
    const match = NAME.exec(name);
    if (!match || readStat(Number(match[1]))?.starttime === Number(match[2])) continue;
    const dir = path.join(base, name);
    killCgroup(dir);
    try {
      rmdirSync(dir);
    } catch {
      // still reaping: the next start removes it
    }
  }
}
