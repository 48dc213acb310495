/**
 * The CPU budget a process really has: the smallest of its affinity, its cpuset and
 * the CPU quota of its cgroup and of every ancestor (cgroup v1, v2, or both on a
 * hybrid host), fractional (1.5 CPUs is real), with what set it. Plus the host's
 * topology: hardware threads, physical cores, and what a sibling thread adds.
 *
 * Pure over a root directory: every file is read as `<root>/proc/...` or
 * `<root>/sys/...`, so tests hand it fixture trees. Synchronous, small reads
 * (~20 files, well under a millisecond): sizing defaults need it before any
 * promise exists (`--help` prints the default pool size).
 *
 * Node does not help: Node 20's libuv ignores cgroups; libuv ≥ 1.49.1 reads a
 * quota but floors it (1.5 → 1) and misses a v1 quota on a host that mounts both
 * cgroup versions (issue #26).
 */
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SMT_SIBLING_SHARE } from '../base/thresholds.js';

/**
 * @typedef {object} CpuQuota
 * @property {number} cpus       quota ÷ period
 * @property {number} quotaUs
 * @property {number} periodUs
 * @property {1|2} version       cgroup version of the file it came from
 * @property {string} cgroup     the cgroup path that sets it (the leaf or an ancestor)
 * @property {string} dir        its directory, as read (under root); its cpu.stat says how often it throttled
 */

/**
 * @typedef {object} CpuBudget
 * @property {number} budget            CPUs this process can use at once (fractional)
 * @property {'quota'|'cpuset'|'affinity'|'host'} source what set it
 * @property {number} hostThreads       the host's online hardware threads
 * @property {number|null} physicalCores the host's physical cores (null: topology unreadable)
 * @property {number} capacity          the budget in core-equivalents: a sibling thread counts SMT_SIBLING_SHARE of a core
 * @property {number[]} cpus            the CPUs it may run on (affinity ∩ cpuset)
 * @property {{ quota: CpuQuota|null, cpuset: number|null, affinity: number|null }} limits each limit found
 * @property {{ threadsPerCore: number, siblingShare: number }|null} smt  null: no SMT among its CPUs
 * @property {{ reason: 'not-linux'|'no-proc'|'no-cgroup-fs'|'permission', detail: string }|null} unreadable
 *   why the cgroup limits could not be read (then the budget is availableParallelism()'s)
 * @property {boolean} [server] the budget is the server's CPUs (its own affinity or cpuset, narrower than spawnbench's)
 */

/**
 * Reads the CPU budget of a process.
 * @param {object} [options]
 * @param {string} [options.root] where /proc and /sys are (fixture trees in tests)
 * @param {number|'self'} [options.pid] whose budget (another process's cgroup, our mounts)
 * @param {number} [options.parallelism] availableParallelism(): the fallback and the affinity when /proc is unreadable
 * @param {number} [options.hostThreads] os.cpus().length: the host when sysfs is unreadable
 * @param {string} [options.platform]
 * @returns {CpuBudget}
 */
export function readCpuBudget({
  root = '/', pid = 'self', parallelism = os.availableParallelism(), hostThreads = os.cpus().length || parallelism, platform = process.platform,
} = {}) {
  const read = Object.assign((file) => readText(path.join(root, file)), { root });
  if (platform !== 'linux') return fallback({ parallelism, hostThreads, reason: 'not-linux', detail: `no cgroups on ${platform}` });
  const status = read(`proc/${pid}/status`);
  if (status.text === null) return fallback({ parallelism, hostThreads, reason: 'no-proc', detail: `cannot read /proc/${pid}/status (${status.code})` });

  const online = parseCpuList(read('sys/devices/system/cpu/online').text ?? '') ?? range(hostThreads);
  const allowedLine = /^Cpus_allowed_list:\s*(\S+)/m.exec(status.text)?.[1];
  const affinity = intersect(parseCpuList(allowedLine ?? '') ?? range(parallelism), online);

  const groups = readCgroups(read, pid);
  const cpusetCpus = groups.cpusetDir ? readCpuset(read, groups) : null;
  const quota = groups.quotaDirs.length ? tightestQuota(read, groups.quotaDirs) : { quota: null, denied: null };
  const cpus = cpusetCpus ? intersect(affinity, cpusetCpus) : affinity;
  const topology = readTopology(read, online);

  const quotaCpus = quota.quota?.cpus ?? Infinity;
  const budget = Math.max(Math.min(cpus.length, quotaCpus), MIN_BUDGET);
  const cpusetCount = cpusetCpus ? intersect(cpusetCpus, online).length : Infinity;
  // The tightest names it; a quota level with the CPUs in reach is still the quota (it is what throttles).
  /** @type {CpuBudget['source']} */
  const source = budget >= online.length ? 'host' : quotaCpus <= cpus.length ? 'quota' : cpusetCount <= affinity.length ? 'cpuset' : 'affinity';
  /** @type {CpuBudget['unreadable']} */
  let unreadable = null;
  if (!groups.found) unreadable = { reason: 'no-cgroup-fs', detail: groups.detail };
  else if (quota.denied) unreadable = { reason: 'permission', detail: quota.denied };
  return {
    budget,
    source,
    hostThreads: online.length,
    physicalCores: topology ? topology.cores.size : null,
    capacity: capacityOf(budget, cpus, topology),
    cpus,
    limits: { quota: quota.quota, cpuset: cpusetCpus ? cpusetCpus.length : null, affinity: affinity.length },
    smt: smtOf(cpus, topology),
    unreadable,
  };
}

