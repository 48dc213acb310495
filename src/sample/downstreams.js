/**
 * The server's downstreams: its established outbound TCP connections (v4 and v6),
 * grouped by peer address, and its connections to Unix sockets, grouped by path. The
 * server's sockets are the inodes of its processes' fd links; its own listening ports
 * mark the inbound connections (the load's), which are left out. Where the peer
 * listens on this host, the process that holds the listening socket names it
 * (postgres, redis-server, node), found once per peer.
 *
 * A Unix socket's peer is not in /proc (/proc/net/unix lists each socket's path and
 * state, not whom it is connected to): the kernel gives it through sock_diag, which
 * `ss -xn` (iproute2) prints. It is run once per read, only while the server holds a
 * connected Unix socket, without waiting for it (a spawn blocks the calling thread,
 * ~50 ms on this loaded machine): a read uses the output of the previous read's `ss`,
 * a second old. Where `ss` is missing, Unix downstreams are not seen.
 */
import { execFile } from 'node:child_process';
import { procPids, readProcText, readStat, readTcpTables, socketInodes, TCP_ESTABLISHED, TCP_LISTEN } from './proc.js';
import { DOWNSTREAMS_KEPT } from '../base/thresholds.js';

const ANY_ADDRESSES = new Set(['0.0.0.0', '::']);
/** The rows a read decodes: listeners (the server's own ports, and the peers' names) and connections. */
const READ_STATES = new Set([TCP_LISTEN, TCP_ESTABLISHED]);

/**
 * @returns {{ read: (pids: number[], rootPid: number) => Downstream[] }}
 * @typedef {{ peer: string, transport: 'tcp'|'unix', name: string|null, pid: number|null, connections: number }} Downstream
 *   `peer`: 'address:port', or 'unix:<path>'; `name`/`pid`: the process listening on the peer on this
 *   host, null when it is elsewhere or not readable (another user's process without root)
 */
export function createDownstreams() {
  /** peer → { name, pid } of its listener, looked up once */
  const listeners = new Map();
  const unix = { ss: true, running: false, text: null };
  return {
    read(pids, rootPid) {
      const inodes = new Set(pids.flatMap(socketInodes));
      if (inodes.size === 0) return [];
      const unixList = unixDownstreams(inodes, listeners, unix);
      // The server's own network namespace (a container's, when it runs in one): its listening
      // sockets, and the connections of the server's processes (not the load's thousands).
      const sockets = readTcpTables(`/proc/${rootPid}/net`, (state, inode) => state === TCP_LISTEN || (state === TCP_ESTABLISHED && inodes.has(inode)), READ_STATES);
      const ownPorts = new Set(sockets.filter((s) => s.state === TCP_LISTEN && inodes.has(s.inode)).map((s) => s.local.port));
      // Counted by inode: /proc/net/tcp is read bucket by bucket while sockets come and go,
      // and on a busy machine the same socket can be listed twice in one read.
      const counts = new Map();
      for (const s of sockets) {
        if (s.state !== TCP_ESTABLISHED || !inodes.has(s.inode) || ownPorts.has(s.local.port)) continue;
        const peer = formatPeer(s.remote);
        const entry = counts.get(peer) ?? { remote: s.remote, inodes: new Set() };
        entry.inodes.add(s.inode);
        counts.set(peer, entry);
      }
      /** @type {Downstream[]} */
      const list = [];
      for (const [peer, { remote, inodes: connected }] of counts) {
        const connections = connected.size;
        if (!listeners.has(peer)) listeners.set(peer, findListener(sockets, remote, inodes));
        const listener = listeners.get(peer);
        // One of the server's own processes talking to another, or to spawnbench (its probe channel).
        if (listener?.own || listener?.pid === process.pid) continue;
        list.push({ peer, transport: 'tcp', name: listener?.name ?? null, pid: listener?.pid ?? null, connections });
      }
      list.push(...unixList);
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
  return ownerOf(listening.inode);
}

/** /proc/net/unix: a listening socket has __SO_ACCEPTCON (0x10000) in its flags; state 03 is connected. */
const UNIX_ACCEPTCON = 0x10000;
const UNIX_CONNECTED = '03';

/**
 * The server's connections to Unix sockets by path: its connected sockets from
 * /proc/net/unix, their peers from `ss -xn` (the accepted end carries the path it was
 * accepted on and the peer inode, which is the server's socket).
 * @returns {Downstream[]}
 */
function unixDownstreams(inodes, listeners, state) {
  if (!state.ss) return [];
  const table = readUnixTable();
  if (!table.some((s) => s.state === UNIX_CONNECTED && inodes.has(s.inode))) return [];
  if (!state.running) {
    state.running = true;
    execFile('ss', ['-xn'], { encoding: 'utf8', timeout: 2000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout) => {
      state.running = false;
      if (error?.code === 'ENOENT') state.ss = false; // no iproute2: Unix downstreams are not seen
      state.text = error ? null : stdout;
    }).unref();
  }
  const text = state.text;
  if (text === null) return [];
  const counts = new Map();
  for (const line of text.split('\n')) {
    // Netid State Recv-Q Send-Q Local-Address Local-Port Peer-Address Peer-Port
    const f = line.trim().split(/\s+/);
    if (f.length < 8 || f[1] !== 'ESTAB' || f[4] === '*') continue;
    const [path, localInode, peerInode] = [f[4], f[5], f[7]];
    if (!inodes.has(peerInode) || inodes.has(localInode)) continue; // not ours, or between two of the server's own processes
    counts.set(path, (counts.get(path) ?? new Set()).add(peerInode));
  }
  /** @type {Downstream[]} */
  const list = [];
  for (const [path, connected] of counts) {
    const connections = connected.size;
    const peer = `unix:${path}`;
    if (!listeners.has(peer)) {
      const listening = table.find((s) => s.path === path && (s.flags & UNIX_ACCEPTCON) !== 0);
      listeners.set(peer, listening ? ownerOf(listening.inode) : null);
    }
    const listener = listeners.get(peer);
    if (listener?.pid === process.pid) continue; // spawnbench's own probe channel
    list.push({ peer, transport: 'unix', name: listener?.name ?? null, pid: listener?.pid ?? null, connections });
  }
  return list;
}

/** /proc/net/unix: `Num RefCount Protocol Flags Type St Inode Path`. */
function readUnixTable() {
  const text = readProcText('/proc/net/unix');
  if (text === null) return [];
  const sockets = [];
  for (const line of text.split('\n').slice(1)) {
    const f = line.trim().split(/\s+/);
    if (f.length < 7) continue;
    sockets.push({ flags: parseInt(f[3], 16), state: f[5], inode: f[6], path: f[7] ?? null });
  }
  return sockets;
}

/** The process holding a socket inode: { name, pid, own: false }, or nulls where none is readable. */
function ownerOf(inode) {
  for (const pid of procPids()) {
    if (socketInodes(pid).includes(inode)) return { name: readStat(pid)?.name ?? null, pid, own: false };
  }
  return { name: null, pid: null, own: false };
}
