/**
 * A snapshot of a user's server's process tree for analysis/server-shape.js:
 * every process of its group with its parent, name, command line, whether it
 * holds the listening socket of the server's port, and the environment markers
 * of a node:cluster worker or a forked child (NODE_UNIQUE_ID, NODE_CHANNEL_FD),
 * plus its libuv pool threads. Linux /proc only; elsewhere the tree is empty and
 * the shape falls back to the root process.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { pidsInGroup, readStat, fdLinks, procUnits, processName } from '../sample/proc.js';
import { listeningSockets, socketInode } from './listening-ports.js';
import { serverShape } from '../analysis/server-shape.js';
import { plainText } from '../base/untrusted-text.js';
import { LISTENER_WAIT_MS } from '../base/thresholds.js';
/** The name libuv gives its pool threads (/proc/<pid>/task/<tid>/comm). */
const POOL_THREAD_COMM = 'libuv-worker';

/**
 * @param {number} pgid the server's process group (its root's pid)
 * @param {number} port the port it serves
 * @returns {import('../analysis/server-shape.js').TreeProcess[]}
 */
export function readServerTree(pgid, port) {
  const listening = listeningSockets();
  const inodes = new Set(listening.filter((s) => s.port === port).map((s) => s.inode));
  const otherPort = new Map(listening.filter((s) => s.port !== port).map((s) => [s.inode, s.port]));
  return pidsInGroup(pgid).map((pid) => {
    const stat = readStat(pid);
    const { cmdline, env } = programOf(pid);
    const sockets = fdLinks(pid).map(socketInode).filter((inode) => inode !== null);
    return {
      pid,
      ppid: stat?.ppid ?? 0,
      comm: processName(readText(`/proc/${pid}/comm`).trim()),
      argv: cmdline.split('\0').filter(Boolean).map(plainText),
      listens: sockets.some((inode) => inodes.has(inode)),
      otherPorts: [...new Set(sockets.flatMap((inode) => (otherPort.has(inode) ? [/** @type {number} */ (otherPort.get(inode))] : [])))],
      clusterWorker: env.has('NODE_UNIQUE_ID'),
      ipc: env.has('NODE_CHANNEL_FD'),
      schedPolicy: env.get('NODE_CLUSTER_SCHED_POLICY') ?? null,
      poolThreads: poolThreads(pid),
    };
  });
}

/**
 * The tree now, and when it was read.
 * @param {number} pgid
 * @param {number} port
 * @returns {{ tree: import('../analysis/server-shape.js').TreeProcess[], at: number, ticksPerSec: number }}
 */
export function snapshotTree(pgid, port) {
  return { tree: readServerTree(pgid, port), at: Date.now(), ticksPerSec: procUnits().ticksPerSec };
}

/**
 * snapshotTree, read again every 100 ms while no process of the group listens, for at most
 * LISTENER_WAIT_MS: a launcher that restarts its server (nodemon) may be between two children
 * just then, and the tree would make the launcher itself the server.
 * @param {number} pgid
 * @param {number} port
 */
export async function listeningSnapshot(pgid, port) {
  const until = Date.now() + LISTENER_WAIT_MS;
  let snapshot = snapshotTree(pgid, port);
  while (!snapshot.tree.some((p) => p.listens) && snapshot.tree.length > 0 && Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    snapshot = snapshotTree(pgid, port);
  }
  return snapshot;
}

/**
 * The process of the group that listens on the port now (the topmost, below its
 * launchers), or null while none does: a server a launcher restarted (nodemon)
 * is this process once its new child listens.
 * @param {number} pgid
 * @param {number} port
 * @returns {number|null}
 */
export function listeningServer(pgid, port) {
  const tree = readServerTree(pgid, port);
  return tree.some((p) => p.listens) ? serverShape(tree, { rootPid: pgid }).pid : null;
}

/**
 * A process's command line and environment, both of one program. A worker's child between
 * fork and exec shows the worker's environment and command line; read across its exec, the
 * environment was the worker's and the command line the new program's: a third worker for
 * --workers 2. The command line is read on both sides of the environment, and the environment
 * again when the two differ (the exec is done then).
 * @param {number} pid
 * @param {(file: string) => string} [read] a /proc file's text, '' when unreadable
 * @returns {{ cmdline: string, env: Map<string, string> }}
 */
export function programOf(pid, read = readText) {
  const before = read(`/proc/${pid}/cmdline`);
  let env = readEnviron(pid, read);
  const cmdline = read(`/proc/${pid}/cmdline`);
  if (cmdline !== before) env = readEnviron(pid, read);
  return { cmdline, env };
}

/** The variables of a process's environment (its own, same user), as a Map; empty when unreadable. */
function readEnviron(pid, read = readText) {
  const env = new Map();
  for (const entry of read(`/proc/${pid}/environ`).split('\0')) {
    const eq = entry.indexOf('=');
    if (eq > 0) env.set(entry.slice(0, eq), entry.slice(eq + 1));
  }
  return env;
}

/** libuv's pool threads of a process and their CPU so far, in clock ticks. */
function poolThreads(pid) {
  let tids;
  try {
    tids = readdirSync(`/proc/${pid}/task`);
  } catch {
    return { count: 0, cpuTicks: 0 };
  }
  let count = 0;
  let cpuTicks = 0;
  for (const tid of tids) {
    if (readText(`/proc/${pid}/task/${tid}/comm`).trim() !== POOL_THREAD_COMM) continue;
    const stat = readStat(pid, Number(tid));
    count += 1;
    cpuTicks += stat ? stat.utime + stat.stime : 0;
  }
  return { count, cpuTicks };
}

function readText(file) {
  try {
    return readFileSync(file, 'latin1');
  } catch {
    return '';
  }
}