/** A quota below this (CPUs) is read as this: a 1 ms per 100 ms quota still runs, and every division by the budget stays finite. */
const MIN_BUDGET = 0.01;

let own = null;

/**
 * This process's budget, read once: what sizes every default (pool, sweep, `--help`).
 * @returns {CpuBudget}
 */
export function ownCpuBudget() {
  own ??= readCpuBudget();
  return own;
}

/**
 * Whole workers for a budget: a fractional budget rounds up (1.5 CPUs keep two workers busy part of the time).
 * @param {{ budget: number }} cpu
 */
export function budgetWorkers(cpu) {
  return Math.max(1, Math.ceil(cpu.budget - 1e-9));
}

/**
 * The budget of a process whose /proc and /sys we can read directly: another
 * process (the server) may sit in another cgroup than spawnbench.
 * @param {number} pid
 */
export function processCpuBudget(pid) {
  return readCpuBudget({ pid });
}

/**
 * The run's budget as the server has it: a server outside spawnbench's quota has its own; a server started on fewer CPUs than spawnbench
 * (`run -- taskset -c 0 node server.js`, a cpuset of its own) can use only those. The advice
 * used to size it on spawnbench's: "2 cores serve at most …", "a larger pool will help", for
 * a pool of two on one CPU. A server on more CPUs than spawnbench (outside its quota, or with an affinity it widened)
 * has its own, wider budget. A quota stays spawnbench's view (the throttling says the server's).
 * @param {CpuBudget} own spawnbench's budget
 * @param {CpuBudget|null} server the server's (readCpuBudget({ pid })), null when unread
 * @returns {CpuBudget}
 */
export function narrowToServer(own, server) {
  if (!server || server.unreadable?.reason === 'no-proc' || server.unreadable?.reason === 'not-linux') return own;
  // spawnbench's quota, which a server in another cgroup is not under (it moved itself out, or was started in
  // another): its own budget, wider. "0.3 CPU (cgroup quota) ran at 129% of what they allow" was said of one.
  // So too a server that widened the affinity it inherited (`taskset -c 0 spawnbench … -- taskset -c 0,1 node cluster.js`):
  // "1 CPU (CPU affinity) serves at most ~961 req/s" was said beside the 1,513 req/s its two CPUs served.
  const ownQuota = own.limits.quota;
  const ownQuotaBinds = own.source === 'quota' && ownQuota && server.limits.quota?.dir === ownQuota.dir;
  if (!ownQuotaBinds && server.budget > own.budget + 1e-9) {
    return { ...server, physicalCores: own.physicalCores ?? server.physicalCores, server: true };
  }
  const count = server.cpus.length;
  // Fewer CPUs than spawnbench's budget, or as many but other ones (`taskset -c 1 spawnbench … -- taskset -c 0 …`:
  // the cores' busy share was read on CPU 1, the generator's, while the server filled CPU 0).
  const within = server.cpus.every((cpu) => own.cpus.includes(cpu));
  if (!(count >= 1) || count > own.budget + 1e-9 || (within && count >= own.budget - 1e-9)) return own;
  const source = server.limits.cpuset !== null && server.limits.cpuset <= (server.limits.affinity ?? Infinity) ? 'cpuset' : 'affinity';
  return {
    ...own,
    budget: count,
    source,
    // The server's capacity is for its own budget: its quota may be tighter than its CPUs (that quota's throttling says so).
    capacity: server.budget >= count - 1e-9 ? server.capacity : count,
    cpus: server.cpus,
    limits: { ...own.limits, cpuset: server.limits.cpuset, affinity: server.limits.affinity },
    smt: server.smt,
    server: true,
  };
}

