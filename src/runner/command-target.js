/**
 * Starts the user's server command (diagnose, and a tune or compare step on a
 * command): its own process group (stop() ends everything it started), PORT in
 * its environment, the probe (and diagnose's CPU profiler) through NODE_OPTIONS,
 * and readiness as "accepts TCP connections".
 */
import { startProcessGroup } from './process-group.js';
import { RunError } from '../base/errors.js';
import { findFreePort } from './free-port.js';
import { createPortHints } from './port-hints.js';
import { accepts, LOOPBACK_HOSTS } from './wait-listening.js';
import { readServerTree, listeningSnapshot } from './server-tree.js';
import { serverShape } from '../analysis/server-shape.js';
import { describeDaemonised, portListened } from './listening-ports.js';
import { ticksNow, findDaemon, watchDaemon, endDaemon } from './daemon.js';
import { STOP_GRACE_MS } from '../base/thresholds.js';

/**
 * Extra time the launcher's own timeout waits beyond ours, ms, so that our more
 * specific message (wrong port, no port) is the one the user sees.
 */
const LAUNCHER_TIMEOUT_MARGIN_MS = 5000;

/**
 * @typedef {object} StartedTarget a user's server command, started and answering
 * @property {import('./process-group.js').StrategyProcess} proc
 * @property {string} host
 * @property {number} port
 * @property {string} label
 * @property {number} serverPid the process that listens on the port (`proc.pid` unless a launcher such as npm started it)
 * @property {Array<{ pid: number, name: string }>} launchers the resident processes above it, from `proc` down
 *   (analysis/server-shape.js)
 * @property {{ pid: number, start: number, pgid: number, leaderPid: number }} [daemon] when the launcher
 *   daemonised; `proc.exited` is then the daemon's end
 * @property {import('./process-group.js').StrategyProcess['stop']} stop SIGTERM to the group, and SIGKILL only
 *   when the grace has passed or the group is empty (a shell that exits at once must not cut its node child's
 *   profile write short)
 */

/**
 * @param {object} options
 * @param {string[]} options.command argv: executable and arguments (no shell)
 * @param {number|null} options.port --port, or null to choose one and pass it as PORT
 * @param {Record<string, string>} options.env added to the environment (probe, profiler)
 * @param {number} options.readyTimeoutMs
 * @param {AbortSignal} [options.signal] gives up waiting (Ctrl-C); the server is then stopped
 * @param {(line: string, stream: 'stdout'|'stderr') => void} [options.onOutput]
 * @param {boolean} [options.mayDaemonise] a launcher that exits 0 and leaves the server in the
 *   background is followed to it (run -- <command>; runner/daemon.js): `daemon` is then set
 * @param {string} [options.label] how its messages name it, where the argv is not what the user wrote (tune --processes)
 * @returns {Promise<StartedTarget>}
 */
