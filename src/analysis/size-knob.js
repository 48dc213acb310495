/**
 * Where a user's server command takes its size: given (`--size-env NAME`, `{size}`
 * in its arguments), found in the command (a `--workers N`-like flag, PM2's
 * `-i N`) or in the environment it inherits (WEB_CONCURRENCY, WORKERS, …), or
 * seen (the worker processes and threads under the server). diagnose names the
 * exact `spawnbench tune … -- <command>` from it; `run -- <command>` words its
 * recommendation for it. Pure: argv, environment and the server's shape in, the
 * knob and the tune command's argv out.
 */
import { durationArgs } from './confirm-command.js';
import { POOL_THREADS_MATTER_PCT, POOL_THREADS_MATTER_SHARE } from '../base/thresholds.js';

/**
 * Environment variables servers commonly read their worker or thread count from,
 * most specific first: WEB_CONCURRENCY (Heroku's and many Node cluster apps'),
 * WORKERS and its variants, UV_THREADPOOL_SIZE (libuv's pool, read by Node itself).
 */
export const SIZE_ENV_NAMES = ['WEB_CONCURRENCY', 'WORKERS', 'NUM_WORKERS', 'WORKER_COUNT', 'CLUSTER_WORKERS', 'CONCURRENCY', 'UV_THREADPOOL_SIZE', 'VIPS_CONCURRENCY'];

/**
 * libuv's pool size: a knob wherever the server's pool threads were seen to work,
 * set or not (libuv's default is 4). libuv reads it once, when the pool starts, so
 * it is set in the server's environment at start.
 */
export const THREADPOOL_ENV = 'UV_THREADPOOL_SIZE';

/** libuv's pool size when UV_THREADPOOL_SIZE is not set. */
export const THREADPOOL_DEFAULT = 4;

/** libvips's threads per image (sharp reads it at load): a knob when set, or where libvips's threads were seen to work. */
export const VIPS_ENV = 'VIPS_CONCURRENCY';

/** Flags that set a worker or thread count, as `--flag N` or `--flag=N`. */
export const SIZE_FLAGS = ['--workers', '--num-workers', '--worker-count', '--concurrency', '--processes', '--instances', '--threads', '--pool-size', '--cluster'];

/**
 * Short flags that set a worker count (`-w 4`, PM2's `-i 4`): read only after the
 * script, since runtimes give them other meanings (`node -i` is the REPL).
 */
export const SIZE_SHORT_FLAGS = ['-w', '-i'];

/** PM2's `-i max` (or 0, -1): one instance per CPU, a knob whose value the process tree tells. */
const PM2_ALL_CPUS = ['max', '0', '-1'];

/** Runtimes whose own options come before the script, and those of them that take a value as the next word. */
const RUNTIMES = ['node', 'nodejs', 'bun', 'deno'];
const RUNTIME_VALUE_OPTIONS = ['-r', '--require', '--import', '--loader', '--experimental-loader', '-C', '--conditions', '--env-file', '--title', '--input-type'];

/**
 * @typedef {object} FoundKnob
 * @property {'flag'|'env'} kind
 * @property {string} [flag]     the flag as written ('--workers', '-i')
 * @property {string} [name]     the variable
 * @property {number|null} value its value now (null: PM2's `-i max`, one per CPU)
 * @property {string} written    as the command or environment has it: '--workers 3', 'WORKERS=4', '-i max'
 * @property {string[]} command  the argv for tune, with `{size}` in place of the flag's value (the env form leaves it as it is)
 */

/**
 * @param {{ command: string[], env: Record<string, string|undefined> }} input the server's argv and the environment it runs with
 * @returns {FoundKnob|null}
 */
export function findSizeKnob({ command, env }) {
  return findFlagKnob(command) ?? findShellFlagKnob(command) ?? findEnvKnob(command, env);
}

/** Shells whose `-c '<line>'` starts the server: the flag may be inside the line. */
const SHELLS = ['sh', 'bash', 'dash', 'zsh'];

/**
 * A flag inside `sh -c 'node server.js --workers 3'`: found in the line's words,
 * and `{size}` put in its place inside the line (tune fills placeholders in every
 * argument, so the line runs as the user wrote it at each size).
 * @param {string[]} command
 * @returns {FoundKnob|null}
 */
