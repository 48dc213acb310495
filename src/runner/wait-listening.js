/**
 * Readiness for a server spawnbench did not write: it accepts TCP connections on
 * the expected port. While waiting, the process group's own listening sockets
 * (/proc) tell a server that listens elsewhere apart from one that is slow to
 * start, so the user gets "pass --port 4000" instead of a timeout.
 */
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { RunError } from '../base/errors.js';
import { listeningAddresses, listeningPorts } from './listening-ports.js';
import { processLimitClose, processLimitMessage } from './start-limits.js';
import { WRONG_PORT_GRACE_MS, WRONG_PORT_CHECK_MS } from '../base/thresholds.js';
import { ownCpuBudget, readServerCpu } from '../machine/cpu-budget.js';

/** Time between connection attempts, ms: readiness is seen within a tenth of a second. */
const POLL_MS = 100;
/** One connection attempt's limit, ms: loopback answers in microseconds; a silent drop means not ready. */
const CONNECT_TIMEOUT_MS = 500;
/** Hosts tried, in order: a server bound to 'localhost' on Node ≥ 17 may be on ::1 only. */
export const LOOPBACK_HOSTS = ['127.0.0.1', '::1'];

/**
 * Whether something accepts connections on host:port.
 * @returns {Promise<boolean>}
 */
export function accepts(host, port, timeoutMs = CONNECT_TIMEOUT_MS) {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * Resolves once the server accepts connections on `port`; rejects with a one-line
 * RunError when `readyTimeoutMs` passes, or earlier when it listens elsewhere.
 * @param {object} options
 * @param {number} options.pgid the server's process group
 * @param {number} options.port expected port
 * @param {string} options.label "'node server.js'"
 * @param {'PORT'|'--port'} options.portSource how the port was chosen, for the message
 * @param {number} options.readyTimeoutMs
 * @param {() => number[]} options.mentionedPorts ports seen in its output
 * @param {() => number[]} [options.debuggerPorts] ports Node's inspector listens on (--inspect): waited past, never
 *   named as the server's ("pass --port <the inspector's>" was said of a server slow to start)
 * @param {AbortSignal} [options.signal] stops waiting (the server exited)
 * @param {(pgid: number) => number[]} [options.portsOf] the group's listening ports (listeningPorts)
 * @param {(pgid: number, port: number) => string[]} [options.addressesOf] the addresses it listens on at the port that
 *   the loopback hosts do not reach (listeningAddresses): a server bound to its own HOST is driven there
 * @param {number} [options.graceMs] how long it may listen elsewhere only before that is the answer (WRONG_PORT_GRACE_MS)
 * @param {[number, number]} [options.ephemeral] the ports the kernel picks from for port 0 (ephemeralPorts)
 * @returns {Promise<{ host: string, port: number }>}
 */
export async function waitListening({ pgid, port, label, portSource, readyTimeoutMs, mentionedPorts, debuggerPorts = () => [], signal, portsOf = listeningPorts, addressesOf = listeningAddresses, graceMs = WRONG_PORT_GRACE_MS, ephemeral = ephemeralPorts() }) {
  const deadline = Date.now() + readyTimeoutMs;
  let elsewhereSince = null;
  let others = [];
  let checkedAt = -Infinity;
  while (!signal?.aborted) {
    for (const host of LOOPBACK_HOSTS) {
      if (await accepts(host, port)) return { host, port };
    }
    if (Date.now() - checkedAt >= WRONG_PORT_CHECK_MS) {
      checkedAt = Date.now();
      const debuggers = debuggerPorts();
      // Bound to one address that no loopback connect reaches (HOST=127.0.0.2, the machine's own address): driven there.
      for (const host of addressesOf(pgid, port)) {
        if (await accepts(host, port)) return { host, port };
      }
      others = portsOf(pgid).filter((p) => p !== port && !debuggers.includes(p));
      elsewhereSince = others.length > 0 ? elsewhereSince ?? checkedAt : null;
    }
    // A port the user named (--port) is waited for to the end: an admin port opened first is no answer to it, and "pass
    // --port <the admin port>" was said to a server given --port that opened its own 4.5 s after its admin port.
    if (portSource === 'PORT' && elsewhereSince !== null && Date.now() - elsewhereSince >= graceMs) {
      // A port the kernel picked (listen(0)) is another one at every start: "pass --port 38225" was said of one.
      const [low, high] = ephemeral;
      if (others.every((p) => p >= low && p <= high)) {
        throw new RunError(`${label} listens on ${list(others)}, not on port ${port}${given(portSource)}; ${others.length === 1 ? `port ${others[0]} is` : 'those are'} in the range the kernel picks from for port 0 (${low}–${high}): ` +
          `if it takes a free port of its own at each start (listen(0)), make it listen on process.env.PORT; if ${others.length === 1 ? `${others[0]} is its fixed port, pass --port ${others[0]}` : 'one of them is its fixed port, pass --port N with it'}` +
          ' (a server that opens an admin port first and its own later: pass its own, which is waited for up to --ready-timeout)');
      }
      // Of several, which serves its requests is the user's to say: "pass --port 39001" named its admin port of two.
      throw new RunError(`${label} listens on ${list(others)}, not on port ${port}${given(portSource)}; pass --port ${others.length === 1 ? others[0] : 'N with the one of them that serves its requests'}` +
        ' (a server that opens an admin port first and its own later: pass its own, which is waited for up to --ready-timeout)');
    }
    if (Date.now() >= deadline) throw await notListening({ label, port, portSource, readyTimeoutMs, mentioned: mentionedPorts(), quota: quotaOf(pgid), debuggers: debuggerPorts(), listensNowhere: others.length === 0, listening: others });
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  throw new RunError(`stopped before ${label} accepted connections`);
}

/**
 * The range the kernel picks a port from when a server listens on port 0
 * (/proc/sys/net/ipv4/ip_local_port_range; Linux's default where it cannot be read).
 * @returns {[number, number]}
 */
export function ephemeralPorts() {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high) && low <= high) return [low, high];
  } catch {
    // not Linux, or no /proc: the default below
  }
  return [32768, 60999];
}

