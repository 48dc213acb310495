/**
 * Readers for Linux /proc: per-process and per-thread CPU time and RSS, the
 * children of a thread, system CPU per core. Synchronous on purpose: a /proc read
 * is ~15 µs and never blocks on a disk.
 *
 * Measured on this project's machine (Node 20.20.2, 5 processes, 200 rounds):
 * `pidusage([5 pids])` ~500 µs of CPU per call, reading their `/proc/<pid>/stat`
 * directly ~85 µs: /proc is ~6× cheaper at 4–10 Hz, and it also gives
 * `cutime`/`cstime` (the CPU of reaped children) which pidusage does not.
 */
import { readFileSync, readdirSync, readlinkSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { plainText } from '../base/untrusted-text.js';
import { limitRow } from '../base/proc-limits.js';

/** True where /proc has what the samplers read. */
export const HAS_PROC = process.platform === 'linux' && existsSync('/proc/self/stat');

/** Linux's usual USER_HZ and page size, used when `getconf` is unavailable. */
const FALLBACK_CLOCK_TICKS = 100;
const FALLBACK_PAGE_BYTES = 4096;

let units = null;

/**
 * /proc reads that failed because this process had no file descriptor left (EMFILE)
 * or the system none (ENFILE), counted since start: such a read says nothing about
 * the process it was for (a run with `-c 2000` under `ulimit -n 1024` read none),
 * so a reader that saw the count move leaves its figures out instead of reading
 * the failure as "gone" or "0%".
 */
const descriptorFailures = { count: 0, code: /** @type {string|null} */ (null) };

/** @returns {{ count: number, code: string|null }} the failures so far and the last one's code */
export function descriptorFailureCount() {
  return { ...descriptorFailures };
}

/** @param {any} error */
function noteReadFailure(error) {
  if (error?.code === 'EMFILE' || error?.code === 'ENFILE') {
    descriptorFailures.count++;
    descriptorFailures.code = error.code;
  }
}

/** The auxiliary vector's keys for the two units (linux/auxvec.h). */
const AT_PAGESZ = 6n;
const AT_CLKTCK = 17n;

/**
 * Clock ticks per second (the unit of utime/stime) and bytes per page (the unit of rss).
 * Read once from what the kernel handed this process at exec (/proc/self/auxv: AT_CLKTCK,
 * AT_PAGESZ, what getconf itself reads), else asked of getconf, then cached.
 * @returns {{ ticksPerSec: number, pageBytes: number }}
 */
export function procUnits() {
  if (units) return units;
  const aux = auxValues();
  units = {
    ticksPerSec: aux.get(AT_CLKTCK) ?? getconf('CLK_TCK', FALLBACK_CLOCK_TICKS),
    pageBytes: aux.get(AT_PAGESZ) ?? getconf('PAGESIZE', FALLBACK_PAGE_BYTES),
  };
  return units;
}

/**
 * This process's auxiliary vector: 64-bit key/value pairs up to AT_NULL (a 64-bit kernel).
 * @returns {Map<bigint, number>} empty where it cannot be read
 */
export function auxValues() {
  const values = new Map();
  try {
    const bytes = readFileSync('/proc/self/auxv');
    for (let at = 0; at + 16 <= bytes.length; at += 16) {
      const key = bytes.readBigUInt64LE(at);
      if (key === 0n) break;
      const value = Number(bytes.readBigUInt64LE(at + 8));
      if (value > 0) values.set(key, value);
    }
  } catch {
    // no /proc, or not readable: getconf answers
  }
  return values;
}

function getconf(name, fallback) {
  try {
    const { execFileSync } = createRequire(import.meta.url)('node:child_process');
    const value = Number(execFileSync('getconf', [name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }));
    return value > 0 ? value : fallback;
  } catch {
    return fallback;
  }
}

/**
 * A process's name from its main thread's comm. Node 26 names its main thread
 * 'node-MainThread' (the 15-character comm of the process, as /proc shows it);
 * the process is still 'node' to a reader and to the runtime checks.
 * @param {string} comm
 */
export function processName(comm) {
  // Any process can name itself: a comm holding terminal escapes must not reach a view raw
  // (one that is nothing but escapes is shown as '?').
  const name = plainText(comm).trim() || '?';
  return name.endsWith('-MainThread') ? name.slice(0, -'-MainThread'.length) : name;
}

/**
 * Reads `/proc/<pid>/stat`, or `/proc/<pid>/task/<tid>/stat` for one thread.
 * A process's name goes through processName(); a thread's is its own comm.
 * Times are in clock ticks, rss in pages.
 * @param {number} pid
 * @param {number} [tid]
 * @returns {{ name: string, state: string, ppid: number, pgrp: number, utime: number, stime: number, cutime: number, cstime: number, starttime: number, rss: number } | null}
 *   null when the process or thread is gone
 */
export function readStat(pid, tid) {
  let text;
  try {
    text = readFileSync(tid ? `/proc/${pid}/task/${tid}/stat` : `/proc/${pid}/stat`, 'latin1');
  } catch (error) {
    noteReadFailure(error);
    return null;
  }
  // The command name (field 2) is in parentheses and may hold spaces or ')'.
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  // Read as latin1 for its byte positions; the name's bytes are UTF-8 (a name may hold U+202E).
  const name = Buffer.from(text.slice(text.indexOf('(') + 1, close), 'latin1').toString('utf8');
  // fields[0] is field 3 of proc(5): field n is fields[n - 3].
  return {
    name: tid ? plainText(name) : processName(name),
    state: fields[0],
    ppid: Number(fields[1]),
    pgrp: Number(fields[2]),
    utime: Number(fields[11]),
    stime: Number(fields[12]),
    cutime: Number(fields[13]),
    cstime: Number(fields[14]),
    starttime: Number(fields[19]),
    rss: Number(fields[21]),
  };
}

/**
 * Reads `/proc/<pid>/schedstat` (the main thread), or `/proc/<pid>/task/<tid>/schedstat`
 * for one thread: time on a CPU and time runnable but waiting in the run queue for one.
 * @param {number} pid
 * @param {number} [tid] one thread of it (default: its main thread)
 * @returns {{ cpuNs: number, waitNs: number } | null} null when the process is gone or there is no schedstat
 */
export function readSchedstat(pid, tid) {
  try {
    const [cpuNs, waitNs] = readFileSync(`/proc/${pid}${tid ? `/task/${tid}` : ''}/schedstat`, 'latin1').trim().split(/\s+/).map(Number);
    return Number.isFinite(cpuNs) && Number.isFinite(waitNs) ? { cpuNs, waitNs } : null;
  } catch (error) {
    noteReadFailure(error);
    return null;
  }
}

/**
 * The children of a process: those forked by the given threads, or by any of its
 * threads when `tids` is not given (`/proc/<pid>/task/<tid>/children` lists the
 * children of one thread; reading every thread of a Node process costs ~11 reads).
 * @param {number} pid
 * @param {number[]} [tids]
 * @returns {number[]}
 */
export function readChildren(pid, tids) {
  /** @type {Array<number|string>} tids, or the names of /proc/<pid>/task */
  let threads = tids;
  if (!threads) {
    try {
      threads = readdirSync(`/proc/${pid}/task`);
    } catch (error) {
      noteReadFailure(error);
      return [];
    }
  }
  const children = [];
  for (const tid of threads) {
    let text;
    try {
      text = readFileSync(`/proc/${pid}/task/${tid}/children`, 'latin1');
    } catch (error) {
      noteReadFailure(error);
      continue;
    }
    for (const child of text.split(' ')) if (child) children.push(Number(child));
  }
  return children;
}

/**
 * Whether a process is a node:cluster worker: cluster.fork() puts NODE_UNIQUE_ID in its environment,
 * which the worker takes out of process.env as it starts (so its own children do not carry it), while
 * /proc/<pid>/environ keeps the environment it was started with.
 * @param {number} pid
 */
export function isClusterWorker(pid) {
  return environHas(pid, 'NODE_UNIQUE_ID') === true;
}

/**
 * A /proc file's text, or null when it cannot be read (gone, no /proc, no permission):
 * every reader here gives up the same way.
 * @param {string} file
 * @returns {string|null}
 */
export function readProcText(file) {
  try {
    return readFileSync(file, 'latin1');
  } catch (error) {
    noteReadFailure(error);
    return null;
  }
}

/**
 * CPU time per core from /proc/stat, in clock ticks.
 * @returns {Array<{ busy: number, total: number }>}
 */
export function readCpuTimes() {
  const text = readProcText('/proc/stat');
  if (text === null) return [];
  const cores = [];
  for (const line of text.split('\n')) {
    if (!/^cpu\d/.test(line)) continue;
    const [, user, nice, system, idle, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.split(/\s+/).map(Number);
    const total = user + nice + system + idle + iowait + irq + softirq + steal;
    cores.push({ busy: total - idle - iowait, total });
  }
  return cores;
}

/**
 * Live (not zombie) processes of a process group, from /proc: what is left of a
 * strategy or server spawnbench started in a group of its own.
 * @param {number} pgid
 * @param {number[]} [candidates] where to look (a cgroup's members); default every process in /proc
 * @returns {number[]}
 */
export function pidsInGroup(pgid, candidates = procPids()) {
  return candidates.filter((pid) => {
    // Only the state and the group, not readStat's whole parse (its name is decoded and cleaned): a scan reads every
    // process on the machine, 2.6 → 1.8 ms of CPU at 71 processes.
    let text;
    try {
      text = readFileSync(`/proc/${pid}/stat`, 'latin1');
    } catch (error) {
      noteReadFailure(error);
      return false;
    }
    const [state, , pgrp] = text.slice(text.lastIndexOf(')') + 2).split(' ', 3);
    return Number(pgrp) === pgid && state !== 'Z';
  });
}

/**
 * Every process id in /proc (an empty list where there is no /proc).
 * @returns {number[]}
 */
export function procPids() {
  let names;
  try {
    names = readdirSync('/proc');
  } catch (error) {
    noteReadFailure(error);
    return [];
  }
  return names.filter((name) => /^\d+$/.test(name)).map(Number);
}

/**
 * What a process's open file descriptors point at (`socket:[123]`, `pipe:[45]`, a path),
 * from /proc/<pid>/fd; an fd closed between the listing and its read is left out.
 * @param {number} pid
 * @returns {string[]} empty when the process is gone or not readable
 */
export function fdLinks(pid) {
  let fds;
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const links = [];
  for (const fd of fds) {
    try {
      links.push(readlinkSync(`/proc/${pid}/fd/${fd}`));
    } catch {
      // closed between readdir and readlink
    }
  }
  return links;
}

/**
 * The program a process runs: its executable's file name (/proc/<pid>/exe), which a process
 * cannot rename as it can its comm; null when /proc does not say (gone, or not readable).
 * @param {number} pid
 * @returns {string|null}
 */
export function programOf(pid) {
  try {
    const exe = readlinkSync(`/proc/${pid}/exe`).replace(/ \(deleted\)$/, '');
    return plainText(exe.slice(exe.lastIndexOf('/') + 1)) || null;
  } catch {
    return null;
  }
}

/** A process's real user id (/proc/<pid>/status), or null when it cannot be read. */
export function uidOf(pid) {
  try {
    const uid = Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1]);
    return Number.isInteger(uid) ? uid : null;
  } catch {
    return null;
  }
}