function findShellFlagKnob(command) {
  const exe = String(command[0] ?? '').split('/').at(-1) ?? '';
  const at = command.indexOf('-c');
  if (!SHELLS.includes(exe) || at < 1 || typeof command[at + 1] !== 'string') return null;
  const line = command[at + 1];
  const words = line.split(/\s+/).filter(Boolean);
  const knob = findFlagKnob(words);
  if (!knob) return null;
  // The same words with {size} where the value was, put back in the line as written.
  const i = knob.command.findIndex((w, n) => w !== words[n]);
  const tunedLine = replaceWord(line, words, i, knob.command[i]);
  const tuned = [...command];
  tuned[at + 1] = tunedLine;
  return { ...knob, command: tuned };
}

/**
 * `line` with its `index`-th whitespace-separated word replaced.
 * @param {string} line
 * @param {string[]} words its words
 * @param {number} index
 * @param {string} replacement
 */
function replaceWord(line, words, index, replacement) {
  let from = 0;
  for (let n = 0; n < index; n++) from = line.indexOf(words[n], from) + words[n].length;
  const start = line.indexOf(words[index], from);
  return line.slice(0, start) + replacement + line.slice(start + words[index].length);
}

/**
 * @param {string[]} command
 * @returns {FoundKnob|null}
 */
function findFlagKnob(command) {
  const script = scriptIndex(command);
  for (let i = 1; i < command.length; i++) {
    const word = command[i];
    const eq = word.indexOf('=');
    const flag = eq > 0 ? word.slice(0, eq) : word;
    const short = SIZE_SHORT_FLAGS.includes(flag);
    if (!SIZE_FLAGS.includes(flag) && !(short && i > script)) continue;
    const value = eq > 0 ? word.slice(eq + 1) : command[i + 1];
    const allCpus = (flag === '-i' || flag === '--instances') && PM2_ALL_CPUS.includes(value);
    if (!/^\d+$/.test(value ?? '') && !allCpus) continue;
    const tuned = [...command];
    if (eq > 0) tuned[i] = `${flag}={size}`;
    else tuned[i + 1] = '{size}';
    return { kind: 'flag', flag, value: allCpus ? null : Number(value), written: `${flag}${eq > 0 ? '=' : ' '}${value}`, command: tuned };
  }
  return null;
}

/**
 * @param {string[]} command
 * @param {Record<string, string|undefined>} env
 * @returns {FoundKnob|null}
 */
function findEnvKnob(command, env) {
  for (const name of SIZE_ENV_NAMES) {
    if (/^\d+$/.test(env[name] ?? '')) return { kind: 'env', name, value: Number(env[name]), written: `${name}=${env[name]}`, command: [...command] };
  }
  return null;
}

/**
 * Where the runtime's own options end: the index of the script (`node -r x app.js`: 3),
 * 0 for an executable that is not a runtime (its arguments are all its own).
 * @param {string[]} command
 */
export function scriptIndex(command) {
  const exe = String(command[0] ?? '').split('/').at(-1) ?? '';
  if (!RUNTIMES.includes(exe)) return 0;
  for (let i = 1; i < command.length; i++) {
    const word = command[i];
    if (RUNTIME_VALUE_OPTIONS.includes(word)) i++;
    else if (!word.startsWith('-')) return i;
  }
  return command.length;
}

/**
 * The knob the user gave: `--size-env NAME` (its value from `--pool-size` or the
 * environment) and/or `{size}` in the arguments.
 * @param {{ sizeEnv: string|null, sizeArg: boolean, size: number|null, command: string[], env: Record<string, string|undefined> }} given
 * @returns {{ kind: 'env'|'placeholder', name: string|null, sizeArg: boolean, value: number|null, command: string[] }|null}
 */
export function givenSizeKnob({ sizeEnv, sizeArg, size, command, env }) {
  if (!sizeEnv && !sizeArg) return null;
  const fromEnv = sizeEnv && /^\d+$/.test(env[sizeEnv] ?? '') ? Number(env[sizeEnv]) : null;
  return { kind: sizeEnv ? 'env' : 'placeholder', name: sizeEnv, sizeArg, value: size ?? fromEnv, command: [...command] };
}

