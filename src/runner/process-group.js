/**
 * Starts any server process as its own process group (a strategy, a fixture
 * server, the user's server for diagnose), waits until it is ready on a port,
 * relays its stdout lines as events, and stops it with everything it started.
 */
import { spawn } from 'node:child_process';
import { EventEmitter, once } from 'node:events';
import { RunError } from '../errors.js';
import { signalGroup, trackGroup } from './cleanup.js';
import { startGroupWatchdog } from './group-watchdog.js';
import { readBoundedLines, createStderrTail } from './output-lines.js';
import { spawnInCgroup, killCgroup, removeCgroup } from './cgroup-containment.js';
import { trackTree, stdioLinks, pipeHolders, endProcesses } from './escapees.js';
import { readyLineProblem, workersLineProblem, protocolMessage } from './control-lines.js';

import { READY_TIMEOUT_MS, STOP_GRACE_MS } from '../thresholds.js';

export { READY_TIMEOUT_MS, STOP_GRACE_MS };

/**
 * @typedef {object} StrategyProcess
 * @property {number} pid
 * @property {number} port
 * @property {() => string} stderrTail last lines of stderr
 * @property {() => Promise<{code: number|null, signal: string|null}>} stop SIGTERM, grace, then SIGKILL to the group
 * @property {Promise<{code: number|null, signal: string|null}>} exited
 * @property {() => {id:number, pid:number, threadId:number|null, inFlight:number, completed:number, failed:number}[]} workers
 */

/**
 * @param {object} options
 * @param {string} options.command executable
 * @param {string[]} options.args
 * @param {Record<string,string>} [options.env] added to process.env
 * @param {string} [options.label] for messages ("strategy 'baseline'")
 * @param {(line: string, stream: 'stdout'|'stderr') => void} [options.onOutput] every line that is not for spawnbench
 * @param {number} [options.readyTimeoutMs]
 * @param {(child: import('node:child_process').ChildProcess) => Promise<number>} [options.waitForPort]
 *   how readiness is known; default: the `{"spawnbench":"ready","port":N}` stdout line
 * @param {AbortSignal} [options.signal] ends the wait for readiness at once (Ctrl-C, SIGTERM): the
 *   process is stopped and the promise rejects with an error marked `stoppedEarly`
 * @returns {Promise<StrategyProcess & EventEmitter>}
 */
export async function startProcessGroup({
  command,
  args,
  env = {},
  label = 'strategy',
  onOutput = () => {},
  readyTimeoutMs = READY_TIMEOUT_MS,
  waitForPort,
  signal,
}) {
  const events = new EventEmitter();
  const tail = createStderrTail();
  let protocolError = null;
  const workers = new Map();
  // Escapees (setsid, double fork) leave the group: a cgroup holds them where one can be made,
  // and the tree and the stdio pipes find them otherwise (escapees.js).
  const { child, containment } = spawnInCgroup(() => spawn(command, args, {
    detached: true, // its own process group: one kill reaches every process it starts
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  }));
  const untrack = child.pid ? trackGroup(child.pid) : () => {};
  const tree = child.pid ? trackTree(child.pid) : null;
  const pipes = child.pid ? stdioLinks(child.pid) : [];
  // Stops the group even when spawnbench is SIGKILLed (no exit handler of ours runs then).
  const watchdog = child.pid ? startGroupWatchdog(child.pid, STOP_GRACE_MS, containment.dir) : null;
  const exited = new Promise((resolve) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', (error) => resolve({ code: null, signal: null, error }));
  });
  child.stdin.on('error', () => {});

  // Bounded: a child writing without newlines must not grow spawnbench (see output-lines.js).
  readBoundedLines(child.stderr, (line, { cut }) => {
    tail.add(line);
    onOutput(cut ? `${line} [line cut at ${line.length} characters]` : line, 'stderr');
  });
  readBoundedLines(child.stdout, (line, { cut }) => {
    const message = cut ? null : parseControlLine(line);
    if (!message) return onOutput(cut ? `${line} [line cut at ${line.length} characters]` : line, 'stdout');
    const problem = message.spawnbench === 'ready' ? readyLineProblem(message) : message.spawnbench === 'workers' ? workersLineProblem(message) : null;
    if (problem && waitForPort) return onOutput(line, 'stdout'); // a user's server owes us no protocol
    if (problem) {
      // The strategy's fault: said once, with the line; the run stops on it (see run.js).
      protocolError ??= new RunError(protocolMessage(label, problem, line));
      events.emit('protocol-error', protocolError);
      return;
    }
    if (message.spawnbench === 'ready') events.emit('ready', message);
    else if (message.spawnbench === 'workers') {
      for (const w of message.workers) workers.set(w.id, w);
      events.emit('workers', [...workers.values()]);
    } else events.emit('message', message);
  });

  const stderrTail = () => tail.text();
  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      let escapees = null;
      if (child.pid) {
        tree.scan(); // the latest children, before the group goes
        if (child.exitCode === null && child.signalCode === null) signalGroup(child.pid, 'SIGTERM');
        // Give the whole group the grace period, not just the leader: a shell leader exits at
        // once while the server under it is still flushing (a CPU profile, a log).
        const graceOver = AbortSignal.timeout(STOP_GRACE_MS);
        await Promise.race([exited, new Promise((resolve) => graceOver.addEventListener('abort', resolve, { once: true }))]);
        await waitGroupEmpty(child.pid, graceOver);
        // Whatever is left (a stuck worker, an orphaned spawned command) is killed now.
        signalGroup(child.pid, 'SIGKILL');
        escapees = endEscapees();
      }
      untrack();
      watchdog?.stop();
      // Never wait on pipes an escapee may still hold: the child's end is read no further.
      for (const stream of [child.stdout, child.stderr, child.stdin]) stream?.destroy();
      if (containment.dir) await removeCgroup(containment.dir);
      const { method, why } = containment;
      return { ...(await exited), containment: { method, ...(why && { why }), escapees } };
    })();
    return stopping;
  };

  /** Ends what left the group: the whole cgroup, the remembered tree, whoever holds our pipes. */
  function endEscapees() {
    tree.stop();
    const found = new Map();
    for (const p of [...tree.alive(), ...pipeHolders(pipes)]) found.set(p.pid, p);
    if (containment.dir) killCgroup(containment.dir);
    const { ended, failed } = endProcesses([...found.values()]);
    return { found: found.size, ended: ended.length, notEnded: failed };
  }

  try {
    const port = await waitReady({ child, events, exited, label, stderrTail, readyTimeoutMs, waitForPort, signal });
    return Object.assign(events, { pid: child.pid, port, stderrTail, stop, exited, workers: () => [...workers.values()], child });
  } catch (error) {
    await stop();
    throw error;
  }
}

