/**
 * The server's downstreams: its established outbound TCP connections (v4 and v6),
 * grouped by peer address. The server's sockets are the inodes of its processes' fd
 * links; its own listening ports mark the inbound connections (the load's), which
 * are left out. Where the peer listens on this host, the process that holds the
 * listening socket names it (postgres, redis-server, node), found once per peer.
 */
import { procPids, readStat, readTcpTables, socketInodes, TCP_ESTABLISHED, TCP_LISTEN } from './proc.js';
import { DOWNSTREAMS_KEPT } from '../thresholds.js';

const ANY_ADDRESSES = new Set(['0.0.0.0', '::']);

/**
 * @returns {{ read: (pids: number[], rootPid: number) => Downstream[] }}
 * @typedef {{ peer: string, transport: 'tcp', name: string|null, pid: number|null, connections: number }} Downstream
 *   `name`/`pid`: the process listening on the peer's port on this host, null when it is
 *   elsewhere or not readable (another user's process without root)
 */
export function createDownstreams() {
  /** peer → { name, pid } of its listener, looked up once */
  const listeners = new Map();
  return {
    read(pids, rootPid) {
      const inodes = new Set(pids.flatMap(socketInodes));
      if (inodes.size === 0) return [];
      // The server's own network namespace (a container's, when it runs in one).
      const sockets = readTcpTables(`/proc/${rootPid}/net`);
      const ownPorts = new Set(sockets.filter((s) => s.state === TCP_LISTEN && inodes.has(s.inode)).map((s) => s.local.port));
      const counts = new Map();
      for (const s of sockets) {
        if (s.state !== TCP_ESTABLISHED || !inodes.has(s.inode) || ownPorts.has(s.local.port)) continue;
        const peer = formatPeer(s.remote);
        const entry = counts.get(peer) ?? { remote: s.remote, connections: 0 };
        entry.connections++;
        counts.set(peer, entry);
      }
      const list = [];
      for (const [peer, { remote, connections }] of counts) {
        if (!listeners.has(peer)) listeners.set(peer, findListener(sockets, remote, inodes));
        const listener = listeners.get(peer);
        if (listener?.own) continue; // one of the server's own processes talking to another
        list.push({ peer, transport: 'tcp', name: listener?.name ?? null, pid: listener?.pid ?? null, connections });
      }
      return list.sort((a, b) => b.connections - a.connections).slice(0, DOWNSTREAMS_KEPT);
    },
  };
}

/** "127.0.0.1:5432", "[::1]:6379" */
function formatPeer({ address, port }) {
  return address.includes(':') ? `[${address}]:${port}` : `${address}:${port}`;
}

/** The process listening on `remote` on this host: { name, pid, own } or null. */
function findListener(sockets, remote, ownInodes) {
  const listening = sockets.find((s) => s.state === TCP_LISTEN && s.local.port === remote.port &&
    (s.local.address === remote.address || ANY_ADDRESSES.has(s.local.address)));
  if (!listening) return null;
  if (ownInodes.has(listening.inode)) return { name: null, pid: null, own: true };
  for (const pid of procPids()) {
    if (socketInodes(pid).includes(listening.inode)) return { name: readStat(pid)?.name ?? null, pid, own: false };
  }
  return { name: null, pid: null, own: false };
}
