/**
 * Time blocked in spawn: how long the calling thread is frozen inside
 * child_process. On Linux libuv forks the whole process and waits until the
 * child has exec'd (~1.3 ms per `echo` on this project's machine), so this is
 * the figure behind "the main thread is blocked in spawn 30% of the time".
 *
 * Two ways to time the asynchronous spawns (spawn, execFile, exec, fork), reported
 * as `timing`:
 * - 'diagnostics-channel': Node publishes `tracing:child_process.spawn:start` just
 *   before the native spawn and `:end` (or `:error`) right after it returns, on the
 *   calling thread (Node 26, and 24.21.0 too; Node 20 and 22.23 do not). That is
 *   Node's own, supported way to see spawn, and nothing of the host is replaced.
 * - 'patch': elsewhere, `ChildProcess.prototype.spawn` is wrapped. spawn, execFile,
 *   exec and fork all create a ChildProcess and call this method, which is where the
 *   fork happens. Timing it catches every asynchronous path (promisified
 *   exec/execFile, libraries that captured `spawn` early) without replacing any
 *   exported function, so return values, `util.promisify.custom` and thrown errors
 *   are untouched.
 * Which one a Node has is not guessed from its version: the first asynchronous
 * spawn runs inside the wrapper with the channel subscribed, and if the channel
 * spoke during it, the wrapper is removed and the channel times every spawn from
 * then on (that first one included); if not, the channel is let go.
 *
 * The synchronous forms (`spawnSync`, `execFileSync`, `execSync`) publish nothing
 * on any Node, so they are wrapped on the module object either way: they use a
 * different binding; the thread is blocked for the child's whole life, and that is
 * what is counted. `syncBuiltinESMExports()` makes
 * `import { execSync } from 'node:child_process'` see the wrapper.
 * A depth counter makes nested calls (execSync → spawnSync) count once.
 *
 * Spawns made without child_process are counted too, where the code that makes them
 * publishes `spawnbench:spawn:start` / `:end` around its native call (spawnbench's
 * own Node workers spawn with posix_spawn where an FFI loads (node:ffi, koffi):
 * strategies/lib/posix-spawn.js); their timing is 'posix_spawn'.
 */
import childProcess from 'node:child_process';
import diagnosticsChannel from 'node:diagnostics_channel';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';

const SYNC_FUNCTIONS = ['spawnSync', 'execFileSync', 'execSync'];

/** The channels Node publishes around the native spawn call (nodejs/node lib/internal/child_process.js). */
export const SPAWN_CHANNELS = {
  start: 'tracing:child_process.spawn:start',
  end: 'tracing:child_process.spawn:end',
  error: 'tracing:child_process.spawn:error',
};

/** Published around a spawn made without child_process (strategies/lib/posix-spawn.js; the strategy protocol in strategies/README.md). */
export const OWN_SPAWN_CHANNELS = {
  start: 'spawnbench:spawn:start',
  end: 'spawnbench:spawn:end',
};

/** The values of `timing`: how the asynchronous spawns were timed. */
export const SPAWN_TIMING = /** @type {const} */ ({ channel: 'diagnostics-channel', patch: 'patch', posixSpawn: 'posix_spawn' });

/**
 * Starts timing child_process calls on this thread.
 * @param {{ timing?: 'auto'|'diagnostics-channel'|'patch', onSpawn?: (blockedMs: number) => void }} [options] `auto` (the
 *   probe's): the channel where this Node publishes it, else the patch. The other
 *   two force one way (tests compare them on the same spawns). `onSpawn`: told of
 *   each spawn counted, with its blocked time (the route timer charges it to a route).
 * @returns {{ take: () => { count: number, blockedMs: number, timing: string|null }, uninstall: () => void }}
 *   `take` returns the calls and blocked time since the previous `take`, and how the
 *   asynchronous ones are timed (null while undecided: no spawn yet).
 */