/**
 * Whether a process's environment holds the variable `name` (/proc/<pid>/environ, as it was at its exec),
 * or null when it cannot be read.
 * @param {number} pid
 * @param {string} name
 * @returns {boolean|null}
 */
export function environHas(pid, name) {
  try {
    return readFileSync(`/proc/${pid}/environ`, 'latin1').split('\0').some((entry) => entry.startsWith(`${name}=`));
  } catch {
    return null;
  }
}

/** /proc/net/tcp's state column: a listening socket, an established connection. */
export const TCP_LISTEN = '0A';
export const TCP_ESTABLISHED = '01';

/** Where a row's state starts, counted from its row number's colon: ": " and two endpoints (8 or 32 hex digits, ":", 4), each with its space. */
const STATE_OFFSET = { tcp: 2 + 2 * (8 + 1 + 4 + 1), tcp6: 2 + 2 * (32 + 1 + 4 + 1) };

/**
 * The TCP sockets of a network namespace, v4 and v6 (`/proc/net/tcp`, `tcp6`, or a
 * process's own `/proc/<pid>/net/tcp*`), addresses decoded: IPv4 dotted, IPv6 in
 * full hex groups, an IPv4-mapped v6 address as its IPv4.
 * `keep(state, inode)` picks the lines to decode: on a machine that a load test has just
 * left with thousands of sockets in TIME_WAIT, decoding every line took 66 ms a read
 * (2,000 lines), and the readiness wait reads the table every few milliseconds.
 * @param {string} [dir] '/proc/net' or '/proc/<pid>/net'
 * @param {(state: string, inode: string) => boolean} [keep] which lines to decode; all by default
 * @param {Set<string>|null} [states] the only states read at all (TCP_LISTEN, TCP_ESTABLISHED): other rows are
 *   skipped before they are split, which is most of a read on such a machine; `keep` still decides among the rest
 * @returns {Array<{ local: { address: string, port: number }, remote: { address: string, port: number }, state: string, inode: string }>}
 */