/**
 * A server's budget, or null when it cannot be read (it exited, /proc is not there).
 * @param {number} pid
 * @returns {CpuBudget|null}
 */
export function readServerCpu(pid) {
  try {
    return processCpuBudget(pid);
  } catch {
    return null;
  }
}

/**
 * "0-3,8,10-11" → [0, 1, 2, 3, 8, 10, 11]; null for text that is not a CPU list.
 * @param {string} text
 * @returns {number[]|null}
 */
export function parseCpuList(text) {
  const trimmed = text.trim();
  if (trimmed === '') return null;
  const cpus = new Set();
  for (const part of trimmed.split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) return null;
    const from = Number(match[1]);
    const to = match[2] === undefined ? from : Number(match[2]);
    if (to < from || to - from > 65536) return null;
    for (let n = from; n <= to; n++) cpus.add(n);
  }
  return [...cpus].sort((a, b) => a - b);
}

/**
 * One cpu.stat, as numbers: v1 `nr_periods nr_throttled throttled_time` (ns),
 * v2 the same with `throttled_usec` and `usage_usec`.
 * @param {string} text
 * @returns {{ periods: number, throttledPeriods: number, throttledUs: number, usageUs: number|null }|null}
 */
export function parseCpuStat(text) {
  const fields = Object.fromEntries(text.split('\n').map((line) => line.trim().split(/\s+/)).filter((f) => f.length === 2).map(([k, v]) => [k, Number(v)]));
  if (!Number.isFinite(fields.nr_periods) || !Number.isFinite(fields.nr_throttled)) return null;
  const throttledUs = Number.isFinite(fields.throttled_usec) ? fields.throttled_usec : Number.isFinite(fields.throttled_time) ? fields.throttled_time / 1000 : 0;
  return { periods: fields.nr_periods, throttledPeriods: fields.nr_throttled, throttledUs, usageUs: Number.isFinite(fields.usage_usec) ? fields.usage_usec : null };
}

/**
 * Throttling between two reads of one cpu.stat.
 * @param {ReturnType<typeof parseCpuStat>} before
 * @param {ReturnType<typeof parseCpuStat>} after
 * @param {number} wallMs time between the two reads
 * @returns {{ periods: number, throttledPeriods: number, fraction: number|null, throttledMs: number, usageCpus: number|null }|null}
 *   fraction: throttled periods ÷ periods (null: no period ran); usageCpus: CPUs used on average (v2, or v1 with cpuacct.usage)
 */
export function throttlingBetween(before, after, wallMs) {
  if (!before || !after) return null;
  const periods = after.periods - before.periods;
  const throttledPeriods = after.throttledPeriods - before.throttledPeriods;
  if (periods < 0 || throttledPeriods < 0) return null;
  const usage = before.usageUs !== null && after.usageUs !== null && wallMs > 0 ? (after.usageUs - before.usageUs) / 1000 / wallMs : null;
  return {
    periods,
    throttledPeriods,
    fraction: periods > 0 ? throttledPeriods / periods : null,
    throttledMs: Math.max(0, after.throttledUs - before.throttledUs) / 1000,
    usageCpus: usage !== null && usage >= 0 ? usage : null,
  };
}

/**
 * Reads a quota directory's cpu.stat (and, on cgroup v1 with cpuacct mounted beside cpu, cpuacct.usage).
 * @param {string} dir CpuQuota.dir
 */
export function readCpuStat(dir) {
  const stat = readText(path.join(dir, 'cpu.stat')).text;
  const parsed = stat === null ? null : parseCpuStat(stat);
  if (parsed && parsed.usageUs === null) {
    const usage = Number(readText(path.join(dir, 'cpuacct.usage')).text);
    if (Number.isFinite(usage) && usage > 0) parsed.usageUs = usage / 1000;
  }
  return parsed;
}

// ── cgroups ──────────────────────────────────────────────────────────────────

/**
 * Where the process's cpu and cpuset cgroups are, as directories under root:
 * `/proc/<pid>/cgroup` names the paths, `/proc/self/mountinfo` where each
 * hierarchy is mounted and from which of its paths.
 */
