/**
 * Which TCP ports a process group listens on, from Linux /proc: the socket
 * inodes its processes hold (/proc/<pid>/fd → socket:[inode]) matched against the
 * LISTEN entries of /proc/net/tcp and tcp6. Used to say "it listens on 4000, not
 * on the PORT we gave it", and to find which process of a tree is the server.
 * Empty where there is no /proc.
 */
import { pidsInGroup, readTcpTables, socketInodes, TCP_LISTEN } from '../sample/proc.js';

/**
 * @param {number} pgid
 * @returns {number[]} ports, sorted, no repeats
 */
export function listeningPorts(pgid) {
  const inodes = new Set(pidsInGroup(pgid).flatMap(socketInodes));
  if (inodes.size === 0) return [];
  const ports = new Set(listeningSockets().filter((s) => inodes.has(s.inode)).map((s) => s.port));
  return [...ports].sort((a, b) => a - b);
}

const LISTENING = new Set([TCP_LISTEN]);

/**
 * Every listening TCP socket of the machine (IPv4 and IPv6): its port, address and inode.
 * @returns {Array<{ port: number, address: string, inode: string }>}
 */
export function listeningSockets() {
  return readTcpTables('/proc/net', () => true, LISTENING).map((s) => ({ port: s.local.port, address: s.local.address, inode: s.inode }));
}

/** Addresses a connect to 127.0.0.1 or ::1 reaches: the wildcards and the loopbacks spawnbench tries. */
const REACHED = new Set(['0.0.0.0', '::', '127.0.0.1', '::1']);

/**
 * The addresses a process group listens on at `port` that a connect to 127.0.0.1 or ::1 does not reach: a server
 * bound to its HOST (127.0.0.2, the machine's own address) was told "nothing it started listens on any port yet".
 * @param {number} pgid
 * @param {number} port
 * @returns {string[]}
 */
export function listeningAddresses(pgid, port) {
  const inodes = new Set(pidsInGroup(pgid).flatMap(socketInodes));
  if (inodes.size === 0) return [];
  return [...new Set(listeningSockets().filter((s) => s.port === port && inodes.has(s.inode) && !REACHED.has(s.address)).map((s) => s.address))];
}

/**
 * The inode of an fd link that is a socket (`socket:[123]` → '123'), else null.
 * @param {string} link
 * @returns {string|null}
 */
export function socketInode(link) {
  return /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? null;
}

/**
 * Whether anything on the machine listens on TCP `port`. After the server spawnbench
 * started exited with code 0, a listener on the port it was given is its daemon: the
 * process it put in the background (spawnbench checked the port was free before).
 * @param {number|null|undefined} port
 */
export function portListened(port) {
  return Boolean(port) && listeningSockets().some((s) => s.port === port);
}

/**
 * The words for a server that daemonised: "… exited with code 0" said what happened to
 * the process, not to the server, which kept serving in the background.
 * @param {string} label the server's command, quoted
 * @param {number} port
 * @param {'during the run'|'before it was ready'} when
 */
export function describeDaemonised(label, port, when) {
  return `${label} daemonised ${when}: it exited with code 0 and left a process in the background serving port ${port}, `
    + 'which spawnbench neither started nor can measure; run the server in the foreground (its --no-daemon or foreground option, '
    + '`pm2-runtime` rather than `pm2 start`), so the process spawnbench starts is the one that serves';
}