/**
 * @typedef {object} SizeKnob what the summary says about the server's size and where it comes from
 * @property {'given'|'command'|'environment'|'seen'|null} source
 *   given: --size-env / {size}; command: a flag in its arguments; environment: a variable it inherits;
 *   seen: no knob, the size is what the process tree showed; null: nothing (a single process, no knob)
 * @property {'env'|'flag'|'placeholder'|null} kind
 * @property {string|null} name   the variable (env)
 * @property {string|null} flag   the flag (flag)
 * @property {string|null} written the knob as found: '--workers 3', 'WORKERS=4' (command, environment)
 * @property {boolean} sizeArg    `{size}` in the arguments (given)
 * @property {number|null} value  the knob's value this run
 * @property {number|null} size   the size this run ran at: the knob's value, else what was seen
 * @property {number} [seenDiffers] a given variable (--size-env) whose value is not the worker count seen: that count
 *   (`--size-env WORKERZ --pool-size 4` on a server that reads WORKERS ran 2 workers, and was said to have run 4)
 * @property {{ kind: string, workers: number, threads: number, poolThreads: number, poolCpuPct: number|null, poolShare?: number|null,
 *   poolSize?: number|null, vipsThreads?: number, vipsCpuPct?: number|null }|null} seen
 *   what the process tree showed: worker processes, worker threads, libuv pool threads, their CPU (% of one core)
 *   and its share of the server's CPU, the pool size the server started with, libvips's threads and their CPU
 * @property {string[]|null} command the argv tune sizes it with (`{size}` in place of a flag's value)
 * @property {boolean} [unset]   the variable is not set: `value` is the runtime's default (UV_THREADPOOL_SIZE: libuv's 4)
 * @property {Array<{ kind: string, name?: string, flag?: string, written?: string, value: number|null, why: string }>} ignored
 *   knobs found but not believed: `seen-differs` (its value is not the worker count seen),
 *   `threadpool-idle` (UV_THREADPOOL_SIZE, but the pool's threads did no work)
 */

/**
 * The knob the summary and the recommendation use: a given one always; a found
 * one when what was seen does not contradict it; else the size seen.
 * @param {object} input
 * @param {ReturnType<typeof givenSizeKnob>} input.given
 * @param {FoundKnob|null} input.found
 * @param {import('./server-shape.js').ServerShape|null} input.shape
 * @param {string[]} input.command the server's argv
 * @returns {SizeKnob}
 */
export function resolveSizeKnob({ given, found, shape, command }) {
  const seen = shape
    ? {
      kind: shape.kind,
      workers: shape.workers.length,
      threads: shape.threads,
      poolThreads: shape.poolThreads?.count ?? 0,
      poolCpuPct: shape.poolThreads?.cpuPct ?? null,
      poolShare: shape.poolThreads?.share ?? null,
      poolSize: shape.poolThreads?.size ?? null,
      vipsThreads: shape.vipsThreads?.count ?? 0,
      vipsCpuPct: shape.vipsThreads?.cpuPct ?? null,
    }
    : null;
  const seenSize = seen ? (seen.workers || seen.threads || null) : null;
  /** @type {SizeKnob} */
  const base = { source: null, kind: null, name: null, flag: null, written: null, sizeArg: false, value: null, size: seenSize, seen, command: null, ignored: [] };
  if (given) {
    // A variable the server may not read (a typo, another name), or an argument it ignores (`--workers {size}` of a
    // server that forks 2 whatever it is told): believed, as given, but what ran is said beside it.
    const differs = given.value != null && (given.kind === 'env' || given.kind === 'placeholder') &&
      foundDoubt({ kind: 'env', name: given.name ?? undefined, value: given.value }, seen) === 'seen-differs';
    return {
      ...base, source: 'given', kind: given.kind, name: given.name, sizeArg: Boolean(given.sizeArg), value: given.value, size: given.value ?? seenSize, command: given.command,
      ...(differs ? { seenDiffers: seenSize ?? 1 } : {}),
    };
  }
  if (found) {
    const why = foundDoubt(found, seen);
    if (!why) {
      const value = found.value ?? seenSize;
      return {
        ...base,
        source: found.kind === 'flag' ? 'command' : 'environment',
        kind: found.kind,
        name: found.name ?? null,
        flag: found.flag ?? null,
        written: found.written,
        value,
        size: value,
        command: found.command,
      };
    }
    base.ignored.push({ kind: found.kind, ...(found.name ? { name: found.name } : { flag: found.flag }), written: found.written, value: found.value, why });
  }
  const unset = seenSize ? null : unsetThreadKnob(seen, command);
  if (unset) return { ...base, ...unset };
  return { ...base, source: seenSize ? 'seen' : null, command: seenSize ? [...command] : null };
}

/**
 * Whether libuv's pool did work enough to be what limits the server (POOL_THREADS_MATTER_*).
 * @param {SizeKnob['seen']} seen
 */
function poolWorks(seen) {
  return (seen?.poolCpuPct ?? 0) >= POOL_THREADS_MATTER_PCT || (seen?.poolShare ?? 0) >= POOL_THREADS_MATTER_SHARE;
}

