/**
 * A launcher that daemonises (`pm2 start`, a double fork, `setsid node app.js &`):
 * it exits 0 and leaves the server running outside its process group. Found by the
 * port: the process that holds the port's listening socket and started after the
 * launcher did (never one that was running before, such as a daemon the user
 * already had). Watched for its end in place of the launcher's exit, and ended,
 * with everything under it that started after the launcher, when the run stops.
 */
import { readFileSync } from 'node:fs';
import { procPids, fdLinks, readStat, procUnits } from '../sample/proc.js';
import { listeningSockets, socketInode } from './listening-ports.js';
import { readIdentity, endProcesses } from './escapees.js';

/** How often a daemonised server is checked for its end, ms: a crash is seen within a quarter second, as the tree scan does. */
const DAEMON_POLL_MS = 250;

/**
 * Clock ticks since boot now (the unit of /proc/<pid>/stat's start time): a
 * process whose start time is at least this started later.
 * @returns {number|null} null where there is no /proc
 */
export function ticksNow() {
  try {
    return Math.floor(Number(readFileSync('/proc/uptime', 'latin1').split(' ')[0]) * procUnits().ticksPerSec);
  } catch {
    return null;
  }
}

/**
 * The process serving `port` that started at or after `since`: the topmost such
 * holder of a listening socket on it (a cluster's primary, not a worker that shares it).
 * @param {number} port
 * @param {number} since clock ticks since boot, from ticksNow() before the launcher started
 * @returns {{ pid: number, start: number, pgid: number }|null}
 */
export function findDaemon(port, since) {
  const inodes = new Set(listeningSockets().filter((s) => s.port === port).map((s) => s.inode));
  if (inodes.size === 0) return null;
  const holders = [];
  for (const pid of procPids()) {
    if (pid === process.pid || !fdLinks(pid).some((link) => inodes.has(socketInode(link)))) continue;
    const stat = readStat(pid);
    if (stat && stat.state !== 'Z' && stat.starttime >= since) holders.push({ pid, ppid: stat.ppid, start: stat.starttime, pgid: stat.pgrp });
  }
  const top = holders.find((h) => !holders.some((o) => o.pid === h.ppid)) ?? null;
  return top && { pid: top.pid, start: top.start, pgid: top.pgid };
}

/**
 * Resolves when the daemon is gone (or its pid is another process's), as a launcher's `exited` does.
 * @param {{ pid: number, start: number }} daemon
 * @returns {{ exited: Promise<{ code: null, signal: null, gone: true }>, stop: () => void }}
 */
export function watchDaemon(daemon) {
  let timer;
  const exited = new Promise((resolve) => {
    timer = setInterval(() => {
      const id = readIdentity(daemon.pid);
      if (!id || id.state === 'Z' || id.start !== daemon.start) {
        clearInterval(timer);
        resolve({ code: null, signal: null, gone: true });
      }
    }, DAEMON_POLL_MS);
    timer.unref();
  });
  return { exited, stop: () => clearInterval(timer) };
}

/**
 * Ends the daemon and every process below it that started at or after `since`
 * (its workers, the commands it runs), the same pid and start time as seen: a
 * pid reused meanwhile is left alone. SIGTERM first, SIGKILL after `graceMs`.
 * @param {{ pid: number, start: number }} daemon
 * @param {number} since
 * @param {number} graceMs
 * @returns {Promise<{ ended: number[], failed: Array<{ pid: number, why: string }> }>}
 */
export async function endDaemon(daemon, since, graceMs) {
  const tree = [daemon, ...descendantsOf(daemon.pid).filter((p) => p.start >= since)];
  for (const { pid, start } of tree) {
    if (readIdentity(pid)?.start === start) {
      try {
        process.kill(pid, 'SIGTERM');
      } catch {
        // gone already
      }
    }
  }
  const deadline = Date.now() + graceMs;
  while (Date.now() < deadline && tree.some(({ pid, start }) => alive(pid, start))) await new Promise((resolve) => setTimeout(resolve, 25));
  const { failed } = endProcesses(tree.filter(({ pid, start }) => alive(pid, start)));
  return { ended: tree.filter(({ pid, start }) => !alive(pid, start)).map((p) => p.pid), failed };
}

function alive(pid, start) {
  const id = readIdentity(pid);
  return Boolean(id && id.state !== 'Z' && id.start === start);
}

/** Every live process below `pid`, with its start time. */
function descendantsOf(pid) {
  const stats = procPids().map((p) => ({ pid: p, stat: readStat(p) })).filter((p) => p.stat && p.stat.state !== 'Z');
  const out = [];
  const queue = [pid];
  while (queue.length) {
    const parent = queue.shift();
    for (const { pid: child, stat } of stats) {
      if (stat.ppid === parent && !out.some((o) => o.pid === child)) {
        out.push({ pid: child, start: stat.starttime });
        queue.push(child);
      }
    }
  }
  return out;
}
