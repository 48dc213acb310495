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
 * The server behind a `--pid`: the process that listens at or below it, the launchers between (`sh -c 'node
 * server.js; …'`, npm, a subshell's `$!`), and its workers (node:cluster, forked children). Given the launcher, that
 * launcher was sampled as the server, its 0% CPU beside the server's own main thread: a pbkdf2 server whose threadpool
 * filled the cores read "requests wait on I/O or a downstream". Given a cluster primary, its workers were in no
 * figure ("main CPU 0%" beside workers burning both cores). Null where neither is so, or nothing there listens.
 * @param {number} pid
 * @param {string} url
 * @returns {{ serverPid: number, launchers: Array<{ pid: number, name: string }>, workers: number[] }|null}
 */
export function serverBehindPid(pid, url) {
  if (process.platform !== 'linux') return null;
  const pgrp = readStat(pid)?.pgrp;
  if (!pgrp) return null;
  const { pid: server, launchers, workers } = serverShape(readServerTree(pgrp, portOf(url)), { rootPid: pid });
  // Only a server at or below the pid given: another process of its group is not what --pid named.
  const from = launchers.findIndex((l) => l.pid === pid);
  if (server === null || (server !== pid && from < 0) || (server === pid && workers.length === 0)) return null;
  return { serverPid: server, launchers: server === pid ? [] : launchers.slice(from), workers };
}

/** @param {string} url */
function portOf(url) {
  const parsed = new URL(url);
  return parsed.port ? Number(parsed.port) : parsed.protocol === 'https:' ? 443 : 80;
}
