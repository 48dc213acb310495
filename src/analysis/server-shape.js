/**
 * The shape of a user's server as its process tree shows it: which process is
 * the server (the one that listens on the port, below any launcher such as npm,
 * npx, a shell or a script that `exec`s), which processes are its workers
 * (node:cluster workers and `child_process.fork` children: the ones with an IPC
 * channel), how many worker threads the probe saw in it, and libuv's pool
 * threads. A cluster primary with 4 workers is size 4 even when nothing names it.
 * Pure: a snapshot of /proc in (runner/server-tree.js reads it), the shape out.
 */
import { isFiniteNumber } from './stats.js';

/**
 * @typedef {object} TreeProcess one process of the server's group, as /proc shows it
 * @property {number} pid
 * @property {number} ppid
 * @property {string} comm          /proc/<pid>/comm ('node', 'npm start', 'sh')
 * @property {string[]} argv        /proc/<pid>/cmdline
 * @property {boolean} listens      holds a listening socket on the server's port
 * @property {number[]} [otherPorts] the other ports it listens on
 * @property {boolean} clusterWorker NODE_UNIQUE_ID in its environment (node:cluster, PM2's cluster mode)
 * @property {boolean} ipc          NODE_CHANNEL_FD in its environment (child_process.fork, cluster)
 * @property {string|null} schedPolicy NODE_CLUSTER_SCHED_POLICY in its environment
 * @property {{ count: number, cpuTicks: number }} poolThreads its libuv pool threads ('libuv-worker') and their CPU so far
 */

/**
 * @typedef {object} ServerShape
 * @property {number|null} pid       the server: the topmost process that listens on the port
 * @property {Array<{ pid: number, name: string }>} launchers the processes between spawnbench and the server
 * @property {number[]} workers      its worker processes (IPC children, cluster workers), at any depth below it
 * @property {number} threads        worker threads the probe saw in the server's own process
 * @property {'cluster'|'processes'|'threads'|'single'} kind
 * @property {string|null} clusterPolicy node:cluster's scheduling policy in the server's environment (null: the default, rr on Linux)
 * @property {number[]} [otherPorts] ports the server and its workers listen on besides the one measured (an admin port,
 *   or a port per worker)
 * @property {{ count: number, cpuTicks: number, cpuPct?: number|null, share?: number|null, from?: 'other-threads', size?: number }} poolThreads
 *   libuv pool threads of the server and its workers; `cpuPct` their CPU (% of one core) over the measured
 *   phase, `share` that of the server's own CPU, `from` where the sampler's other-threads figure was used,
 *   `size` UV_THREADPOOL_SIZE as the server's process has it (libuv's default 4 when unset)
 * @property {{ count: number, cpuPct: number }} [vipsThreads] libvips's threads (sharp), where seen
 */

/**
 * @typedef {{ count: number, cpuPct?: number|null }} ThreadCount some threads of a process, and their CPU (% of one core)
 * @typedef {ThreadCount & { poolSize?: number|null, kinds?: Record<string, ThreadCount> }} OtherThreadFigures
 *   a process's threads outside its event loops (the sampler's `otherThreads`): in all and by kind
 *   (src/sample/thread-kinds.js; a result from before the kinds has none), and the pool size it started with
 * @typedef {{ pid: number, role?: string, summary?: { cpuPct?: number|null, otherThreads?: OtherThreadFigures|null }|null }} SampledProcess
 *   one of the sampler summary's processes, as withOtherThreads reads it
 */

/**
 * @param {TreeProcess[]} tree the processes of the server's group
 * @param {{ rootPid: number, threads?: number }} options `threads`: worker threads the probe saw in the server
 * @returns {ServerShape}
 */