export function readTcpTables(dir = '/proc/net', keep = () => true, states = null) {
  const sockets = [];
  for (const name of ['tcp', 'tcp6']) {
    const text = readProcText(`${dir}/${name}`);
    if (text === null) continue;
    const lines = text.split('\n');
    const stateAt = STATE_OFFSET[name];
    for (let i = 1; i < lines.length; i++) {
      const line = lines[i];
      if (states) {
        // The state sits at a fixed place after the row number's colon ("%4d: %08X:%04X %08X:%04X %02X"):
        // a row in another state (the TIME_WAIT thousands) is skipped without splitting it.
        const at = line.indexOf(':') + stateAt;
        if (line.charCodeAt(at - 1) === 32 && line.charCodeAt(at + 2) === 32 && !states.has(line.slice(at, at + 2))) continue;
      }
      // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode
      const fields = leadingFields(line, 10);
      if (fields.length < 10 || !keep(fields[3], fields[9])) continue;
      sockets.push({ local: decodeEndpoint(fields[1]), remote: decodeEndpoint(fields[2]), state: fields[3], inode: fields[9] });
    }
  }
  return sockets;
}

/**
 * The first `count` fields of a line split on spaces (a /proc table's row; its trailing
 * fields are not split: a TCP row has 17 and the reader needs 10).
 * @param {string} line
 * @param {number} count
 */
