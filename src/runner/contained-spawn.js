/**
 * A contained spawn: one process started as its own process group (and, where
 * spawnbench can make one, in a cgroup of its own), registered for exit cleanup,
 * watched by a watchdog that outlives a SIGKILLed spawnbench, its tree and stdio
 * pipes remembered so escapees are found, and stop(): SIGTERM, the grace period,
 * SIGKILL to whatever is left, escapees ended. Its output arrives line by line,
 * bounded. It knows nothing of readiness or of what the lines say (process-group.js).
 */
import { spawn } from 'node:child_process';
import { signalGroup, trackGroup } from './cleanup.js';
import { startGroupWatchdog } from './group-watchdog.js';
import { readBoundedLines, createStderrTail } from './output-lines.js';
import { spawnInCgroup, killCgroup, removeCgroup, cgroupPids, cgroupHolds } from './cgroup-containment.js';
import { trackTree, trackMembers, markHolders, MARK_VARIABLE, stdioLinks, pipeHolders, endProcesses, outsideGroup, TREE_SCAN_MS } from './escapees.js';
import { pidsInGroup } from '../sample/proc.js';
import { STOP_GRACE_MS } from '../base/thresholds.js';

/**
 * @typedef {object} ContainedProcess
 * @property {import('node:child_process').ChildProcess} child
 * @property {number|undefined} pid undefined when it could not be started
 * @property {Promise<{ code: number|null, signal: string|null, error?: Error }>} exited
 * @property {() => string} stderrTail last lines of stderr
 * @property {() => Promise<{ code: number|null, signal: string|null, containment: object }>} stop
 *   SIGTERM to the group, the grace, SIGKILL to what is left and to the escapees; idempotent
 */

/** A line cut at the reader's bound says so. */
export const withCutNote = (line, cut) => (cut ? `${line} [line cut at ${line.length} characters]` : line);

/**
 * @param {object} options
 * @param {string} options.command executable
 * @param {string[]} options.args
 * @param {Record<string,string>} [options.env] added to process.env
 * @param {(line: string, info: { cut: boolean }) => void} options.onStdout each stdout line
 * @param {(line: string) => void} options.onStderr each stderr line (a cut one says so)
 * @returns {ContainedProcess}
 */
export function spawnContained({ command, args, env = {}, onStdout, onStderr }) {
  const tail = createStderrTail();
  // Escapees (setsid, double fork) leave the group: a cgroup holds them where one can be made,
  // and the tree and the stdio pipes find them otherwise (escapees.js).
  // A mark in its environment finds at stop what it started and sent out of both the group and the cgroup.
  const mark = `${process.pid}-${Date.now()}-${++marks}`;
  const spawned = spawnInCgroup(() => spawn(command, args, {
    detached: true, // its own process group: one kill reaches every process it starts
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env, [MARK_VARIABLE]: mark },
  }));
  const { child } = spawned;
  /** @type {{ method: string, dir?: string, why?: string }} */
  const containment = spawned.containment;
  const untrack = child.pid ? trackGroup(child.pid) : () => {};
  // In a cgroup every process it starts stays in reach, wherever it goes: no tree to remember
  // (a scan of every process in /proc 4 times a second) and no pipes to look for at stop.
  let tree = child.pid && !containment.dir ? trackTree(child.pid) : null;
  // Read at once in either case (two readlinks): by the time a server is seen leaving its cgroup, the pipes are needed.
  const pipes = child.pid ? stdioLinks(child.pid) : [];
  // A server that moves itself out of the cgroup (cgexec, systemd-run --scope) takes what it
  // starts out of cgroup.kill's reach: from then on its tree and pipes are remembered as
  // without a cgroup. Only its own cgroup file is read until then.
  // A process it starts may move itself out too (setsid into another cgroup): the members are remembered.
  const members = containment.dir ? trackMembers(() => cgroupPids(/** @type {string} */ (containment.dir))) : null;
  const leftCgroup = () => {
    members?.scan();
    if (tree || !containment.dir || !child.pid || cgroupHolds(containment.dir, child.pid)) return;
    tree = trackTree(child.pid);
    tree.scan();
  };
  const cgroupWatch = containment.dir && child.pid ? setInterval(leftCgroup, TREE_SCAN_MS) : null;
  cgroupWatch?.unref();
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
    onStderr(withCutNote(line, cut));
  });
  readBoundedLines(child.stdout, onStdout);

  /** Ends what left the group: the cgroup's members outside it, then the whole cgroup; or the remembered tree and whoever holds our pipes. */
  function endEscapees() {
    tree?.stop();
    const candidates = [
      ...(containment.dir ? outsideGroup(cgroupPids(containment.dir), child.pid) : []),
      ...(members ? members.left() : []),
      ...markHolders(mark, child.pid),
      ...(tree ? [...tree.alive(), ...pipeHolders(pipes)] : []),
    ];
    const found = new Map(candidates.map((p) => [p.pid, p]));
    const { ended, failed } = endProcesses([...found.values()]);
    // Whatever the cgroup still holds (one forked since the listing): cgroup.kill reaches it.
    if (containment.dir) killCgroup(containment.dir);
    return { found: found.size, ended: ended.length, notEnded: failed };
  }

  let stopping;
  const stop = () => {
    stopping ??= (async () => {
      let escapees = null;
      if (child.pid) {
        if (cgroupWatch) clearInterval(cgroupWatch);
        leftCgroup();
        tree?.scan(); // the latest children, before the group goes
        if (child.exitCode === null && child.signalCode === null) signalGroup(child.pid, 'SIGTERM');
        // Give the whole group the grace period, not just the leader: a shell leader exits at
        // once while the server under it is still flushing (a CPU profile, a log).
        const graceOver = AbortSignal.timeout(STOP_GRACE_MS);
        await Promise.race([exited, new Promise((resolve) => graceOver.addEventListener('abort', resolve, { once: true }))]);
        await waitGroupEmpty(child.pid, graceOver, containment.dir);
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

  return { child, pid: child.pid, exited, stderrTail: () => tail.text(), stop };
}

/** How often an emptying process group is checked during the stop grace period. */
const GROUP_POLL_MS = 25;

/** Marks given so far: two targets started in one millisecond get their own. */
let marks = 0;

const delay = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Resolves once no live process is left in the group, or when `signal` aborts. A zombie is
 * not waited for: it has ended, and reaping it is up to whoever inherited it. An init that
 * reaps late (this project's test machine: ~2 s; a container whose PID 1 never reaps: never)
 * otherwise held every stop of a server whose leader exits before its workers (node:cluster,
 * `sh -c`) for up to the whole grace period.
 * @param {number} pgid
 * @param {AbortSignal} signal
 * @param {string} [cgroupDir] the group's cgroup: its members are read there, not in all of /proc
 */
async function waitGroupEmpty(pgid, signal, cgroupDir) {
  const live = () => signalGroup(pgid, 0) && pidsInGroup(pgid, cgroupDir ? cgroupPids(cgroupDir) : undefined).length > 0;
  while (!signal.aborted && live()) await delay(GROUP_POLL_MS);
}