export function serverShape(tree, { rootPid, threads = 0 }) {
  const byPid = new Map(tree.map((p) => [p.pid, p]));
  /** @param {TreeProcess} p */
  const depth = (p) => {
    let d = 0;
    for (let at = /** @type {TreeProcess|undefined} */ (p); at && at.pid !== rootPid && d < tree.length; at = byPid.get(at.ppid)) d++;
    return d;
  };
  const listening = tree.filter((p) => p.listens).sort((a, b) => depth(a) - depth(b));
  const server = listening[0] ?? byPid.get(rootPid) ?? null;
  const launchers = [];
  for (let at = server && byPid.get(server.ppid); at; at = byPid.get(at.ppid)) {
    launchers.unshift({ pid: at.pid, name: launcherName(at) });
    if (at.pid === rootPid) break;
  }
  const below = server ? descendants(tree, server.pid) : [];
  const withChannel = below.filter((p) => p.ipc || p.clusterWorker);
  const channelPids = new Set(withChannel.map((p) => p.pid));
  // A worker's child caught between fork and exec (the worker spawning a command) still
  // shows the worker's environment, channel variables included, and its command line: it
  // is not a worker of its own (seen: 3 workers for --workers 2 on a loaded machine).
  const workers = withChannel.filter((p) => !(channelPids.has(p.ppid) && sameArgv(p, byPid.get(p.ppid))));
  const pool = [server, ...workers].filter(Boolean).reduce((sum, p) => ({ count: sum.count + (p.poolThreads?.count ?? 0), cpuTicks: sum.cpuTicks + (p.poolThreads?.cpuTicks ?? 0) }), { count: 0, cpuTicks: 0 });
  const kind = workers.some((p) => p.clusterWorker) ? 'cluster' : workers.length ? 'processes' : threads > 0 ? 'threads' : 'single';
  return {
    pid: server?.pid ?? null,
    launchers,
    workers: workers.map((p) => p.pid),
    threads,
    kind,
    clusterPolicy: server?.schedPolicy ?? null,
    otherPorts: [...new Set([server, ...workers].flatMap((p) => p?.otherPorts ?? []))].sort((a, b) => a - b),
    poolThreads: pool,
  };
}

/**
 * Every process below `pid` in the tree.
 * @param {TreeProcess[]} tree
 * @param {number} pid
 */
function descendants(tree, pid) {
  /** @type {TreeProcess[]} */
  const out = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift();
    for (const p of tree) {
      if (p.ppid === parent && !out.includes(p)) {
        out.push(p);
        queue.push(p.pid);
      }
    }
  }
  return out;
}

/** Runtimes whose first argument names the tool they run (`node /usr/bin/nodemon app.js` is nodemon). */
const RUNTIME_COMMS = /^(node|nodejs|bun|deno)\d*$/;

/**
 * A launcher by what the user would call it: 'npm', 'npx', 'pm2-runtime', 'yarn', 'sh', the script
 * a runtime runs ('nodemon' for `node /usr/bin/nodemon app.js`), or its comm.
 * @param {{ argv?: string[]|null, comm?: string|null }} p
 */
export function launcherName(p) {
  const words = (p.argv ?? []).map((w) => w.split('/').at(-1) ?? '');
  for (const known of ['npm-cli.js', 'npx-cli.js', 'pm2-runtime', 'yarn.js', 'pnpm.cjs']) {
    if (words.includes(known)) return known.replace(/-cli\.js$|\.c?js$/, '');
  }
  const comm = String(p.comm ?? words[0] ?? '?').split(' ')[0];
  // `node --watch app.js` restarts app.js in a child: the launcher is the watcher, not "app" (it read "behind app").
  if (RUNTIME_COMMS.test(comm) && (p.argv ?? []).some((w) => w === '--watch' || w.startsWith('--watch-path'))) return `${comm} --watch`;
  const script = words.slice(1).find((w) => !w.startsWith('-'));
  return RUNTIME_COMMS.test(comm) && script ? script.replace(/\.[cm]?js$/, '') : comm;
}

/**
 * The server's shape from two snapshots of its tree (the measured phase's start
 * and end): the later one's processes, unless the server was gone by then (it
 * crashed; a process that listens there in its place replaced it: a restart), and the CPU its libuv pool threads used in between (% of one core).
 * @param {{ tree: TreeProcess[], at: number, ticksPerSec: number }|null} early
 * @param {{ tree: TreeProcess[], at: number, ticksPerSec: number }|null} late
 * @param {{ rootPid: number, threads?: number }} options
 * @returns {(ServerShape & { poolThreads: { count: number, cpuTicks: number, cpuPct: number|null } })|null}
 */
