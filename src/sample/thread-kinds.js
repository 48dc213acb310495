/**
 * What each of a Node process's other threads is (neither its main thread nor a
 * Worker): libuv's threadpool, V8's platform threads (its workers, which run GC
 * and compiler tasks, and their delayed-task scheduler), Node's own (the signal
 * and inspector thread), libvips's (sharp), or another native thread (an addon's
 * own). Pure: the threads' names and start times in, a kind per thread out.
 *
 * Where a thread is named, its name says it. Node 26 (libuv 1.52.1) names them
 * `libuv-worker`, `node-V8Worker`, `DelayedTaskSche`, `SignalInspector` (Node 24: `V8Worker`;
 * Node 22.23: only the pool and the scheduler, its V8 workers stay `node`). Node 20
 * names every thread `node`, so there the kind comes from when the thread started:
 * Node starts its V8 platform (the scheduler, `--v8-pool-size` workers, default 4)
 * and then its signal thread before any JavaScript runs, and libuv starts its pool
 * later, all UV_THREADPOOL_SIZE threads at once, on the first request that needs it
 * (an ESM entry's loader already does, before the server listens). Threads started
 * after those are an addon's: libvips's where the process has libvips loaded (sharp), as
 * libvips names its threads after its own tasks, if at all. Measured on Node 20.20.2, 22.23.3, 24.21.0 and 26.10.0 (main + 6 at
 * start, then 4 pool threads on the first crypto.pbkdf2).
 */

/** The kinds, in the order views list them. */
export const THREAD_KINDS = ['threadpool', 'v8', 'node', 'libvips', 'native'];

/** libuv's pool size when UV_THREADPOOL_SIZE is not set (libuv's default). */
export const DEFAULT_THREADPOOL_SIZE = 4;

/** V8 platform workers Node starts when --v8-pool-size is not given. */
export const DEFAULT_V8_POOL_SIZE = 4;

/**
 * Thread names (/proc/<pid>/task/<tid>/comm, at most 15 characters) and their kinds.
 * @type {Array<[RegExp, string]>}
 */
const NAMED = [
  [/^libuv-worker$/, 'threadpool'],
  [/V8Worker|^DelayedTaskSche|^V8 DefaultWorke|^V8 Platform/, 'v8'],
  [/^SignalInspector$|^inspector|^node-inspector/, 'node'],
  [/vips/i, 'libvips'],
];

/**
 * The kind a thread's name says, or null when it says nothing (`node`, the
 * process's own name, which a thread inherits from the one that created it).
 * @param {string} comm
 * @param {string} processComm the main thread's name
 * @returns {string|null}
 */
export function kindByName(comm, processComm) {
  for (const [pattern, kind] of NAMED) if (pattern.test(comm)) return kind;
  if (comm === processComm || comm === 'node' || comm === 'node-MainThread') return null;
  return 'native';
}

/**
 * @param {Array<{ tid: number, comm: string, startTime: number }>} threads the other threads of one process
 *   (`startTime`: /proc's starttime, clock ticks since boot)
 * @param {{ processComm: string, poolSize?: number|null, v8PoolSize?: number|null, libvips?: boolean }} options
 *   `poolSize`: UV_THREADPOOL_SIZE as the process has it (null: libuv's default); `libvips`: the process has
 *   libvips mapped (/proc/<pid>/maps), so its other native threads are libvips's
 * @returns {Map<number, string>} tid → kind
 */
export function threadKinds(threads, { processComm, poolSize = null, v8PoolSize = null, libvips = false }) {
  const kinds = new Map();
  const unnamed = [];
  for (const t of threads) {
    const kind = kindByName(t.comm, processComm);
    if (kind) kinds.set(t.tid, kind);
    else unnamed.push(t);
  }
  // Unnamed threads by when they started: V8's platform (its scheduler and workers),
  // Node's signal thread, then libuv's pool, then whatever an addon started.
  unnamed.sort((a, b) => a.startTime - b.startTime || a.tid - b.tid);
  const v8 = 1 + (v8PoolSize ?? DEFAULT_V8_POOL_SIZE);
  const pool = poolSize ?? DEFAULT_THREADPOOL_SIZE;
  // Where some are named, the unnamed are what is left of each (a Node that names its pool but not V8's).
  const named = (kind) => [...kinds.values()].filter((k) => k === kind).length;
  const v8Left = Math.max(0, v8 - named('v8'));
  const nodeLeft = Math.max(0, 1 - named('node'));
  const poolLeft = Math.max(0, pool - named('threadpool'));
  unnamed.forEach((t, i) => {
    const kind = i < v8Left ? 'v8' : i < v8Left + nodeLeft ? 'node' : i < v8Left + nodeLeft + poolLeft ? 'threadpool' : 'native';
    kinds.set(t.tid, kind);
  });
  if (libvips) for (const [tid, kind] of kinds) if (kind === 'native') kinds.set(tid, 'libvips');
  return kinds;
}

/**
 * UV_THREADPOOL_SIZE as libuv reads it: a whole number from 1 (libuv caps it at
 * 1024), else its default.
 * @param {string|undefined|null} value
 */
export function threadpoolSize(value) {
  const n = Number.parseInt(String(value ?? ''), 10);
  return Number.isFinite(n) && n >= 1 ? Math.min(n, 1024) : DEFAULT_THREADPOOL_SIZE;
}

/**
 * Whether a process has libvips loaded (sharp's libvips-cpp.so and libvips.so), from
 * the text of its /proc/<pid>/maps.
 * @param {string|null} maps
 */
export function mapsLibvips(maps) {
  return typeof maps === 'string' && /\/libvips[-.]/.test(maps);
}