function leadingFields(line, count) {
  const fields = [];
  let at = 0;
  while (fields.length < count) {
    while (at < line.length && (line.charCodeAt(at) === 32 || line.charCodeAt(at) === 9)) at++;
    if (at >= line.length) break;
    let end = at;
    while (end < line.length && line.charCodeAt(end) !== 32 && line.charCodeAt(end) !== 9) end++;
    fields.push(line.slice(at, end));
    at = end;
  }
  return fields;
}

/** "0100007F:1538" → { address: '127.0.0.1', port: 5432 }; v6 addresses are four little-endian 32-bit words. */
export function decodeEndpoint(text) {
  const colon = text.indexOf(':');
  const hex = text.slice(0, colon);
  const port = parseInt(text.slice(colon + 1), 16);
  /** The 4 bytes of a little-endian 32-bit word written in 8 hex digits, in memory order. */
  const word = (at) => {
    const n = parseInt(hex.slice(at, at + 8), 16);
    return [n & 0xff, (n >>> 8) & 0xff, (n >>> 16) & 0xff, n >>> 24];
  };
  if (hex.length === 8) return { address: word(0).join('.'), port };
  const bytes = [...word(0), ...word(8), ...word(16), ...word(24)];
  if (hex.startsWith('0000000000000000') && hex.slice(16, 24).toUpperCase() === 'FFFF0000') return { address: bytes.slice(12).join('.'), port };
  const groups = [];
  for (let i = 0; i < 16; i += 2) groups.push(((bytes[i] << 8) | bytes[i + 1]).toString(16));
  return { address: groups.join(':').replace(/(^|:)0(:0)+(:|$)/, '::'), port };
}

/**
 * The socket inodes a process holds open (its fd links `socket:[N]`).
 * @param {number} pid
 * @returns {string[]}
 */
export function socketInodes(pid) {
  const inodes = [];
  for (const link of fdLinks(pid)) {
    if (link.startsWith('socket:[')) inodes.push(link.slice(8, -1));
  }
  return inodes;
}

/** The /proc/<pid>/limits rows spawnbench reads, by the name it gives them. */
const LIMIT_ROWS = { processes: 'Max processes', openFiles: 'Max open files' };

/**
 * A process's soft limits on processes (`ulimit -u`) and open files (`ulimit -n`),
 * from /proc/<pid>/limits; `unlimited` reads as Infinity.
 * @param {number|'self'} pid
 * @returns {{ processes: number|null, openFiles: number|null } | null} null when the process is gone or unreadable
 */
export function readLimits(pid) {
  const text = readProcText(`/proc/${pid}/limits`);
  if (text === null) return null;
  // Every key of LIMIT_ROWS is set below.
  const limits = /** @type {{ processes: number|null, openFiles: number|null }} */ ({});
  for (const [key, row] of Object.entries(LIMIT_ROWS)) {
    limits[key] = limitRow(text, row)?.soft ?? null;
  }
  return limits;
}