export function shapeBetween(early, late, options) {
  const first = early ? serverShape(early.tree, options) : null;
  const last = late ? serverShape(late.tree, options) : null;
  // A server that a launcher restarted (nodemon) is the process that listens at the end.
  const replaced = late && last?.pid && last.pid !== first?.pid && late.tree.some((p) => p.listens && p.pid === last.pid);
  const shape = last?.pid && (last.kind !== 'single' || replaced) ? last : first?.pid ? first : last;
  if (!shape) return null;
  // Both snapshots are there exactly when both shapes are.
  const seconds = early && late ? (late.at - early.at) / 1000 : 0;
  const ticks = (last?.poolThreads.cpuTicks ?? 0) - (first?.poolThreads.cpuTicks ?? 0);
  const cpuPct = late && seconds > 0 ? Math.max(0, (ticks / late.ticksPerSec / seconds) * 100) : null;
  return { ...shape, poolThreads: { ...shape.poolThreads, cpuPct } };
}

/**
 * The shape's libuv pool figure from the sampler's "other threads" of the
 * server's processes (read from schedstat, each named for its kind by
 * src/sample/thread-kinds.js: the pool's threads are unnamed below libuv 1.50, so
 * /proc's comm alone cannot pick them out on Node 20): their count and CPU (% of
 * one core) over the measured phase, where that is more than the tree read found,
 * and the pool size the processes started with. libvips's threads (sharp) are
 * counted beside it. A result from before the kinds counts every other thread.
 * @param {ServerShape|null} shape
 * @param {SampledProcess[]} processes the sampler summary's processes
 * @returns {ServerShape|null}
 */
export function withOtherThreads(shape, processes) {
  if (!shape) return shape;
  const mine = processes.filter((p) => p.role !== 'thread' && (p.pid === shape.pid || shape.workers.includes(p.pid)));
  const other = mine.map((p) => p.summary?.otherThreads).filter(/** @returns {o is OtherThreadFigures} */ (o) => Boolean(o));
  if (other.length === 0) return shape;
  /** @type {(o: OtherThreadFigures, name: string) => ThreadCount|null} */
  const kind = (o, name) => o.kinds?.[name] ?? null;
  /** @param {OtherThreadFigures} o */
  const pool = (o) => (o.kinds ? kind(o, 'threadpool') : o);
  /** @param {number|null|undefined} value */
  const orZero = (value) => (isFiniteNumber(value) ? value : 0);
  const count = other.reduce((sum, o) => sum + (pool(o)?.count ?? 0), 0);
  const cpuPct = other.reduce((sum, o) => sum + orZero(pool(o)?.cpuPct), 0);
  const sizes = other.map((o) => o.poolSize).filter(isFiniteNumber);
  const vips = other.map((o) => kind(o, 'libvips')).filter(/** @returns {k is ThreadCount} */ (k) => Boolean(k));
  const vipsThreads = vips.length
    ? { count: vips.reduce((sum, k) => sum + k.count, 0), cpuPct: vips.reduce((sum, k) => sum + orZero(k.cpuPct), 0) }
    : null;
  const serverCpuPct = mine.reduce((sum, p) => sum + orZero(p.summary?.cpuPct), 0);
  const withVips = vipsThreads ? { ...shape, vipsThreads } : shape;
  if (cpuPct <= (shape.poolThreads.cpuPct ?? 0)) return withVips;
  const share = serverCpuPct > 0 ? cpuPct / serverCpuPct : null;
  const size = sizes.length ? { size: sizes[0] } : {};
  return { ...withVips, poolThreads: { ...shape.poolThreads, count: Math.max(count, shape.poolThreads.count), cpuPct, share, from: 'other-threads', ...size } };
}

/**
 * Whether two processes have the same command line (a fork child before its exec).
 * @param {TreeProcess} a
 * @param {TreeProcess|undefined} b
 */
function sameArgv(a, b) {
  if (!a || !b || !a.argv || !b.argv) return false;
  const other = b.argv;
  return a.argv.length === other.length && a.argv.every((arg, i) => arg === other[i]);
}