/** How often an emptying process group is checked during the stop grace period. */
const GROUP_POLL_MS = 25;

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves once no process is left in the group (kill(-pgid, 0) fails with ESRCH), or when `signal` aborts. */
async function waitGroupEmpty(pgid, signal) {
  while (!signal.aborted && signalGroup(pgid, 0)) await delay(GROUP_POLL_MS);
}

function parseControlLine(line) {
  if (!line.startsWith('{"spawnbench"')) return null;
  try {
    return JSON.parse(line);
  } catch {
    return null;
  }
}

async function waitReady({ child, events, exited, label, stderrTail, readyTimeoutMs, waitForPort, signal }) {
  const ac = new AbortController();
  const stoppedEarly = () => Object.assign(new RunError(`stopped before ${label} ${waitForPort ? 'accepted connections' : 'was ready'}`), { stoppedEarly: true });
  let onAbort;
  const aborted = new Promise((_, reject) => {
    onAbort = () => reject(stoppedEarly());
    if (signal?.aborted) onAbort();
    else signal?.addEventListener('abort', onAbort, { once: true });
  });
  const early = exited.then(({ code, signal, error }) => {
    if (error) throw new RunError(`${label} could not be started: ${error.message}`);
    const why = signal ? `was killed by ${signal}` : `exited with code ${code}`;
    const tail = stderrTail();
    throw new RunError(`${label} ${why} before it was ready${tail ? `; its stderr ends:\n${tail}` : ''}`);
  });
  const ready = waitForPort ? waitForPort(child) : once(events, 'ready', { signal: ac.signal }).then(([m]) => m.port);
  const broken = once(events, 'protocol-error', { signal: ac.signal }).then(([error]) => { throw error; });
  let timer;
  const timeout = new Promise((_, reject) => {
    timer = setTimeout(() => {
      const tail = stderrTail();
      reject(new RunError(`${label} did not report a listening port within ${readyTimeoutMs / 1000}s${tail ? `; its stderr ends:\n${tail}` : ''}`));
    }, readyTimeoutMs);
  });
  try {
    return await Promise.race([aborted, ready, early, timeout, broken]);
  } catch (error) {
    // A wait that failed because of the stop (an aborted readiness poll) is the stop too.
    throw signal?.aborted ? stoppedEarly() : error;
  } finally {
    clearTimeout(timer);
    ac.abort();
    signal?.removeEventListener('abort', onAbort);
    for (const p of [early, aborted, ready, broken]) p.catch(() => {});
  }
}

/** The name this function had when only strategies were started with it (kept for existing callers). */
export const startStrategyProcess = startProcessGroup;