function readCgroups(read, pid) {
  const none = (detail) => ({ found: false, detail, quotaDirs: [], cpusetDir: null, cpusetVersion: null });
  const own = read(`proc/${pid}/cgroup`);
  const mountinfo = read('proc/self/mountinfo');
  if (own.text === null) return none(`cannot read /proc/${pid}/cgroup (${own.code})`);
  if (mountinfo.text === null) return none(`cannot read /proc/self/mountinfo (${mountinfo.code})`);
  const mounts = parseMountinfo(mountinfo.text);
  if (mounts.length === 0) return none('no cgroup filesystem mounted');
  const entries = own.text.split('\n').map((line) => /^(\d+):([^:]*):(.*)$/.exec(line)).filter(Boolean)
    .map(([, id, controllers, cgroupPath]) => ({ id, controllers: controllers.split(',').filter(Boolean), path: cgroupPath }));

  const quotaDirs = [];
  let cpusetDir = null;
  let cpusetVersion = null;
  const v1 = (controller) => {
    const entry = entries.find((e) => e.controllers.includes(controller));
    const mount = mounts.find((m) => m.type === 'cgroup' && m.controllers.includes(controller));
    return entry && mount ? dirIn(mount, entry.path) : null;
  };
  const cpuV1 = v1('cpu');
  if (cpuV1) quotaDirs.push({ ...cpuV1, version: 1 });
  const cpusetV1 = v1('cpuset');
  if (cpusetV1) [cpusetDir, cpusetVersion] = [cpusetV1, 1];
  const unified = entries.find((e) => e.id === '0' && e.controllers.length === 0);
  const mount2 = mounts.find((m) => m.type === 'cgroup2');
  if (unified && mount2) {
    const dir = dirIn(mount2, unified.path);
    quotaDirs.push({ ...dir, version: 2 });
    if (!cpusetDir) [cpusetDir, cpusetVersion] = [dir, 2];
  }
  if (quotaDirs.length === 0 && !cpusetDir) return none('no cpu or cpuset cgroup for this process');
  return { found: true, detail: null, quotaDirs, cpusetDir, cpusetVersion };
}

/** mountinfo lines of cgroup filesystems: `id parent major:minor root mountpoint opts … - type source superopts`. */
function parseMountinfo(text) {
  const mounts = [];
  for (const line of text.split('\n')) {
    const fields = line.split(' ');
    const dash = fields.indexOf('-');
    if (dash < 0) continue;
    const type = fields[dash + 1];
    if (type !== 'cgroup' && type !== 'cgroup2') continue;
    mounts.push({ type, root: unescape(fields[3]), point: unescape(fields[4]), controllers: (fields[dash + 3] ?? '').split(',') });
  }
  return mounts;
}

/** Octal escapes of mountinfo (`\040` is a space). */
function unescape(field) {
  return field.replace(/\\([0-7]{3})/g, (_, octal) => String.fromCharCode(parseInt(octal, 8)));
}

/**
 * The directory of a cgroup path in a mount, and the mount point it may climb to.
 * A container without a cgroup namespace sees its host path (/docker/<id>) while
 * its mount root is that same path: the part below the mount root is what is left.
 * A path outside the mount's root (another namespace's view) is read at the mount point.
 */
function dirIn(mount, cgroupPath) {
  const rel = mount.root === '/' ? cgroupPath : cgroupPath === mount.root || cgroupPath.startsWith(`${mount.root}/`) ? cgroupPath.slice(mount.root.length) : '/';
  return { top: mount.point, rel: path.posix.normalize(`/${rel}`) };
}

/** Every quota from the leaf up to the mount's top; the tightest wins. */
function tightestQuota(read, quotaDirs) {
  /** @type {CpuQuota|null} */
  let best = null;
  let denied = null;
  for (const { top, rel, version } of quotaDirs) {
    for (let at = rel; ; at = path.posix.dirname(at)) {
      const dir = path.posix.join(top, at);
      const found = version === 1 ? readV1Quota(read, dir) : readV2Quota(read, dir);
      if (found !== null && 'denied' in found) denied ??= found.denied;
      else if (found !== null && 'cpus' in found && (!best || found.cpus < best.cpus)) best = { ...found, version, cgroup: at, dir: path.join(readRoot(read), dir) };
      if (at === '/') break;
    }
  }
  return { quota: best, denied };
}

/** @returns {{ denied: string } | { cpus: number, quotaUs: number, periodUs: number } | null} */
function readV1Quota(read, dir) {
  const quota = read(path.posix.join(dir, 'cpu.cfs_quota_us'));
  if (quota.code === 'EACCES' || quota.code === 'EPERM') return { denied: `cannot read ${dir}/cpu.cfs_quota_us (${quota.code})` };
  const quotaUs = Number(quota.text);
  const periodUs = Number(read(path.posix.join(dir, 'cpu.cfs_period_us')).text);
  return quota.text !== null && quotaUs > 0 && periodUs > 0 ? { cpus: quotaUs / periodUs, quotaUs, periodUs } : null;
}