export function installSpawnTimer({ timing = 'auto', onSpawn = null } = {}) {
  let count = 0;
  let blockedMs = 0;
  const counted = (ms) => {
    blockedMs += ms;
    count += 1;
    onSpawn?.(ms);
  };
  let depth = 0;
  // The way asynchronous spawns are timed; decided at the first one in 'auto'.
  let mode = timing === 'auto' ? null : timing;

  /** Wraps `original` so its synchronous duration is counted, behaviour unchanged. */
  const timed = (original) => {
    const wrapper = function (...args) {
      if (depth > 0) return Reflect.apply(original, this, args);
      depth += 1;
      const start = performance.now();
      try {
        return Reflect.apply(original, this, args);
      } finally {
        depth -= 1;
        counted(performance.now() - start);
      }
    };
    Object.defineProperties(wrapper, Object.getOwnPropertyDescriptors(original));
    return wrapper;
  };

  // The channel: start and end (or error) bracket the native spawn on this thread.
  let startedAt = null;
  let published = false;
  const onStart = () => {
    published = true;
    startedAt = performance.now();
  };
  const onDone = () => {
    if (startedAt === null) return;
    if (mode !== SPAWN_TIMING.patch) counted(performance.now() - startedAt);
    startedAt = null;
  };
  // Spawns without child_process: counted whatever the mode, since child_process never sees them.
  let ownStartedAt = null;
  let ownSeen = false;
  const onOwnStart = () => {
    ownStartedAt = performance.now();
  };
  const onOwnEnd = () => {
    if (ownStartedAt === null) return;
    counted(performance.now() - ownStartedAt);
    ownSeen = true;
    ownStartedAt = null;
  };
  diagnosticsChannel.subscribe(OWN_SPAWN_CHANNELS.start, onOwnStart);
  diagnosticsChannel.subscribe(OWN_SPAWN_CHANNELS.end, onOwnEnd);

  let subscribed = false;
  const subscribe = () => {
    diagnosticsChannel.subscribe(SPAWN_CHANNELS.start, onStart);
    diagnosticsChannel.subscribe(SPAWN_CHANNELS.end, onDone);
    diagnosticsChannel.subscribe(SPAWN_CHANNELS.error, onDone);
    subscribed = true;
  };
  const unsubscribe = () => {
    if (!subscribed) return;
    subscribed = false;
    diagnosticsChannel.unsubscribe(SPAWN_CHANNELS.start, onStart);
    diagnosticsChannel.unsubscribe(SPAWN_CHANNELS.end, onDone);
    diagnosticsChannel.unsubscribe(SPAWN_CHANNELS.error, onDone);
  };
  if (mode !== SPAWN_TIMING.patch && typeof diagnosticsChannel.subscribe === 'function') subscribe();

  // ChildProcess.prototype.spawn is internal (spawn() calls it), so @types/node does not list it.
  const proto = /** @type {childProcess.ChildProcess & { spawn: (options: object) => void }} */ (childProcess.ChildProcess.prototype);
  const originalSpawn = proto.spawn;
  const patchedSpawn = timed(originalSpawn);
  /** 'auto' until the first spawn: times it with the patch unless the channel spoke during it. */
  const detectingSpawn = function (...args) {
    if (mode === SPAWN_TIMING.patch) return Reflect.apply(patchedSpawn, this, args);
    if (mode === SPAWN_TIMING.channel) return Reflect.apply(originalSpawn, this, args);
    published = false;
    let returned = false;
    const start = performance.now();
    try {
      const result = Reflect.apply(originalSpawn, this, args);
      returned = true;
      return result;
    } finally {
      if (published) {
        mode = SPAWN_TIMING.channel;
        // Leave the prototype as it was, unless something wrapped it over us since.
        if (proto.spawn === detectingSpawn) proto.spawn = originalSpawn;
      } else {
        // A call that threw before reaching the native spawn (bad options) decides
        // nothing: Node publishes only around the native call. It is counted, as the
        // patch counts it.
        if (returned) {
          mode = SPAWN_TIMING.patch;
          unsubscribe();
        }
        counted(performance.now() - start);
      }
    }
  };
  Object.defineProperties(detectingSpawn, Object.getOwnPropertyDescriptors(originalSpawn));
  if (mode === SPAWN_TIMING.patch) proto.spawn = patchedSpawn;
  else if (mode === null) proto.spawn = detectingSpawn;
  const originals = {};
  for (const name of SYNC_FUNCTIONS) {
    originals[name] = childProcess[name];
    childProcess[name] = timed(originals[name]);
  }
  syncBuiltinESMExports();

  return {
    take() {
      // Spawns before the decision can only be synchronous ones, which the patch timed.
      const taken = { count, blockedMs, timing: mode ?? (ownSeen ? SPAWN_TIMING.posixSpawn : count > 0 ? SPAWN_TIMING.patch : null) };
      count = 0;
      blockedMs = 0;
      return taken;
    },
    uninstall() {
      unsubscribe();
      diagnosticsChannel.unsubscribe(OWN_SPAWN_CHANNELS.start, onOwnStart);
      diagnosticsChannel.unsubscribe(OWN_SPAWN_CHANNELS.end, onOwnEnd);
      if (proto.spawn === detectingSpawn || proto.spawn === patchedSpawn) proto.spawn = originalSpawn;
      Object.assign(childProcess, originals);
      syncBuiltinESMExports();
    },
  };
}
