// The CPU budget over fixture trees: each case a small /proc and /sys written to a
// temp dir, read through readCpuBudget({ root }).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, mkdirSync, writeFileSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  readCpuBudget, parseCpuList, parseCpuStat, throttlingBetween, budgetWorkers, readCpuStat,
} from '../../src/machine/cpu-budget.js';
import { SMT_SIBLING_SHARE } from '../../src/base/thresholds.js';

const roots = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Writes { 'proc/self/status': text, ... } under a new temp dir; returns the dir. */
function tree(files) {
  const root = mkdtempSync(path.join(tmpdir(), 'cpu-budget-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    const full = path.join(root, file);
    mkdirSync(path.dirname(full), { recursive: true });
    writeFileSync(full, text);
  }
  return root;
}

/** A host of n CPUs, each its own core unless `siblings` maps cpu → its sibling list. */
function host(n, siblings = {}) {
  const files = { 'sys/devices/system/cpu/online': n === 1 ? '0\n' : `0-${n - 1}\n` };
  for (let cpu = 0; cpu < n; cpu++) files[`sys/devices/system/cpu/cpu${cpu}/topology/thread_siblings_list`] = `${siblings[cpu] ?? cpu}\n`;
  return files;
}

const status = (list) => `Name:\tnode\nCpus_allowed:\tff\nCpus_allowed_list:\t${list}\n`;

const V1_MOUNTS = [
  '31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw,mode=755',
  '32 31 0:29 / /sys/fs/cgroup/cpu,cpuacct rw,relatime - cgroup cgroup rw,cpu,cpuacct',
  '34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset',
].join('\n') + '\n';
const V2_MOUNTS = '41 23 0:38 / /sys/fs/cgroup rw,relatime - cgroup2 cgroup2 rw\n';
const HYBRID_MOUNTS = [
  '32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu',
  '34 31 0:31 / /sys/fs/cgroup/cpuset rw,relatime - cgroup cgroup rw,cpuset',
  '41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 cgroup2 rw',
].join('\n') + '\n';

const opts = (root) => ({ root, parallelism: 99, hostThreads: 99, platform: 'linux' });

test('cpu lists parse ranges and singles; junk is null', () => {
  assert.deepEqual(parseCpuList('0-3,8,10-11\n'), [0, 1, 2, 3, 8, 10, 11]);
  assert.deepEqual(parseCpuList('5'), [5]);
  assert.equal(parseCpuList(''), null);
  assert.equal(parseCpuList('a-b'), null);
  assert.equal(parseCpuList('3-1'), null);
});

test('cgroup v2 with cpu.max "max 100000": no quota, the host is the budget', () => {
  const root = tree({
    ...host(4),
    'proc/self/status': status('0-3'),
    'proc/self/cgroup': '0::/app.slice/app.service\n',
    'proc/self/mountinfo': V2_MOUNTS,
    'sys/fs/cgroup/app.slice/app.service/cpu.max': 'max 100000\n',
    'sys/fs/cgroup/app.slice/cpu.max': 'max 100000\n',
    'sys/fs/cgroup/app.slice/app.service/cpuset.cpus.effective': '0-3\n',
  });
  const cpu = readCpuBudget(opts(root));
  assert.equal(cpu.budget, 4);
  assert.equal(cpu.source, 'host');
  assert.equal(cpu.limits.quota, null);
  assert.equal(cpu.hostThreads, 4);
  assert.equal(cpu.physicalCores, 4);
  assert.equal(cpu.unreadable, null);
});

test('cgroup v2 with cpu.max "150000 100000": 1.5 CPUs from the quota, two workers', () => {
  const root = tree({
    ...host(4),
    'proc/self/status': status('0-3'),
    'proc/self/cgroup': '0::/pod\n',
    'proc/self/mountinfo': V2_MOUNTS,
    'sys/fs/cgroup/pod/cpu.max': '150000 100000\n',
  });
  const cpu = readCpuBudget(opts(root));
  assert.equal(cpu.budget, 1.5);
  assert.equal(cpu.source, 'quota');
  assert.equal(cpu.limits.quota.version, 2);
  assert.equal(cpu.limits.quota.cgroup, '/pod');
  assert.equal(cpu.limits.quota.dir, path.join(root, 'sys/fs/cgroup/pod'));
  assert.equal(budgetWorkers(cpu), 2);
  assert.equal(cpu.capacity, 1.5);
});

test('cgroup v1 with quota -1: no limit', () => {
  const root = tree({
    ...host(2),
    'proc/self/status': status('0-1'),
    'proc/self/cgroup': '4:cpuset:/\n3:cpu,cpuacct:/user.slice\n',
    'proc/self/mountinfo': V1_MOUNTS,
    'sys/fs/cgroup/cpu,cpuacct/user.slice/cpu.cfs_quota_us': '-1\n',
    'sys/fs/cgroup/cpu,cpuacct/user.slice/cpu.cfs_period_us': '100000\n',
    'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '-1\n',
    'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
    'sys/fs/cgroup/cpuset/cpuset.cpus': '0-1\n',
  });
  const cpu = readCpuBudget(opts(root));
  assert.equal(cpu.budget, 2);
  assert.equal(cpu.source, 'host');
  assert.equal(cpu.limits.quota, null);
  assert.equal(cpu.limits.cpuset, 2);
});

test('cgroup v1 with a real quota: 1.0 CPU, what docker --cpus=1 writes', () => {
  const root = tree({
    ...host(2),
    'proc/self/status': status('0-1'),
    'proc/self/cgroup': '3:cpu,cpuacct:/docker/abc\n',
    'proc/self/mountinfo': V1_MOUNTS,
    'sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '100000\n',
    'sys/fs/cgroup/cpu,cpuacct/docker/abc/cpu.cfs_period_us': '100000\n',
  });
  const cpu = readCpuBudget(opts(root));
  assert.equal(cpu.budget, 1);
  assert.equal(cpu.source, 'quota');
  assert.deepEqual({ ...cpu.limits.quota, dir: undefined }, { cpus: 1, quotaUs: 100000, periodUs: 100000, version: 1, cgroup: '/docker/abc', dir: undefined });
  assert.equal(budgetWorkers(cpu), 1);
});

test('a container without a cgroup namespace: its path is its mount root', () => {
  const root = tree({
    ...host(8),
    'proc/self/status': status('0-7'),
    'proc/self/cgroup': '3:cpu,cpuacct:/docker/abc\n',
    'proc/self/mountinfo': '32 31 0:29 /docker/abc /sys/fs/cgroup/cpu,cpuacct ro - cgroup cgroup rw,cpu,cpuacct\n',
    'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '250000\n',
    'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
  });
  const cpu = readCpuBudget(opts(root));
  assert.equal(cpu.budget, 2.5);
  assert.equal(budgetWorkers(cpu), 3);
});

test('a tighter quota on a parent than on the leaf wins (v2 and v1)', () => {
  const v2 = tree({
    ...host(8),
    'proc/self/status': status('0-7'),
    'proc/self/cgroup': '0::/kubepods/pod1/ctr\n',
    'proc/self/mountinfo': V2_MOUNTS,
    'sys/fs/cgroup/kubepods/pod1/ctr/cpu.max': '400000 100000\n',
    'sys/fs/cgroup/kubepods/pod1/cpu.max': '50000 100000\n',
    'sys/fs/cgroup/kubepods/cpu.max': 'max 100000\n',
  });
  const a = readCpuBudget(opts(v2));
  assert.equal(a.budget, 0.5);
  assert.equal(a.limits.quota.cgroup, '/kubepods/pod1');
  assert.equal(budgetWorkers(a), 1);

  const v1 = tree({
    ...host(4),
    'proc/self/status': status('0-3'),
    'proc/self/cgroup': '3:cpu,cpuacct:/parent/leaf\n',
    'proc/self/mountinfo': V1_MOUNTS,
    'sys/fs/cgroup/cpu,cpuacct/parent/leaf/cpu.cfs_quota_us': '300000\n',
    'sys/fs/cgroup/cpu,cpuacct/parent/leaf/cpu.cfs_period_us': '100000\n',
    'sys/fs/cgroup/cpu,cpuacct/parent/cpu.cfs_quota_us': '150000\n',
    'sys/fs/cgroup/cpu,cpuacct/parent/cpu.cfs_period_us': '100000\n',
  });
  const b = readCpuBudget(opts(v1));
  assert.equal(b.budget, 1.5);
  assert.equal(b.limits.quota.cgroup, '/parent');
});

test('a cpuset narrower than the affinity sets the budget', () => {
  const root = tree({
    ...host(8),
    'proc/self/status': status('0-7'),
    'proc/self/cgroup': '4:cpuset:/pinned\n3:cpu,cpuacct:/\n',
    'proc/self/mountinfo': V1_MOUNTS,
    'sys/fs/cgroup/cpuset/pinned/cpuset.cpus': '2-4\n',
    'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us': '-1\n',
    'sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us': '100000\n',
  });
  const cpu = readCpuBudget(opts(root));
  assert.equal(cpu.budget, 3);
  assert.equal(cpu.source, 'cpuset');
  assert.deepEqual(cpu.cpus, [2, 3, 4]);
  assert.equal(cpu.limits.affinity, 8);
});

test('an affinity narrower than the cpuset (taskset -c 0) sets the budget', () => {
  const root = tree({
    ...host(2),
    'proc/self/status': status('0'),
    'proc/self/cgroup': '4:cpuset:/\n',
    'proc/self/mountinfo': V1_MOUNTS,
    'sys/fs/cgroup/cpuset/cpuset.cpus': '0-1\n',
  });
  const cpu = readCpuBudget(opts(root));
  assert.equal(cpu.budget, 1);
  assert.equal(cpu.source, 'affinity');
  assert.equal(cpu.hostThreads, 2);
});

test('hybrid host: a v1 quota is read though a v2 tree is mounted too (libuv misses it)', () => {
  const root = tree({
    ...host(2),
    'proc/self/status': status('0-1'),
    'proc/self/cgroup': '9:name=systemd:/\n3:cpuset:/\n1:cpu:/bench\n0::/\n',
    'proc/self/mountinfo': HYBRID_MOUNTS,
    'sys/fs/cgroup/cpu/bench/cpu.cfs_quota_us': '100000\n',
    'sys/fs/cgroup/cpu/bench/cpu.cfs_period_us': '100000\n',
    'sys/fs/cgroup/cpu/cpu.cfs_quota_us': '-1\n',
    'sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000\n',
    'sys/fs/cgroup/cpuset/cpuset.cpus': '0-1\n',
    'sys/fs/cgroup/unified/cgroup.controllers': '\n',
  });
  const cpu = readCpuBudget(opts(root));
  assert.equal(cpu.budget, 1);
  assert.equal(cpu.source, 'quota');
  assert.equal(cpu.limits.quota.version, 1);
  assert.equal(cpu.limits.quota.cgroup, '/bench');
});

test('no cgroup filesystem: the affinity, and the reason it could not read more', () => {
  const root = tree({ ...host(4), 'proc/self/status': status('0-3'), 'proc/self/cgroup': '0::/\n', 'proc/self/mountinfo': '22 1 8:1 / / rw - ext4 /dev/sda1 rw\n' });
  const cpu = readCpuBudget(opts(root));
  assert.equal(cpu.budget, 4);
  assert.equal(cpu.source, 'host');
  assert.equal(cpu.unreadable.reason, 'no-cgroup-fs');
});

test('no /proc, and not Linux: availableParallelism(), said so', () => {
  const none = readCpuBudget({ root: tree({}), parallelism: 6, hostThreads: 8, platform: 'linux' });
  assert.equal(none.budget, 6);
  assert.equal(none.source, 'affinity');
  assert.equal(none.unreadable.reason, 'no-proc');
  const mac = readCpuBudget({ root: '/', parallelism: 8, hostThreads: 8, platform: 'darwin' });
  assert.deepEqual([mac.budget, mac.source, mac.unreadable.reason], [8, 'host', 'not-linux']);
});

test('a quota file it may not read: the budget without it, and permission named', () => {
  const root = tree({
    ...host(2),
    'proc/self/status': status('0-1'),
    'proc/self/cgroup': '1:cpu:/locked\n',
    'proc/self/mountinfo': HYBRID_MOUNTS,
    'sys/fs/cgroup/cpu/locked/cpu.cfs_quota_us': '50000\n',
    'sys/fs/cgroup/cpu/locked/cpu.cfs_period_us': '100000\n',
  });
  chmodSync(path.join(root, 'sys/fs/cgroup/cpu/locked/cpu.cfs_quota_us'), 0);
  // Root reads a file of mode 0 anyway: there the read runs as nobody.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) chmodSync(root, 0o755);
  const script = `import { readCpuBudget } from ${JSON.stringify(new URL('../../src/machine/cpu-budget.js', import.meta.url).href)};
    process.stdout.write(JSON.stringify(readCpuBudget(${JSON.stringify(opts(root))})));`;
  const cpu = asRoot
    ? JSON.parse(spawnSync(process.execPath, ['--input-type=module', '-e', script], { uid: 65534, gid: 65534, encoding: 'utf8' }).stdout)
    : readCpuBudget(opts(root));
  assert.equal(cpu.budget, 2);
  assert.equal(cpu.unreadable.reason, 'permission');
});

test('SMT topology, 2 threads per core: 4 cores, 8 threads; siblings count as a share of a core', () => {
  // Linux numbers the first thread of each core 0-3 and their siblings 4-7.
  const siblings = Object.fromEntries(Array.from({ length: 8 }, (_, cpu) => [cpu, `${cpu % 4},${(cpu % 4) + 4}`]));
  const root = tree({ ...host(8, siblings), 'proc/self/status': status('0-7'), 'proc/self/cgroup': '0::/\n', 'proc/self/mountinfo': V2_MOUNTS });
  const cpu = readCpuBudget(opts(root));
  assert.deepEqual([cpu.budget, cpu.hostThreads, cpu.physicalCores], [8, 8, 4]);
  assert.deepEqual(cpu.smt, { threadsPerCore: 2, siblingShare: SMT_SIBLING_SHARE });
  assert.equal(cpu.capacity, 4 + 4 * SMT_SIBLING_SHARE);

  // A 3-CPU quota on it runs on three whole cores.
  const quota = tree({ ...host(8, siblings), 'proc/self/status': status('0-7'), 'proc/self/cgroup': '0::/q\n', 'proc/self/mountinfo': V2_MOUNTS, 'sys/fs/cgroup/q/cpu.max': '300000 100000' });
  assert.equal(readCpuBudget(opts(quota)).capacity, 3);
});

test('hybrid P/E topology (i7-13700): 16 cores, 24 threads', () => {
  // 8 P-cores with two threads each (cpus 0-15, pairs 2k/2k+1), 8 E-cores with one (16-23).
  const siblings = {};
  for (let cpu = 0; cpu < 16; cpu++) siblings[cpu] = `${cpu - (cpu % 2)}-${cpu - (cpu % 2) + 1}`;
  const root = tree({ ...host(24, siblings), 'proc/self/status': status('0-23'), 'proc/self/cgroup': '0::/\n', 'proc/self/mountinfo': V2_MOUNTS });
  const cpu = readCpuBudget(opts(root));
  assert.deepEqual([cpu.budget, cpu.hostThreads, cpu.physicalCores, cpu.source], [24, 24, 16, 'host']);
  assert.equal(cpu.smt.threadsPerCore, 2);
  assert.equal(cpu.capacity, 16 + 8 * SMT_SIBLING_SHARE);
});

test('throttling from two cpu.stat reads, v1 and v2', () => {
  const v1a = parseCpuStat('nr_periods 100\nnr_throttled 10\nthrottled_time 500000000\nnr_bursts 0\nburst_time 0\n');
  const v1b = parseCpuStat('nr_periods 140\nnr_throttled 45\nthrottled_time 2100000000\nnr_bursts 0\nburst_time 0\n');
  assert.deepEqual(throttlingBetween(v1a, v1b, 4000), { periods: 40, throttledPeriods: 35, fraction: 35 / 40, throttledMs: 1600, usageCpus: null });

  const v2a = parseCpuStat('usage_usec 1000000\nuser_usec 600000\nsystem_usec 400000\nnr_periods 10\nnr_throttled 0\nthrottled_usec 0\n');
  const v2b = parseCpuStat('usage_usec 3000000\nuser_usec 1800000\nsystem_usec 1200000\nnr_periods 30\nnr_throttled 18\nthrottled_usec 900000\n');
  const t = throttlingBetween(v2a, v2b, 2000);
  assert.equal(t.fraction, 0.9);
  assert.equal(t.throttledMs, 900);
  assert.equal(t.usageCpus, 1);

  assert.equal(throttlingBetween(v1a, v1a, 1000).fraction, null, 'no period ran: no fraction, not 0');
  assert.equal(parseCpuStat('usage_usec 5\n'), null, 'a cpu.stat without a quota\'s counters');
});

test('readCpuStat adds cpuacct.usage beside a v1 cpu.stat', () => {
  const root = tree({ 'g/cpu.stat': 'nr_periods 3\nnr_throttled 1\nthrottled_time 1000\n', 'g/cpuacct.usage': '2000000\n' });
  assert.deepEqual(readCpuStat(path.join(root, 'g')), { periods: 3, throttledPeriods: 1, throttledUs: 1, usageUs: 2000 });
  assert.equal(readCpuStat(path.join(root, 'missing')), null);
});

test('this machine: a budget, a source, and the host threads', () => {
  const cpu = readCpuBudget();
  assert.ok(cpu.budget > 0 && cpu.budget <= cpu.hostThreads);
  assert.ok(['quota', 'cpuset', 'affinity', 'host'].includes(cpu.source));
});