export async function startTarget({ command, port: fixedPort, env, readyTimeoutMs, signal, onOutput = () => {}, mayDaemonise = false, label = `'${command.join(' ')}'` }) {
  if (fixedPort !== null) {
    for (const host of LOOPBACK_HOSTS) {
      if (await accepts(host, fixedPort)) {
        throw new RunError(`port ${fixedPort} already answers before ${label} started: stop what listens there, or use --url to diagnose it as it runs`);
      }
    }
  }
  const port = fixedPort ?? (await findFreePort());
  const hints = createPortHints();
  const since = mayDaemonise ? ticksNow() : null;
  const proc = await startProcessGroup({
    command: command[0],
    args: command.slice(1),
    env: { ...env, PORT: String(port) },
    label,
    readyTimeoutMs: readyTimeoutMs + LAUNCHER_TIMEOUT_MARGIN_MS,
    signal,
    // Exit 0 while its port answers: it went to the background, as a daemon does.
    describeEarlyExit: ({ code, signal: killedBy }) => (code === 0 && !killedBy && portListened(port) ? describeDaemonised(label, port, 'before it was ready') : null),
    onOutput: (line, stream) => {
      hints.add(line);
      onOutput(line, stream);
    },
    readiness: { port, portSource: fixedPort === null ? 'PORT' : '--port', timeoutMs: readyTimeoutMs, mentionedPorts: hints.ports, debuggerPorts: hints.debuggers, mayDaemonise: since !== null },
  });
  // proc.stop() gives the whole group its grace (a shell or npm leader exits at once while
  // its Node child still writes its CPU profile), then SIGKILLs what is left.
  // The server is the process that listens, below any launcher (npm → sh → node app.js).
  // A launcher that restarts its server (nodemon) may be between two children just now: while
  // it runs and nothing of its group listens, its tree is read again for a while.
  const tree = proc.child.exitCode === null ? (await listeningSnapshot(proc.pid, port)).tree : readServerTree(proc.pid, port);
  // The command exited 0, or it still runs but nothing in its group listens: the server is in the background.
  if (since !== null && (proc.child.exitCode === 0 || !tree.some((p) => p.listens))) {
    return daemonTarget({ proc, port, label, since });
  }
  const { pid: serverPid, launchers } = serverShape(tree, { rootPid: proc.pid });
  return { proc, host: proc.host, port, label, serverPid: serverPid ?? proc.pid, launchers, stop: () => proc.stop() };
}

/** How long a command that stopped listening may take to exit, ms, before it is read as not crashed. */
const CRASH_WAIT_MS = 1000;

/**
 * How the command ended when it failed (a code other than 0, or a signal) within
 * CRASH_WAIT_MS: 'exited with code 1', 'was killed by SIGSEGV'; null when it exited 0 or still runs.
 * @param {import('./process-group.js').StrategyProcess} proc
 * @returns {Promise<string|null>}
 */
async function crashedSoon(proc) {
  let timer;
  const end = await Promise.race([proc.exited, new Promise((resolve) => { timer = setTimeout(resolve, CRASH_WAIT_MS, null); })]);
  clearTimeout(timer);
  if (!end || (end.code === 0 && !end.signal)) return null;
  return end.signal ? `was killed by ${end.signal}` : `exited with code ${end.code}`;
}

/**
 * The launcher exited 0 (or lingers) and the port answers from outside its group:
 * the server runs in the background.
 * Its process stands in for the launcher's: its end is the crash watch's `exited`,
 * its group the tree that is read, and stop() ends it and what it started too.
 * @returns {Promise<StartedTarget>}
 */
async function daemonTarget({ proc, port, label, since }) {
  const daemon = findDaemon(port, since);
  if (!daemon) {
    // A server that crashed just after its port answered (a second worker thread's listen
    // failing with EADDRINUSE) is no daemon: it was said to be "something that was running before".
    const crash = await crashedSoon(proc);
    const running = proc.child.exitCode === null;
    await proc.stop();
    if (crash) throw new RunError(`${label} ${crash} just after its port ${port} answered${proc.stderrTail() ? `; its stderr ends:\n${proc.stderrTail()}` : ''}`);
    const state = running ? `runs, nothing it started listens on port ${port}, and the port answers` : `exited and port ${port} answers`;
    throw new RunError(`${label} ${state}, but from no process started after it: something that was running before serves that port; stop it, or give another --port`);
  }
  const watch = watchDaemon(daemon);
  const { launchers } = serverShape(readServerTree(daemon.pgid, port), { rootPid: daemon.pgid });
  const stop = async () => {
    watch.stop();
    const stopped = await proc.stop();
    const ended = await endDaemon(daemon, since, STOP_GRACE_MS);
    return { ...stopped, containment: { ...stopped.containment, daemon: { pid: daemon.pid, ended: ended.ended.length, notEnded: ended.failed } } };
  };
  const daemonProc = Object.assign(Object.create(proc), { exited: watch.exited, stop });
  return {
    proc: daemonProc,
    host: proc.host,
    port,
    label,
    serverPid: daemon.pid,
    launchers,
    daemon: { ...daemon, leaderPid: proc.pid },
    stop,
  };
}
