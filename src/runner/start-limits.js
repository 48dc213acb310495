/**
 * A server that cannot start because the process limit (`ulimit -u`, RLIMIT_NPROC:
 * every process and thread of the user counts) is reached, said in one line. Node
 * needs ~7 threads before it runs a line of JavaScript; under the limit it either
 * waits for a thread forever (measured: a strategy under `ulimit -u 15` sat with 3
 * threads until spawnbench's 15 s readiness timeout) or aborts with a native
 * assertion stack (`ulimit -u 30`: WorkerThreadsTaskRunner). Both are turned into
 * "the process limit (ulimit -u 15) was reached" with what to do. Linux /proc only;
 * root is not held to the limit, so nothing is said for it.
 */
import { readFileSync } from 'node:fs';
import { RunError } from '../base/errors.js';
import { procPids, readLimits } from '../sample/proc.js';
import { PROCESS_LIMIT_ROOM_TASKS } from '../base/thresholds.js';

/** Signs in a dying Node's stderr that it could not create a thread. */
const THREAD_START_FAILED = /uv_thread_create|WorkerThreadsTaskRunner|pthread_create/;

/**
 * The user's processes and threads against its process limit, when the limit is reached.
 * @param {number|'self'} pid a process of the user, whose limit counts
 * @returns {{ limit: number, tasks: number } | null}
 */
export function processLimitReached(pid) {
  const limit = readLimits(pid)?.processes;
  if (!Number.isFinite(limit) || ownUid() === 0) return null;
  const tasks = userTasks(ownUid());
  return tasks >= limit ? { limit, tasks } : null;
}

/**
 * The process limit, when a server died at start because it could not make a thread
 * (its stderr says so) and the limit is low enough to be why.
 * @param {string} stderr the tail of its stderr
 * @returns {{ limit: number, tasks: null } | null}
 */
export function threadStartFailure(stderr) {
  if (!THREAD_START_FAILED.test(stderr ?? '')) return null;
  const limit = readLimits('self')?.processes;
  if (!Number.isFinite(limit) || ownUid() === 0) return null;
  return { limit, tasks: null };
}

/**
 * The process limit, when a server died at start with so little room left under it
 * (fewer than PROCESS_LIMIT_ROOM_TASKS) that a Node process and its workers could not
 * all start: a node:cluster worker short of threads aborts, often without a word, and
 * its primary exits with another worker's stack.
 * @param {number|'self'} pid a process of the user, whose limit counts
 * @returns {{ limit: number, tasks: number, room: number } | null}
 */
export function processLimitClose(pid) {
  const limit = readLimits(pid)?.processes;
  if (!Number.isFinite(limit) || ownUid() === 0) return null;
  const tasks = userTasks(ownUid());
  return limit - tasks < PROCESS_LIMIT_ROOM_TASKS ? { limit, tasks, room: Math.max(0, limit - tasks) } : null;
}

/**
 * The error of a thread or process that spawnbench itself could not start (a load
 * generator thread: `new Worker` throws EAGAIN; the user's server: `spawn node EAGAIN`
 * under `ulimit -u 11`, where spawnbench itself just fits) under the process limit, said in one line.
 * @param {string} what 'the load generator'
 * @param {Error & { code?: string }} error
 * @param {{ uid?: number|null, limit?: () => number|undefined, tasks?: (uid: number) => number }} [reading] where the
 *   user, its limit and its processes and threads are read (this process's, from /proc)
 * @returns {Error} the one-line RunError, or `error` when it is not the limit's
 */
export function ownStartFailure(what, error, { uid = ownUid(), limit = () => readLimits('self')?.processes, tasks = userTasks } = {}) {
  const code = error?.code === 'EAGAIN' || /(^| )EAGAIN\b/.test(error?.message ?? '');
  const max = code ? limit() : null;
  if (!Number.isFinite(max) || uid === 0 || uid === null) return error;
  return new RunError(processLimitMessage(what, { limit: /** @type {number} */ (max), tasks: tasks(uid) }));
}

/**
 * "strategy 'fork-pool' could not start: the process limit (ulimit -u 15) was reached …"
 * @param {string} label
 * @param {{ limit: number, tasks: number|null, room?: number|null }} reached `tasks`: the user's processes and threads, null when
 *   not counted; `room`: how many more fit, when the limit was not reached but left too little room (processLimitClose)
 */
export function processLimitMessage(label, { limit, tasks, room = null }) {
  if (room !== null) {
    return `${label} could not start: the process limit (ulimit -u ${limit}) leaves room for only ${room} more processes and threads, ` +
      'and each Node process needs ~10 before it runs (one that cannot make them aborts, or waits forever); raise it with `ulimit -u`, or run fewer workers';
  }
  const why = tasks === null ? 'a Node process could not create its threads' : `${tasks} processes and threads of this user run`;
  return `${label} could not start: the process limit (ulimit -u ${limit}) was reached (${why}; each Node process needs ~10 threads); ` +
    'raise it with `ulimit -u`, or run fewer workers (--pool-size)';
}

function ownUid() {
  return process.getuid?.() ?? null;
}

/** Every thread of every process of `uid`, from /proc/<pid>/status. */
function userTasks(uid) {
  let tasks = 0;
  for (const pid of procPids()) {
    let text;
    try {
      text = readFileSync(`/proc/${pid}/status`, 'latin1');
    } catch {
      continue;
    }
    const real = Number(/^Uid:\s+(\d+)/m.exec(text)?.[1]);
    if (real === uid) tasks += Number(/^Threads:\s+(\d+)/m.exec(text)?.[1] ?? 1);
  }
  return tasks;
}

/** Node's abort when a thread's event loop cannot get its descriptors (a low `ulimit -n` on the server), or the errno itself. */
const OPEN_FILES_FAILED = /uv_loop_init|EMFILE/;

/** V8's words when it cannot reserve the address space it starts with (a low `ulimit -v` on the server). */
const ADDRESS_SPACE_FAILED = /Failed to reserve (virtual )?memory/;

/**
 * One line for a server that died before it was ready because V8 could not reserve its address space, or Node could
 * not open the descriptors it starts with (a low `ulimit -n` where it starts), else null.
 * `run -- sh -c 'ulimit -v 400000; exec node server.js'` read "was killed by SIGTRAP before it was ready; its stderr
 * ends: # Fatal process OOM in Failed to reserve virtual memory for CodeRange", with no word of the limit.
 * @param {string} label
 * @param {string} why "was killed by SIGTRAP", "exited with code 133"
 * @param {string|null|undefined} stderr the tail of its stderr
 * @returns {string|null}
 */
export function startLimitFailureMessage(label, why, stderr) {
  if (OPEN_FILES_FAILED.test(stderr ?? '')) {
    // Node aborts when its threads cannot open their event loops' descriptors (`ulimit -n 12`: a native stack).
    return `${label} ${why} before it was ready: Node could not open the files it starts with ('uv_loop_init' or EMFILE in its stderr), ` +
      'which an open-files limit (ulimit -n) below what Node needs does; raise it where the server starts (ulimit -n 1024 or more)';
  }
  if (!ADDRESS_SPACE_FAILED.test(stderr ?? '')) return null;
  return `${label} ${why} before it was ready: Node could not reserve its memory ('Failed to reserve virtual memory' in its stderr), ` +
    'which an address-space limit (ulimit -v) below what Node reserves does; raise it where the server starts (ulimit -v unlimited)';
}