/** @returns {{ denied: string } | { cpus: number, quotaUs: number, periodUs: number } | null} */
function readV2Quota(read, dir) {
  const max = read(path.posix.join(dir, 'cpu.max'));
  if (max.code === 'EACCES' || max.code === 'EPERM') return { denied: `cannot read ${dir}/cpu.max (${max.code})` };
  const [quota, period] = (max.text ?? '').trim().split(/\s+/);
  const quotaUs = Number(quota);
  const periodUs = Number(period ?? 100000);
  return quota !== 'max' && quotaUs > 0 && periodUs > 0 ? { cpus: quotaUs / periodUs, quotaUs, periodUs } : null;
}

/** The cpuset's CPUs: v1 effective_cpus (or cpus), v2 cpuset.cpus.effective; null when not there. */
function readCpuset(read, { cpusetDir, cpusetVersion }) {
  const dir = path.posix.join(cpusetDir.top, cpusetDir.rel);
  const names = cpusetVersion === 1 ? ['cpuset.effective_cpus', 'cpuset.cpus'] : ['cpuset.cpus.effective'];
  for (const name of names) {
    const cpus = parseCpuList(read(path.posix.join(dir, name)).text ?? '');
    if (cpus) return cpus;
  }
  return null;
}

// ── topology ─────────────────────────────────────────────────────────────────

/** Each online CPU's core, by its thread_siblings_list (core_cpus_list on newer kernels); null when unreadable. */
function readTopology(read, online) {
  const coreOf = new Map();
  for (const cpu of online) {
    const base = `sys/devices/system/cpu/cpu${cpu}/topology`;
    const siblings = read(`${base}/thread_siblings_list`).text ?? read(`${base}/core_cpus_list`).text;
    const list = siblings === null ? null : parseCpuList(siblings);
    if (!list) return null;
    coreOf.set(cpu, list.join(','));
  }
  return { coreOf, cores: new Set(coreOf.values()) };
}

/**
 * The budget in core-equivalents. The scheduler spreads busy threads over idle
 * cores before it doubles them up on siblings, so the first CPUs of a budget are
 * whole cores and only what is past the cores in reach runs on second threads,
 * each worth SMT_SIBLING_SHARE of a core.
 */
function capacityOf(budget, cpus, topology) {
  if (!topology) return budget;
  const threadsOn = new Map();
  for (const cpu of cpus) {
    const core = topology.coreOf.get(cpu);
    if (core !== undefined) threadsOn.set(core, (threadsOn.get(core) ?? 0) + 1);
  }
  const cores = threadsOn.size;
  if (cores === 0) return budget;
  const siblings = [...threadsOn.values()].reduce((sum, n) => sum + n - 1, 0);
  if (budget <= cores) return budget;
  return cores + Math.min(budget - cores, siblings) * SMT_SIBLING_SHARE;
}

function smtOf(cpus, topology) {
  if (!topology) return null;
  const threadsOn = new Map();
  for (const cpu of cpus) {
    const core = topology.coreOf.get(cpu);
    threadsOn.set(core, (threadsOn.get(core) ?? 0) + 1);
  }
  const threadsPerCore = Math.max(1, ...[...topology.cores].map((core) => core.split(',').length));
  return threadsPerCore > 1 ? { threadsPerCore, siblingShare: SMT_SIBLING_SHARE } : null;
}

// ── helpers ──────────────────────────────────────────────────────────────────

/**
 * @param {{ parallelism: number, hostThreads: number, reason: 'not-linux'|'no-proc', detail: string }} options
 * @returns {CpuBudget}
 */
function fallback({ parallelism, hostThreads, reason, detail }) {
  const budget = Math.max(1, parallelism);
  return {
    budget,
    source: budget >= hostThreads ? 'host' : 'affinity',
    hostThreads: Math.max(hostThreads, budget),
    physicalCores: null,
    capacity: budget,
    cpus: range(budget),
    limits: { quota: null, cpuset: null, affinity: budget },
    smt: null,
    unreadable: { reason, detail },
  };
}

function readText(file) {
  try {
    return { text: readFileSync(file, 'utf8'), code: null };
  } catch (error) {
    return { text: null, code: error.code ?? 'EIO' };
  }
}

/** The root the reader was made for (quota directories are named as paths a later read can open). */
function readRoot(read) {
  return read.root;
}

function intersect(a, b) {
  const keep = new Set(b);
  return a.filter((n) => keep.has(n));
}

function range(n) {
  return Array.from({ length: Math.max(1, n) }, (_, i) => i);
}