/**
 * A single process whose libuv pool (or libvips's threads) worked, with no knob
 * set: the variable is its knob all the same, at its default (libuv's 4; libvips's,
 * the threads seen). Null when those threads did no work to speak of.
 * @param {SizeKnob['seen']} seen
 * @param {string[]} command
 */
function unsetThreadKnob(seen, command) {
  // Nothing seen: no thread did work (POOL_THREADS_MATTER_PCT and _SHARE are above 0).
  if (!seen) return null;
  const vipsThreads = seen.vipsThreads ?? 0;
  const env = poolWorks(seen)
    ? { name: THREADPOOL_ENV, value: seen.poolSize ?? THREADPOOL_DEFAULT }
    : (seen.vipsCpuPct ?? 0) >= POOL_THREADS_MATTER_PCT && vipsThreads > 0 ? { name: VIPS_ENV, value: vipsThreads } : null;
  if (!env) return null;
  return {
    source: /** @type {const} */ ('environment'),
    kind: /** @type {const} */ ('env'),
    name: env.name,
    written: `${env.name} not set (${env.value})`,
    value: env.value,
    size: env.value,
    unset: true,
    command: [...command],
  };
}

/**
 * Why a knob found in the command or its environment is not believed, or null.
 * A flag names what the user wrote; an inherited variable may be meant for
 * something else, so it must agree with the workers seen.
 * @param {Pick<FoundKnob, 'kind'|'name'|'value'>} found
 * @param {SizeKnob['seen']} seen
 * @returns {string|null}
 */
function foundDoubt(found, seen) {
  if (!seen) return null;
  if (found.kind === 'env' && found.name === THREADPOOL_ENV) return poolWorks(seen) ? null : 'threadpool-idle';
  // Set by the user for sharp: its threads are not workers, and are counted apart when seen at all.
  if (found.kind === 'env' && found.name === VIPS_ENV) return null;
  // One process and no workers is what WORKERS=1 reads as where the code forks only above 1 (`if (workers > 1) fork…`).
  if (found.kind === 'env' && found.value !== (seen.workers || seen.threads || 1)) return 'seen-differs';
  return null;
}

/**
 * The argv (after `spawnbench`) of the tune that sizes this server: its knob,
 * and the target options it ran with, so the sweep loads it the same way.
 * @param {{ kind: string, name?: string|null, command: string[] }} knob a found knob, or a resolved one
 * @param {{ port: number|null, path: string }} target the command target
 * @param {{ method: string, headers: Record<string, string>, body: string|null, stepMs?: number|null,
 *   mix?: { path: string }[]|null, mixFile?: string|null }} load
 *   `stepMs`: a step length that fits the latency seen (-d, confirm-command.js); `mixFile`: the --mix the
 *   run drove, carried over; `mix` without it: a repeated --path, each path carried over
 * @param {{ sizes?: number[], policyEnv?: string|null, policies?: string[]|null, connections?: number|null, rate?: number|null, threads?: number }} [sweep]
 * @returns {string[]}
 */
export function tuneArgs(knob, target, load, sweep = {}) {
  const args = ['tune'];
  if (sweep.sizes) args.push('--sizes', sweep.sizes.join(','));
  if (knob.kind === 'env' && knob.name) args.push('--size-env', knob.name);
  if (sweep.policyEnv && sweep.policies) args.push('--policy-env', sweep.policyEnv, '--balance-policies', sweep.policies.join(','));
  if (sweep.rate) args.push('--rate', String(sweep.rate));
  if (sweep.connections) args.push('-c', String(sweep.connections));
  if ((sweep.threads ?? 0) > 1) args.push('--generator-threads', String(sweep.threads));
  args.push(...durationArgs(load));
  if (target.port !== null) args.push('--port', String(target.port));
  // A mix gives each request its method, path and body (--mix refuses them beside it).
  if (load.mixFile) args.push('--mix', load.mixFile);
  else if (load.mix?.length) for (const entry of load.mix) args.push('--path', entry.path);
  else if (target.path !== '/') args.push('--path', target.path);
  if (!load.mixFile && load.method && load.method !== 'GET') args.push('--method', load.method);
  for (const [name, value] of Object.entries(load.headers ?? {})) args.push('--header', `${name}: ${value}`);
  if (!load.mixFile && load.body !== null && load.body !== undefined) args.push('--body', load.body);
  return [...args, '--', ...knob.command];
}
