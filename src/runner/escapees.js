/**
 * Escapees: processes a target started that left its process group (setsid, setpgid) or
 * lost their parent (a double fork), so a signal to the group misses them. In a cgroup they
 * are its members outside the group (outsideGroup). Two ways to find them without a cgroup:
 * - the tree: every process seen in the group or as a child of a group member is
 *   remembered by pid and start time while the target runs; at stop, those still alive
 *   (same pid, same start time: not a reused pid) outside the group are ended.
 * - the pipes: a process that kept the target's stdout or stderr holds the child's end of
 *   our pipe (a socket pair); it is found by that end's inode among every process's fds,
 *   wherever it went. These are the
 *   ones that would keep spawnbench waiting after its summary.
 */
import { readFileSync, readlinkSync } from 'node:fs';
import { readChildren, readStat, procPids, fdLinks } from '../sample/proc.js';

/** How often the target's tree is read for processes to remember, ms: a process that lives shorter and escapes is found by its pipes, if it kept them. */
export const TREE_SCAN_MS = 250;

/** state, ppid, pgrp and start time of a process from /proc/<pid>/stat, or null when gone. */
export function readIdentity(pid) {
  const stat = readStat(pid);
  return stat && { pid, state: stat.state, ppid: stat.ppid, pgrp: stat.pgrp, start: stat.starttime };
}

/** The process with this pid and start time, or null when it ended (or its pid now belongs to another). */
function stillRunning(pid, start) {
  const id = readIdentity(pid);
  return id && id.state !== 'Z' && id.start === start ? id : null;
}

function allIdentities() {
  return procPids().map(readIdentity).filter((id) => id && id.state !== 'Z');
}

/**
 * Remembers the processes of one group's tree until stop.
 * @param {number} pgid
 * @returns {{ scan: () => void, stop: () => void, seen: () => number, alive: () => Array<{pid:number, start:number}> }}
 *   `alive()`: the remembered processes still running outside the group
 */
export function trackTree(pgid) {
  const seen = new Map(); // pid -> start time
  const scan = () => {
    const running = new Map(); // every live process: pid -> start time
    for (const id of allIdentities()) {
      running.set(id.pid, id.start);
      if (id.pgrp !== pgid) continue;
      seen.set(id.pid, id.start);
      for (const child of readChildren(id.pid)) {
        const c = readIdentity(child);
        if (c) seen.set(c.pid, c.start);
      }
    }
    // Forget the ones that ended: only a live process can need ending at stop, and a pool
    // that spawns per request would otherwise grow this by every command it ever ran
    // (~40 pids a second at 30 connections). A child that started after the listing is
    // not in `running`, so it is read once more.
    for (const [pid, start] of seen) {
      if (running.has(pid) ? running.get(pid) !== start : !stillRunning(pid, start)) seen.delete(pid);
    }
  };
  const timer = setInterval(scan, TREE_SCAN_MS);
  timer.unref();
  return {
    scan,
    stop: () => clearInterval(timer),
    seen: () => seen.size,
    alive: () => [...seen].map(([pid, start]) => stillRunning(pid, start))
      .filter((id) => id && id.pgrp !== pgid)
      .map(({ pid, start }) => ({ pid, start })),
  };
}

/**
 * Remembers the members of a cgroup while the target runs, so that one that moves itself
 * out (into another cgroup, with setsid: out of both cgroup.kill's and the group's reach)
 * is still ended at stop. A member that left before the first read is not seen.
 * @param {() => number[]} members the cgroup's pids now (cgroupPids)
 * @returns {{ scan: () => void, left: () => Array<{pid: number, start: number}> }}
 *   `left()`: the remembered members still running (same start time) outside the cgroup
 */
