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
 * Spawns that failed are counted by command and errno (`failures`), without an
 * 'error' listener on the child (that would change what the host does with it): a
 * server that answers 200 whatever its command did hides them from the load
 * generator (issue #36: every `execFile('echo')` failed with EMFILE, no response
 * said so). Where they are read:
 * - 'patch': `ChildProcess.prototype.spawn` returns libuv's error number when the
 *   native spawn fails (EMFILE and ENFILE return at once; EAGAIN, ENOENT and EACCES
 *   emit 'error' on the next tick and return it too); any other errno is thrown.
 * - 'diagnostics-channel': `:error` carries `{ process, error }` (Node 24.21, 26.10).
 * - the synchronous forms: `spawnSync`'s `result.error`, or the error
 *   `execFileSync`/`execSync` throw (its `syscall` is `spawnSync <command>`).
 * The command is the child's `spawnfile` (what Node's message names: `spawn echo
 * EMFILE`), or the error's `path`.
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
import { getSystemErrorName } from 'node:util';

const SYNC_FUNCTIONS = ['spawnSync', 'execFileSync', 'execSync'];

/** A system errno's name ('EMFILE'), not one of Node's own codes ('ERR_INVALID_ARG_TYPE'). */
const ERRNO = /^E[A-Z0-9]+$/;

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
 * @typedef {{ command: string, code: string, count: number }} FailedSpawns spawns of one command that failed with one errno
 */

/**
 * Starts timing child_process calls on this thread.
 * @param {{ timing?: 'auto'|'diagnostics-channel'|'patch', onSpawn?: (blockedMs: number) => void }} [options] `auto` (the
 *   probe's): the channel where this Node publishes it, else the patch. The other
 *   two force one way (tests compare them on the same spawns). `onSpawn`: told of
 *   each spawn counted, with its blocked time (the route timer charges it to a route).
 * @returns {{ take: () => { count: number, blockedMs: number, timing: string|null, failures: FailedSpawns[]|null }, uninstall: () => void }}
 *   `take` returns the calls and blocked time since the previous `take`, how the
 *   asynchronous ones are timed (null while undecided: no spawn yet), and the spawns
 *   that failed, by command and errno (null when none did).
 */
export function installSpawnTimer({ timing = 'auto', onSpawn = null } = {}) {
  let count = 0;
  let blockedMs = 0;
  const counted = (ms) => {
    blockedMs += ms;
    count += 1;
    onSpawn?.(ms);
  };
  /** @type {Map<string, FailedSpawns>} */
  let failed = new Map();
  /** Counts a failed spawn; never throws into the host. */
  const failedWith = (command, code) => {
    if (typeof code !== 'string' || !ERRNO.test(code)) return;
    const name = typeof command === 'string' && command !== '' ? command : '?';
    const key = `${name}\u0000${code}`;
    const into = failed.get(key) ?? { command: name, code, count: 0 };
    into.count += 1;
    failed.set(key, into);
  };
  /** `ChildProcess.prototype.spawn`'s return value: 0, or libuv's (negative) error number. */
  const spawnReturned = (child, result) => {
    if (typeof result !== 'number' || result >= 0) return;
    let code;
    try {
      code = getSystemErrorName(result);
    } catch {
      return;
    }
    failedWith(child?.spawnfile, code);
  };
  /** A thrown error that is a spawn's (`syscall` 'spawn', 'spawnSync echo'), not bad arguments. */
  const spawnThrew = (child, error) => {
    if (typeof error?.syscall !== 'string' || !error.syscall.startsWith('spawn')) return;
    failedWith(child?.spawnfile ?? error.path, error.code);
  };
  let depth = 0;
  // The way asynchronous spawns are timed; decided at the first one in 'auto'.
  let mode = timing === 'auto' ? null : timing;

  /**
   * Wraps `original` so its synchronous duration is counted, behaviour unchanged;
   * `onResult(self, result)` reads a failure from what it returned, and a thrown spawn error is counted.
   */
  const timed = (original, onResult) => {
    const wrapper = function (...args) {
      if (depth > 0) return Reflect.apply(original, this, args);
      depth += 1;
      const start = performance.now();
      try {
        const result = Reflect.apply(original, this, args);
        onResult(this, result);
        return result;
      } catch (error) {
        spawnThrew(this instanceof childProcess.ChildProcess ? this : null, error);
        throw error;
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
  // `:error` carries `{ process, error }` (error.code 'EMFILE'); published instead of `:end`.
  const onError = (message) => {
    if (startedAt !== null && mode !== SPAWN_TIMING.patch) failedWith(message?.process?.spawnfile ?? message?.error?.path, message?.error?.code);
    onDone();
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
    diagnosticsChannel.subscribe(SPAWN_CHANNELS.error, onError);
    subscribed = true;
  };
  const unsubscribe = () => {
    if (!subscribed) return;
    subscribed = false;
    diagnosticsChannel.unsubscribe(SPAWN_CHANNELS.start, onStart);
    diagnosticsChannel.unsubscribe(SPAWN_CHANNELS.end, onDone);
    diagnosticsChannel.unsubscribe(SPAWN_CHANNELS.error, onError);
  };
  if (mode !== SPAWN_TIMING.patch && typeof diagnosticsChannel.subscribe === 'function') subscribe();

  // ChildProcess.prototype.spawn is internal (spawn() calls it), so @types/node does not list it.
  const proto = /** @type {childProcess.ChildProcess & { spawn: (options: object) => void }} */ (childProcess.ChildProcess.prototype);
  const originalSpawn = proto.spawn;
  const patchedSpawn = timed(originalSpawn, spawnReturned);
  /** 'auto' until the first spawn: times it with the patch unless the channel spoke during it. */
  const detectingSpawn = function (...args) {
    if (mode === SPAWN_TIMING.patch) return Reflect.apply(patchedSpawn, this, args);
    if (mode === SPAWN_TIMING.channel) return Reflect.apply(originalSpawn, this, args);
    published = false;
    let returned = false;
    let result;
    const start = performance.now();
    try {
      result = Reflect.apply(originalSpawn, this, args);
      returned = true;
      return result;
    } catch (error) {
      if (!published) spawnThrew(this, error);
      throw error;
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
          spawnReturned(this, result);
        }
        counted(performance.now() - start);
      }
    }
  };
  Object.defineProperties(detectingSpawn, Object.getOwnPropertyDescriptors(originalSpawn));
  if (mode === SPAWN_TIMING.patch) proto.spawn = patchedSpawn;
  else if (mode === null) proto.spawn = detectingSpawn;
  /** spawnSync's result: `error` set when the command could not start (execFileSync and execSync throw it). */
  const syncReturned = (self, result) => {
    if (result?.error) spawnThrew(null, result.error);
  };
  const originals = {};
  for (const name of SYNC_FUNCTIONS) {
    originals[name] = childProcess[name];
    childProcess[name] = timed(originals[name], syncReturned);
  }
  syncBuiltinESMExports();

  return {
    take() {
      // Spawns before the decision can only be synchronous ones, which the patch timed.
      const taken = {
        count, blockedMs, timing: mode ?? (ownSeen ? SPAWN_TIMING.posixSpawn : count > 0 ? SPAWN_TIMING.patch : null),
        failures: failed.size > 0 ? [...failed.values()] : null,
      };
      count = 0;
      blockedMs = 0;
      if (failed.size > 0) failed = new Map();
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
