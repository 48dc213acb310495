/**
 * Starts a server process spawnbench measures (a strategy, a fixture server, the
 * user's server) as a contained spawn (contained-spawn.js) and waits until it is
 * ready. Readiness is an explicit choice, because the two kinds of server differ:
 * - 'protocol': a built-in strategy prints `{"spawnbench":"ready","port":N}` and
 *   workers lines on stdout (control-lines.js); a bad line is its fault;
 * - { port, ... }: a user's server owes spawnbench no protocol: it is ready when it
 *   accepts TCP connections on that port (wait-listening.js); its stdout is output.
 */
import { EventEmitter, once } from 'node:events';
import { RunError } from '../base/errors.js';
import { spawnContained, withCutNote } from './contained-spawn.js';
import { createControlReader } from './control-lines.js';
import { waitListening } from './wait-listening.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { READY_TIMEOUT_MS, DAEMON_LISTEN_GRACE_MS } from '../base/thresholds.js';
import { processLimitReached, processLimitClose, threadStartFailure, processLimitMessage, startLimitFailureMessage, ownStartFailure } from './start-limits.js';

/** How often, while a server starts, the process limit is checked (ms), and in how many checks in a row it must be reached. */
const LIMIT_POLL_MS = 500;
const LIMIT_POLLS = 2;

/**
 * @typedef {object} StrategyProcess
 * @property {number} pid
 * @property {number} port
 * @property {string} host the loopback address it answered on
 * @property {() => string} stderrTail last lines of stderr
 * @property {() => Promise<{code: number|null, signal: string|null, containment: object}>} stop SIGTERM, grace, then SIGKILL to the group
 * @property {Promise<{code: number|null, signal: string|null}>} exited
 * @property {() => {id:number, pid:number, threadId:number|null, inFlight:number, completed:number, failed:number}[]} workers
 *   the strategy's last workers line (always empty for a user's server)
 * @property {import('node:child_process').ChildProcess} child the process spawned (its exit code, once it exited)
 */

/**
 * Readiness of a user's server: it accepts connections on `port`.
 * @typedef {object} TcpReadiness
 * @property {number} port
 * @property {'PORT'|'--port'} portSource how the port was chosen, for the messages
 * @property {number} timeoutMs how long to poll (the start's own timeout is readyTimeoutMs)
 * @property {() => number[]} mentionedPorts ports its output mentions, for the hint
 * @property {() => number[]} [debuggerPorts] ports Node's inspector said it listens on (--inspect): not the server's
 * @property {boolean} [mayDaemonise] a clean exit (code 0) before readiness is a launcher that left the
 *   server in the background (runner/daemon.js): the port is still waited for
 */

/**
 * @param {object} options
 * @param {string} options.command executable
 * @param {string[]} options.args
 * @param {Record<string,string>} [options.env] added to process.env
 * @param {string} [options.label] for messages ("strategy 'baseline'")
 * @param {(line: string, stream: 'stdout'|'stderr') => void} [options.onOutput] every line that is not for spawnbench
 * @param {number} [options.readyTimeoutMs]
 * @param {'protocol'|TcpReadiness} [options.readiness] how readiness is known (see the top of this file)
 * @param {AbortSignal} [options.signal] ends the wait for readiness at once (Ctrl-C, SIGTERM): the
 *   process is stopped and the promise rejects with an error marked `stoppedEarly`
 * @param {(exit: { code: number|null, signal: string|null }) => string|null} [options.describeEarlyExit] the
 *   reason for an exit before readiness, read before the group is stopped (a daemon's background process
 *   still serves then); null: "exited with code N before it was ready"
 * @returns {Promise<StrategyProcess & EventEmitter>} emits `workers` and `protocol-error` ('protocol')
 */
export async function startProcessGroup({
  command,
  args,
  env = {},
  label = 'strategy',
  onOutput = () => {},
  readyTimeoutMs = READY_TIMEOUT_MS,
  readiness = 'protocol',
  signal,
  describeEarlyExit = () => null,
}) {
  const events = new EventEmitter();
  const control = readiness === 'protocol' ? createControlReader({ label, events, onOutput: (line) => onOutput(line, 'stdout'), withCutNote }) : null;
  const proc = spawnContained({
    command,
    args,
    env,
    onStdout: control ? control.read : (line, { cut }) => onOutput(withCutNote(line, cut), 'stdout'),
    onStderr: (line) => onOutput(line, 'stderr'),
  });
  const { child, exited, stderrTail, stop } = proc;
  const settled = new AbortController();
  const ready = control
    ? once(events, 'ready', { signal: settled.signal }).then(([message]) => ({ host: '127.0.0.1', port: message.port }))
    : acceptsConnections(child, /** @type {TcpReadiness} */ (readiness), label, signal, settled.signal);
  try {
    const daemonOk = readiness !== 'protocol' && Boolean(readiness.mayDaemonise);
    const { host, port } = await waitReady({ ready, events, exited, label, stderrTail, readyTimeoutMs, protocol: Boolean(control), daemonOk, signal, describeEarlyExit, pid: child.pid });
    return Object.assign(events, { pid: child.pid, port, host, stderrTail, stop, exited, workers: control ? control.workers : () => [], child });
  } catch (error) {
    await stop();
    throw error;
  } finally {
    settled.abort();
  }
}

/**
 * Polls until the server accepts connections on the port; gives up when it exits or the start is stopped.
 * @param {import('node:child_process').ChildProcess} child
 * @param {TcpReadiness} readiness
 * @param {string} label
 * @param {AbortSignal} [signal]
 * @param {AbortSignal} [settled] aborted once the start succeeded or failed
 */