export function trackMembers(members) {
  const seen = new Map(); // pid -> start time
  const scan = () => {
    const now = new Set(members());
    for (const pid of now) {
      if (seen.has(pid)) continue;
      const id = readIdentity(pid);
      if (id) seen.set(pid, id.start);
    }
    // One that ended is forgotten (a pool spawning per request would grow this by every command).
    for (const [pid, start] of seen) {
      if (!now.has(pid) && !stillRunning(pid, start)) seen.delete(pid);
    }
  };
  return {
    scan,
    left: () => {
      const now = new Set(members());
      return [...seen].filter(([pid, start]) => !now.has(pid) && stillRunning(pid, start)).map(([pid, start]) => ({ pid, start }));
    },
  };
}

/** The variable a contained target's environment carries, inherited by what it starts. */
export const MARK_VARIABLE = 'SPAWNBENCH_CONTAINED';

/**
 * Processes other than this one whose environment holds MARK_VARIABLE=`mark`: what the
 * target started, wherever it went (another session and another cgroup at once, before any
 * read of its tree), unless it replaced its environment. Read once, at stop.
 * @param {string} mark
 * @param {number} pgid the target's process group: its members are not escapees
 * @returns {Array<{pid: number, start: number}>}
 */
export function markHolders(mark, pgid) {
  const needle = `${MARK_VARIABLE}=${mark}\0`;
  const holders = [];
  for (const pid of procPids()) {
    if (pid === process.pid) continue;
    let environ;
    try {
      environ = readFileSync(`/proc/${pid}/environ`, 'latin1');
    } catch {
      continue; // gone, or not ours to read
    }
    if (!(environ.startsWith(needle) || environ.includes(`\0${needle}`))) continue;
    const id = readIdentity(pid);
    if (id && id.state !== 'Z' && id.pgrp !== pgid) holders.push({ pid: id.pid, start: id.start });
  }
  return holders;
}

/**
 * What a child's stdout and stderr are (`socket:[123]` or `pipe:[123]`: Node gives a child
 * one end of a socket pair), read from /proc right after it started. Whoever holds the same
 * one later inherited it from the child.
 * @param {number} pid
 * @returns {string[]}
 */
export function stdioLinks(pid) {
  const links = [];
  for (const fd of [1, 2]) {
    try {
      const link = readlinkSync(`/proc/${pid}/fd/${fd}`);
      if (/^(socket|pipe):\[\d+\]$/.test(link)) links.push(link);
    } catch {
      // gone already
    }
  }
  return links;
}

/**
 * Processes other than this one that hold one of the given stdio ends open.
 * @param {string[]} links from stdioLinks()
 * @returns {Array<{pid: number, start: number}>}
 */
export function pipeHolders(links) {
  const wanted = new Set(links);
  const holders = [];
  if (wanted.size === 0) return holders;
  for (const pid of procPids()) {
    if (pid === process.pid || !fdLinks(pid).some((link) => wanted.has(link))) continue;
    const id = readIdentity(pid);
    if (id && id.state !== 'Z') holders.push({ pid: id.pid, start: id.start });
  }
  return holders;
}

/**
 * The live processes among `pids` outside the process group `pgid`: a cgroup's escapees.
 * @param {number[]} pids
 * @param {number} pgid
 * @returns {Array<{pid: number, start: number}>}
 */
export function outsideGroup(pids, pgid) {
  return pids.map(readIdentity)
    .filter((id) => id && id.state !== 'Z' && id.pgrp !== pgid)
    .map(({ pid, start }) => ({ pid, start }));
}

/**
 * SIGKILLs each process if it is still the one remembered (same start time).
 * @returns {{ ended: number[], failed: Array<{pid: number, why: string}> }}
 */
export function endProcesses(procs) {
  const ended = [];
  const failed = [];
  for (const { pid, start } of procs) {
    if (readIdentity(pid)?.start !== start) continue;
    try {
      process.kill(pid, 'SIGKILL');
      ended.push(pid);
    } catch (error) {
      if (error.code !== 'ESRCH') failed.push({ pid, why: error.code });
    }
  }
  return { ended, failed };
}
