/**
 * `diagnose --url … --pid N`: the pid must be the server behind the URL, or every figure
 * read from /proc describes some other process. Checked as "N's process group listens on
 * the URL's port" (a cluster primary or a shell leader holds the socket for the group).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { UsageError } from '../base/errors.js';
import { listeningPorts } from '../runner/listening-ports.js';

/**
 * @param {number} pid
 * @param {string} url
 * @throws {UsageError} when the pid's group does not listen on the URL's port
 */
export function checkPidOwnsPort(pid, url) {
  if (process.platform !== 'linux') return;
  const parsed = new URL(url);
  const port = parsed.port ? Number(parsed.port) : 80;
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