/**
 * The timeout message. A port its output mentions that answers is the hint
 * ("it seems to listen on 4000"); one that does not answer is still named.
 */
async function notListening({ label, port, portSource, readyTimeoutMs, mentioned, quota, debuggers = [], listensNowhere = false, listening = [] }) {
  const others = mentioned.filter((p) => p !== port);
  // Nothing it started listened on any port: a slow start (a build, a compile, migrations) is as likely as a fixed
  // port of a server that left its group, and "pass --port N" alone sent a slow server's user after a port.
  const slowStart = listensNowhere && !quota ? `; nothing it started listens on any port yet: if it starts slowly, give it a longer --ready-timeout (now ${readyTimeoutMs / 1000}s)` : '';
  let hint = portSource === 'PORT' ? `${slowStart}; if it listens on a fixed port, pass --port N` : slowStart;
  // --port named a port it never opened, while it listens on others: say which (the PORT case says so after its grace).
  if (portSource !== 'PORT' && listening.length > 0) hint = `; it listens on ${list(listening)}: pass --port ${listening.length === 1 ? listening[0] : 'N with the one of them'} if that serves its requests`;
  // Its inspector listened and its server never did: a --inspect-brk waits for a debugger before any code runs.
  if (debuggers.length > 0) hint = `; only its Node inspector listens (port ${debuggers[0]}, a debugger's port, not its HTTP one): with --inspect-brk it waits for a debugger before it starts, so drop it or use --inspect`;
  if (others.length > 0) hint = `; its output mentions port ${others[0]}: if it listens there, pass --port ${others[0]}`;
  for (const candidate of others) {
    for (const host of LOOPBACK_HOSTS) {
      if (await accepts(host, candidate)) {
        hint = `; it seems to listen on ${candidate} (its output says so and the port answers): pass --port ${candidate}`;
        return new RunError(`${label} did not accept connections on port ${port}${given(portSource)}${hint}`);
      }
    }
  }
  // A Node (or a cluster worker) that could not make a thread may wait for it forever: with
  // little room left under the process limit, that is the likelier reason than a slow start.
  const close = processLimitClose('self');
  if (close) return new RunError(processLimitMessage(label, close));
  // A quota of a fraction of a CPU makes a start slow: say so, whatever else the port says.
  const slow = quota ? `; it runs under a CPU quota of ${quota.cpus} CPUs (cgroup ${quota.cgroup}), which may be what made its start this slow: raise the quota, or give it a longer --ready-timeout` : '';
  return new RunError(`${label} did not accept connections on port ${port}${given(portSource)} within ${readyTimeoutMs / 1000}s${slow}${hint}`);
}

/**
 * The CPU quota that binds the server's group, when it is less than one CPU: its own cgroup's
 * (read while it runs), else spawnbench's, which a server it started is under.
 * @returns {{ cpus: number, cgroup: string }|null}
 */
function quotaOf(pgid) {
  const quota = readServerCpu(pgid)?.limits.quota ?? ownCpuBudget().limits.quota;
  return quota && quota.cpus < 1 ? { cpus: quota.cpus, cgroup: quota.cgroup } : null;
}

function given(portSource) {
  return portSource === 'PORT' ? ' (given to it as PORT)' : '';
}

function list(ports) {
  return ports.length === 1 ? `port ${ports[0]}` : `ports ${ports.join(', ')}`;
}
