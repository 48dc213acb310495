/**
 * A cgroup with a CPU quota for tests and benches, where this process may make
 * one (root with a writable cgroup filesystem): cgroup v1's cpu controller when
 * it is mounted as v1 (hybrid hosts too, where libuv misses a v1 quota), else a
 * v2 child of this process's cgroup with the cpu controller enabled. A command is
 * started inside it from its first instruction (a shell writes its own pid into
 * cgroup.procs, then execs). `remove()` moves anything left to the parent and
 * removes the directory; callers run it on every path (after(), finally).
 */
import { readFileSync, writeFileSync, mkdirSync, rmdirSync, existsSync } from 'node:fs';
import path from 'node:path';

let counter = 0;

/**
 * @param {number|null} cpus the quota, in CPUs (1.5, 1, 0.5); null: no quota (a cgroup for `shares` alone)
 * @param {{ shares?: number|null }} [options] a CPU weight against the other programs of a shared machine
 *   (v1 cpu.shares, 1024 = one task of the root cgroup; v2 cpu.weight = shares ÷ 1024 × 100)
 * @returns {{ dir: string, version: 1|2, wrap: (argv: string[]) => string[], remove: () => boolean } | { skip: string }}
 *   `wrap(argv)` → an argv that runs argv inside the cgroup; `skip`: why none could be made here
 */
export function makeQuotaCgroup(cpus, { shares = null } = {}) {
  if (process.platform !== 'linux') return { skip: `no cgroups on ${process.platform}` };
  if (process.getuid?.() !== 0) return { skip: 'making a cgroup needs root' };
  const place = cpuControllerDir();
  if (place.skip) return place;
  const dir = path.join(place.parent, `spawnbench-test-${process.pid}-${++counter}`);
  try {
    mkdirSync(dir);
  } catch (error) {
    return { skip: `cannot make a cgroup under ${place.parent} (${error.code})` };
  }
  const remove = () => removeCgroup(dir, place.parent);
  try {
    const period = 100_000;
    if (place.version === 1) {
      writeFileSync(path.join(dir, 'cpu.cfs_period_us'), String(period));
      if (cpus !== null) writeFileSync(path.join(dir, 'cpu.cfs_quota_us'), String(Math.round(cpus * period)));
      if (shares) writeFileSync(path.join(dir, 'cpu.shares'), String(shares));
    } else {
      if (cpus !== null) writeFileSync(path.join(dir, 'cpu.max'), `${Math.round(cpus * period)} ${period}`);
      if (shares) writeFileSync(path.join(dir, 'cpu.weight'), String(Math.max(1, Math.min(10_000, Math.round((shares / 1024) * 100)))));
    }
  } catch (error) {
    remove();
    return { skip: `cannot set a CPU quota in ${dir} (${error.code})` };
  }
  return {
    dir,
    version: place.version,
    wrap: (argv) => ['/bin/sh', '-c', `echo $$ > '${path.join(dir, 'cgroup.procs')}' && exec "$@"`, 'sh', ...argv],
    remove,
  };
}

/** Where a quota cgroup can go: v1 cpu's mount at this process's path, or its v2 cgroup with +cpu for children. */
function cpuControllerDir() {
  let mountinfo;
  let own;
  try {
    mountinfo = readFileSync('/proc/self/mountinfo', 'utf8').split('\n').map((line) => line.split(' '));
    own = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch (error) {
    return { skip: `cannot read /proc (${error.code})` };
  }
  const mountOf = (test) => mountinfo.find((f) => { const dash = f.indexOf('-'); return dash > 0 && test(f[dash + 1], (f[dash + 3] ?? '').split(',')); });
  const v1 = mountOf((type, opts) => type === 'cgroup' && opts.includes('cpu'));
  if (v1) {
    const line = own.map((l) => l.split(':')).find(([, controllers]) => controllers?.split(',').includes('cpu'));
    const rel = line ? line.slice(2).join(':') : '/';
    const parent = path.join(v1[4], v1[3] === '/' ? rel : '/');
    return existsSync(parent) ? { parent, version: 1 } : { skip: `no cgroup directory ${parent}` };
  }
  const v2 = mountOf((type) => type === 'cgroup2');
  if (!v2) return { skip: 'no cgroup filesystem mounted' };
  const rel = own.find((l) => l.startsWith('0::'))?.slice(3) ?? '/';
  const parent = path.join(v2[4], rel);
  try {
    const enabled = readFileSync(path.join(parent, 'cgroup.subtree_control'), 'utf8').split(/\s+/);
    if (!enabled.includes('cpu')) writeFileSync(path.join(parent, 'cgroup.subtree_control'), '+cpu');
  } catch (error) {
    return { skip: `the cpu controller cannot be enabled under ${parent} (${error.code}; a cgroup v2 with processes in it cannot give its children controllers)` };
  }
  return { parent, version: 2 };
}

/** Moves what is left in the cgroup to its parent, then removes it; true when it is gone. */
function removeCgroup(dir, parent) {
  for (let attempt = 0; attempt < 50; attempt++) {
    let pids = [];
    try {
      pids = readFileSync(path.join(dir, 'cgroup.procs'), 'utf8').split('\n').filter(Boolean);
    } catch (error) {
      if (error.code === 'ENOENT') return true;
    }
    for (const pid of pids) {
      try {
        writeFileSync(path.join(parent, 'cgroup.procs'), pid);
      } catch {
        // exited meanwhile
      }
    }
    try {
      rmdirSync(dir);
      return true;
    } catch (error) {
      if (error.code === 'ENOENT') return true;
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    }
  }
  return false;
}

/**
 * A quota cgroup for an end-to-end test that must run where it can: in CI always (a cgroup that
 * cannot be made there fails the test), and wherever this process is root on Linux with a cgroup
 * filesystem; elsewhere the test skips, saying why. `why` is null when the cgroup was made.
 * @param {number} cpus
 * @returns {{ quota: ReturnType<typeof makeQuotaCgroup>, why: string|null, mustRun: boolean }}
 */
export function quotaForTest(cpus) {
  const inCi = Boolean(process.env.CI) && !['0', 'false'].includes(process.env.CI);
  const mustRun = inCi || (process.platform === 'linux' && process.getuid?.() === 0 && existsSync('/sys/fs/cgroup'));
  const quota = makeQuotaCgroup(cpus);
  return { quota, why: 'skip' in quota ? quota.skip : null, mustRun };
}
