/**
 * Time blocked in spawn: how long the calling thread is frozen inside
 * child_process. On Linux libuv forks the whole process and waits until the
 * child has exec'd (~1.3 ms per `echo` on this project's machine), so this is
 * the figure behind "the main thread is blocked in spawn 30% of the time".
 *
 * What is patched, and why there:
 * - `ChildProcess.prototype.spawn`: spawn, execFile, exec and fork all create a
 *   ChildProcess and call this method, which is where the fork happens. Timing it
 *   catches every asynchronous path (promisified exec/execFile, libraries that
 *   captured `spawn` early) without replacing any exported function, so return
 *   values, `util.promisify.custom` and thrown errors are untouched.
 * - `spawnSync`, `execFileSync`, `execSync` on the module object: the sync forms
 *   use a different binding; the thread is blocked for the child's whole life, and
 *   that is what is counted. `syncBuiltinESMExports()` makes
 *   `import { execSync } from 'node:child_process'` see the wrapper.
 * A depth counter makes nested calls (execSync → spawnSync) count once.
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { performance } from 'node:perf_hooks';

const SYNC_FUNCTIONS = ['spawnSync', 'execFileSync', 'execSync'];

/**
 * Starts timing child_process calls on this thread.
 * @returns {{ take: () => { count: number, blockedMs: number }, uninstall: () => void }}
 *   `take` returns the calls and blocked time since the previous `take`.
 */
export function installSpawnTimer() {
  let count = 0;
  let blockedMs = 0;
  let depth = 0;

  /** Wraps `original` so its synchronous duration is counted, behaviour unchanged. */
  const timed = (original) => {
    const wrapper = function (...args) {
      if (depth > 0) return Reflect.apply(original, this, args);
      depth += 1;
      const start = performance.now();
      try {
        return Reflect.apply(original, this, args);
      } finally {
        blockedMs += performance.now() - start;
        count += 1;
        depth -= 1;
      }
    };
    Object.defineProperties(wrapper, Object.getOwnPropertyDescriptors(original));
    return wrapper;
  };

  const proto = childProcess.ChildProcess.prototype;
  const originalSpawn = proto.spawn;
  proto.spawn = timed(originalSpawn);
  const originals = {};
  for (const name of SYNC_FUNCTIONS) {
    originals[name] = childProcess[name];
    childProcess[name] = timed(originals[name]);
  }
  syncBuiltinESMExports();

  return {
    take() {
      const taken = { count, blockedMs };
      count = 0;
      blockedMs = 0;
      return taken;
    },
    uninstall() {
      proto.spawn = originalSpawn;
      Object.assign(childProcess, originals);
      syncBuiltinESMExports();
    },
  };
}
