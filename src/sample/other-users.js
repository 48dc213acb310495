/**
 * Who else used the CPU during a run: every process outside spawnbench (its
 * generator threads included) and outside the server's tree, its CPU time between
 * two full /proc reads, added up by process name ("postgres ×14: 1.2 cores").
 * The server's tree is the root's descendants and its process group (which keeps
 * a double-forked child of the server inside). A process that started after the
 * first read counts with all its CPU; one that started and ended between two
 * reads is not seen.
 */
import { procPids, procUnits, readStat, readProcText, descriptorFailureCount } from './proc.js';
import { OTHER_USERS_SHOWN, OTHER_USER_MIN_CORES } from '../base/thresholds.js';

/** Pids (and parent pids) kept per name in the summary: enough to recognise a downstream's processes. */
const MAX_PIDS_KEPT = 64;

/** Ancestors walked to decide whether a process is ours (a loop in ppids ends here). */
const MAX_ANCESTORS = 64;

/**
 * @param {{ roots: () => number[], groups?: () => number[], shown?: number, minCores?: number }} options `roots`: pids whose
 *   descendants are not "other" (spawnbench, the server); `groups`: process groups likewise; `shown` and
 *   `minCores`: how many names are listed and the least CPU each needs (OTHER_USERS_SHOWN, OTHER_USER_MIN_CORES)
 * @returns {{ scan: () => void, reset: () => void, summary: () => OtherUsers }}
 *
 * @typedef {{ elapsedMs: number, cores: number|null, users: Array<{ name: string, count: number, cores: number, pids: number[], parents: number[] }>,
 *   rest: { names: number, cores: number }, unreadable?: { code: string, scans: number } }} OtherUsers
 *   `cores`: all other processes together (1 = one core busy for the whole time); `users`:
 *   the busiest names, at most OTHER_USERS_SHOWN, each of at least OTHER_USER_MIN_CORES; `rest`: the names not listed
 */
export function createOtherUsers({ roots, groups = () => [], shown = OTHER_USERS_SHOWN, minCores = OTHER_USER_MIN_CORES }) {
  const { ticksPerSec } = procUnits();
  /** pid → { ticks, starttime } at the last read */
  let previous = null;
  let previousUptimeTicks = 0;
  let startedAt = 0;
  let lastAt = 0;
  /** name → { ticks, pids: Set } since reset() */
  let byName = new Map();

  /** Scans left out: some read failed for want of a file descriptor (its pids would read as new or as not ours). */
  let failedScans = 0;
  let failedCode = null;

  const scan = () => {
    const failuresBefore = descriptorFailureCount().count;
    const uptimeTicks = readUptimeTicks(ticksPerSec);
    const stats = new Map();
    for (const pid of procPids()) {
      const stat = readStat(pid);
      if (stat) stats.set(pid, stat);
    }
    const failed = descriptorFailureCount();
    if (failed.count !== failuresBefore || uptimeTicks === null) {
      failedScans++;
      failedCode = failed.count !== failuresBefore ? failed.code : 'unreadable';
      return;
    }
    const ours = new Set(roots().filter(Boolean));
    const ourGroups = new Set(groups().filter(Boolean));
    const isOurs = (pid) => {
      let at = pid;
      for (let i = 0; i < MAX_ANCESTORS && at > 1; i++) {
        if (ours.has(at)) return true;
        const stat = stats.get(at);
        if (!stat) return false;
        if (ourGroups.has(stat.pgrp)) return true;
        at = stat.ppid;
      }
      return false;
    };
    const current = new Map();
    for (const [pid, stat] of stats) {
      const ticks = stat.utime + stat.stime;
      current.set(pid, { ticks, starttime: stat.starttime });
      if (previous === null || isOurs(pid)) continue;
      const before = previous.get(pid);
      let used = 0;
      if (before && before.starttime === stat.starttime) used = ticks - before.ticks;
      else if (stat.starttime >= previousUptimeTicks) used = ticks; // born since the last read
      if (used <= 0) continue;
      const entry = byName.get(stat.name) ?? { ticks: 0, pids: new Set(), parents: new Set() };
      entry.ticks += used;
      entry.pids.add(pid);
      entry.parents.add(stat.ppid);
      byName.set(stat.name, entry);
    }
    const now = performance.now();
    if (previous === null) startedAt = now;
    previous = current;
    previousUptimeTicks = uptimeTicks;
    lastAt = now;
  };

  return {
    scan,
    /** Starts counting afresh from now (the measured phase). */
    reset() {
      byName = new Map();
      previous = null;
      failedScans = 0;
      failedCode = null;
      startedAt = 0;
      lastAt = 0;
      scan();
    },
    summary() {
      // Not one interval between two whole reads: no figure rather than a guess.
      if (!(lastAt > startedAt)) return { elapsedMs: 0, cores: null, users: [], rest: { names: 0, cores: 0 }, ...(failedScans ? { unreadable: { code: failedCode, scans: failedScans } } : {}) };
      const elapsedMs = lastAt - startedAt;
      const coresOf = (ticks) => (elapsedMs > 0 ? ticks / ticksPerSec / (elapsedMs / 1000) : 0);
      // pids and their parents (a few): which of them is a process the server is connected to
      // (postgres's backends are children of the postmaster that listens).
      const few = (set) => [...set].slice(0, MAX_PIDS_KEPT);
      const all = [...byName].map(([name, e]) => ({ name, count: e.pids.size, cores: round2(coresOf(e.ticks)), pids: few(e.pids), parents: few(e.parents) }))
        .sort((a, b) => b.cores - a.cores);
      const users = all.slice(0, shown).filter((u) => u.cores >= minCores && u.cores > 0);
      const rest = all.slice(users.length);
      return {
        elapsedMs: Math.round(elapsedMs),
        cores: round2(all.reduce((sum, u) => sum + u.cores, 0)),
        users,
        rest: { names: rest.length, cores: round2(rest.reduce((sum, u) => sum + u.cores, 0)) },
        // Reads left out for want of a file descriptor: the figures cover the reads that worked.
        ...(failedScans ? { unreadable: { code: failedCode, scans: failedScans } } : {}),
      };
    },
  };
}

/** Seconds since boot in clock ticks (the unit of a process's starttime); null when it cannot be read. */
function readUptimeTicks(ticksPerSec) {
  const text = readProcText('/proc/uptime');
  const seconds = text === null ? NaN : Number(text.split(' ')[0]);
  return Number.isFinite(seconds) ? seconds * ticksPerSec : null;
}

function round2(value) {
  return Math.round(value * 100) / 100;
}
