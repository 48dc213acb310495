/**
 * Which TCP ports a process group listens on, from Linux /proc: the socket
 * inodes its processes hold (/proc/<pid>/fd → socket:[inode]) matched against the
 * LISTEN entries of /proc/net/tcp and tcp6. Used to say "it listens on 4000, not
 * on the PORT we gave it". Empty where there is no /proc.
 */
import { readFileSync } from 'node:fs';
import { pidsInGroup, fdLinks } from '../sample/proc.js';

/** /proc/net/tcp's state column for a listening socket. */
const TCP_LISTEN = '0A';

/**
 * @param {number} pgid
 * @returns {number[]} ports, sorted, no repeats
 */
export function listeningPorts(pgid) {
  const inodes = new Set();
  for (const pid of pidsInGroup(pgid)) {
    for (const link of fdLinks(pid)) {
      const match = /^socket:\[(\d+)\]$/.exec(link);
      if (match) inodes.add(match[1]);
    }
  }
  if (inodes.size === 0) return [];
  const ports = new Set();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text;
    try {
      text = readFileSync(table, 'latin1');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      if (fields.length < 10 || fields[3] !== TCP_LISTEN || !inodes.has(fields[9])) continue;
      ports.add(parseInt(fields[1].split(':')[1], 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}