function acceptsConnections(child, { port, portSource, timeoutMs, mentionedPorts, debuggerPorts, mayDaemonise = false }, label, signal, settled) {
  const ac = new AbortController();
  child.once('exit', (code) => {
    if (!(mayDaemonise && code === 0)) ac.abort();
  });
  child.once('error', () => ac.abort()); // could not start (ENOENT, EACCES): no 'exit' comes, stop polling now
  // The caller's signal lives longer than one start (a tune's, over every step): its listener goes
  // when the poll ends, or each start left one behind (MaxListenersExceededWarning after 11 steps).
  const forward = () => ac.abort();
  signal?.addEventListener('abort', forward, { once: true });
  // The start settled another way (an exit, the process limit): the poll ends with it.
  settled?.addEventListener('abort', () => ac.abort(), { once: true });
  return waitListening({ pgid: child.pid, port, label, portSource, readyTimeoutMs: timeoutMs, mentionedPorts, debuggerPorts, signal: ac.signal })
    .finally(() => signal?.removeEventListener('abort', forward));
}

async function waitReady({ ready, events, exited, label, stderrTail, readyTimeoutMs, protocol, daemonOk = false, signal, describeEarlyExit, pid }) {
  const ac = new AbortController();
  const stoppedEarly = () => Object.assign(new RunError(`stopped before ${label} ${protocol ? 'was ready' : 'accepted connections'}`), { stoppedEarly: true });
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => reject(stoppedEarly());
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  // Set once it exited 0 with the port still to answer: a ready timeout inside the grace is that exit, not the port.
  let exitedZero = false;
  const early = exited.then(({ code, signal, error }) => {
    if (error) {
      // Under the process limit the fork itself fails (`ulimit -u 11`: "spawn node EAGAIN"): say the limit.
      const limited = ownStartFailure(label, error);
      throw limited !== error ? limited : new RunError(`${label} could not be started: ${error.message}`);
    }
    // A launcher that exits 0 may have left the server in the background: the port decides.
    // It has DAEMON_LISTEN_GRACE_MS for the port to answer; then it simply exited.
    if (daemonOk && code === 0 && !signal) {
      exitedZero = true;
      return sleep(DAEMON_LISTEN_GRACE_MS, null, { signal: ac.signal }).then(() => {
        throw new RunError(`${label} exited with code 0 before it was ready, and nothing listened on its port ${DAEMON_LISTEN_GRACE_MS / 1000}s later: a server keeps running (or, if it puts itself in the background, leaves a process that listens)`);
      });
    }
    const described = describeEarlyExit({ code, signal });
    if (described) throw new RunError(described);
    const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const tail = stderrTail();
    // Its address space or descriptors ran out (V8's or libuv's own words in its stderr): first, since the native
    // stack of a loop that could not open names WorkerThreadsTaskRunner, which reads as a thread it could not make.
    const startLimit = startLimitFailureMessage(label, why, tail);
    if (startLimit) throw new RunError(startLimit);
    // A Node that could not make its threads aborts with a native stack: say the limit instead.
    // Or one of its workers aborted short of threads, and the process limit leaves no room for them.
    const limited = threadStartFailure(tail) ?? (code !== 0 || signal ? processLimitClose('self') : null);
    if (limited) throw new RunError(processLimitMessage(label, limited));
    throw new RunError(`${label} ${why} before it was ready${tail ? `; its stderr ends:\n${tail}` : ''}`);
  });
  const broken = protocol ? once(events, 'protocol-error', { signal: ac.signal }).then(([error]) => { throw error; }) : new Promise(() => {});
  // A Node short of threads may wait for one forever: the process limit, once reached, ends the wait.
  let limitTimer;
  const limited = new Promise((_, reject) => {
    let seen = 0;
    limitTimer = setInterval(() => {
      const reached = pid ? processLimitReached(pid) : null;
      seen = reached ? seen + 1 : 0;
      if (seen >= LIMIT_POLLS) reject(new RunError(processLimitMessage(label, reached)));
    }, LIMIT_POLL_MS);
    limitTimer.unref?.();
  });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const tail = stderrTail();
      // A Node that could not make a thread may wait for it forever, below the limit by then.
      const close = processLimitClose('self');
      if (close) return reject(new RunError(processLimitMessage(label, close)));
      reject(new RunError(`${label} did not report a listening port within ${readyTimeoutMs / 1000}s${tail ? `; its stderr ends:\n${tail}` : ''}`));
    }, readyTimeoutMs);
  });
  try {
    return await Promise.race([aborted, ready, early, timeout, broken, limited]);
  } catch (error) {
    // A wait that failed because of the stop (an aborted readiness poll) is the stop too.
    if (signal?.aborted) throw stoppedEarly();
    // --ready-timeout shorter than the grace: the command exited 0 and nothing listened in the whole wait (a port
    // found elsewhere, or a limit, keeps its own message).
    if (exitedZero && /did not (accept connections|report a listening port)/.test(error.message)) throw new RunError(`${label} exited with code 0 before it was ready, and nothing listened on its port before --ready-timeout ran out: a server keeps running (or, if it puts itself in the background, leaves a process that listens)`);
    throw error;
  } finally {
    clearTimeout(timer);
    clearInterval(limitTimer);
    ac.abort();
    signal?.removeEventListener('abort', onAbort);
    for (const p of [early, aborted, ready, broken, limited]) p.catch(() => {});
  }
}
