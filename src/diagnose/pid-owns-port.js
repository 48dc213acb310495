/**
 * `diagnose --url … --pid N`: the pid must be the server behind the URL, or every figure
 * read from /proc describes some other process. Checked as "N's process group listens on
 * the URL's port" (a cluster primary or a shell leader holds the socket for the group).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { UsageError } from '../base/errors.js';
import { listeningPorts } from '../runner/listening-ports.js';
import { readServerTree } from '../runner/server-tree.js';
import { serverShape } from '../analysis/server-shape.js';
import { readStat } from '../sample/proc.js';

/**
 * @param {number} pid
 * @param {string} url
 * @throws {UsageError} when the pid's group does not listen on the URL's port
 */
export function checkPidOwnsPort(pid, url) {
  if (process.platform !== 'linux') return;
  const port = portOf(url);
  let pgid;
  try {
    readdirSync(`/proc/${pid}/fd`); // another user's process: its sockets cannot be seen, so nothing can be said
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    pgid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return;
  }
  const ports = listeningPorts(pgid);
  if (ports.includes(port)) return;
  const seen = ports.length ? `it listens on ${ports.join(', ')}` : 'it listens on no TCP port';
  throw new UsageError(`--pid ${pid} is not the server behind ${url}: ${seen}, not ${port}; give the pid of the process that listens there`);
}

/**
 * The process that listens below a `--pid` that is a launcher above it (`sh -c 'node server.js; …'`, npm, a
 * subshell's `$!`), and the launchers between: that pid was sampled as the server, its 0% CPU beside the
 * server's own main thread, and a pbkdf2 server whose threadpool filled the cores read "requests wait on I/O
 * or a downstream". Null where the pid itself listens, or nothing below it does.
 * @param {number} pid
 * @param {string} url
 * @returns {{ serverPid: number, launchers: Array<{ pid: number, name: string }> }|null}
 */
export function serverBehindPid(pid, url) {
  if (process.platform !== 'linux') return null;
  const pgrp = readStat(pid)?.pgrp;
  if (!pgrp) return null;
  const { pid: server, launchers } = serverShape(readServerTree(pgrp, portOf(url)), { rootPid: pid });
  // Only a server below the pid given: another process of its group is not what --pid named.
  if (server === null || server === pid || !launchers.some((l) => l.pid === pid)) return null;
  return { serverPid: server, launchers: launchers.slice(launchers.findIndex((l) => l.pid === pid)) };
}

/** @param {string} url */
function portOf(url) {
  const parsed = new URL(url);
  return parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
}
