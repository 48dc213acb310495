/**
 * Where a user's server command takes its size, so diagnose can name the exact
 * `spawnbench tune … -- <command>` to run: a `--workers N`-like flag in its
 * arguments, or a size variable in the environment it inherits. Pure: argv and
 * environment in, the knob and the tune command's argv out.
 */

/**
 * Environment variables servers commonly read their worker or thread count from,
 * most specific first: WEB_CONCURRENCY (Heroku's and many Node cluster apps'),
 * WORKERS and its variants, UV_THREADPOOL_SIZE (libuv's pool, read by Node itself).
 */
export const SIZE_ENV_NAMES = ['WEB_CONCURRENCY', 'WORKERS', 'NUM_WORKERS', 'WORKER_COUNT', 'CLUSTER_WORKERS', 'CONCURRENCY', 'UV_THREADPOOL_SIZE'];

/** Flags that set a worker or thread count, as `--flag N` or `--flag=N`. */
export const SIZE_FLAGS = ['--workers', '--num-workers', '--worker-count', '--concurrency', '--processes', '--instances', '--threads', '--pool-size', '--cluster'];

/**
 * @param {{ command: string[], env: Record<string, string|undefined> }} input the server's argv and the environment it runs with
 * @returns {{ kind: 'flag', flag: string, value: number, command: string[] } | { kind: 'env', name: string, value: number, command: string[] } | null}
 *   `command`: the argv for tune, with `{size}` in place of the flag's value (the env form leaves it as it is)
 */
export function findSizeKnob({ command, env }) {
  for (let i = 1; i < command.length; i++) {
    const word = command[i];
    const eq = word.indexOf('=');
    const flag = eq > 0 ? word.slice(0, eq) : word;
    if (!SIZE_FLAGS.includes(flag)) continue;
    const value = eq > 0 ? word.slice(eq + 1) : command[i + 1];
    if (!/^\d+$/.test(value ?? '')) continue;
    const tuned = [...command];
    if (eq > 0) tuned[i] = `${flag}={size}`;
    else tuned[i + 1] = '{size}';
    return { kind: 'flag', flag, value: Number(value), command: tuned };
  }
  for (const name of SIZE_ENV_NAMES) {
    if (/^\d+$/.test(env[name] ?? '')) return { kind: 'env', name, value: Number(env[name]), command: [...command] };
  }
  return null;
}

/**
 * The argv (after `spawnbench`) of the tune that sizes this server: its knob,
 * and the target options diagnose ran it with, so the sweep loads it the same way.
 * @param {NonNullable<ReturnType<typeof findSizeKnob>>} knob
 * @param {{ port: number|null, path: string }} target diagnose's command target
 * @param {{ method: string, headers: Record<string, string>, body: string|null }} load
 * @returns {string[]}
 */
export function tuneArgs(knob, target, load) {
  const args = ['tune'];
  if (knob.kind === 'env') args.push('--size-env', knob.name);
  if (target.port !== null) args.push('--port', String(target.port));
  if (target.path !== '/') args.push('--path', target.path);
  if (load.method !== 'GET') args.push('--method', load.method);
  for (const [name, value] of Object.entries(load.headers ?? {})) args.push('--header', `${name}: ${value}`);
  if (load.body !== null && load.body !== undefined) args.push('--body', load.body);
  return [...args, '--', ...knob.command];
}
