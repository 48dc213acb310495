/**
 * The run plan of a user's server command: what `run -- <command>`, a tune step
 * or a compare run measures when the target is `-- <command>` or `--command
 * name=<line>` instead of a built-in strategy. The command starts as diagnose starts it (PORT or
 * --port, readiness by TCP, the probe through NODE_OPTIONS, its own process
 * group); its responses are not compared with a workload's bytes, since only the
 * server knows what it answers.
 */
import { UsageError } from '../base/errors.js';
import { buildLoad, buildOutput, requestPaths } from './run-plan.js';
import { readOptions, flagOf } from './option-declarations.js';
import { findSizeKnob, givenSizeKnob } from '../analysis/size-knob.js';

/**
 * What each request runs on a user's server: its own code, unknown to spawnbench.
 * Run plans always carry a workload (results name it); this one has no command and no expected body.
 */
export const SERVER_WORKLOAD = Object.freeze({ name: 'server', command: null, args: [], expected: null });

/** Variables spawnbench sets itself for the command: a knob may not take them over. */
const RESERVED_ENV = ['PORT', 'NODE_OPTIONS'];

/**
 * @param {Record<string, any>} options the API's options or options read already (load, output, --port, --path, --ready-timeout)
 * @param {string[]} command argv, split without a shell
 * @param {{ env?: Record<string, string> }} [extra] `env` added to the command's environment
 * @returns {import('./run-plan.js').RunPlan} a run plan whose target is `{ kind: 'command', command, port, path, readyTimeoutMs, env }`
 */
export function buildCommandRunPlan(options, command, { env = {} } = {}) {
  const o = readOptions(options, 'run');
  return {
    command: 'run',
    target: { ...commandTarget(o, command), env },
    workload: SERVER_WORKLOAD,
    load: buildLoad(o, null),
    probe: { enabled: o.probe !== false, intervalMs: o.sampleInterval },
    output: buildOutput(o, command),
  };
}

/** Variables the command needs in order to start or run, which a knob's value would replace. */
const PROCESS_ENV = ['PATH', 'HOME', 'LD_LIBRARY_PATH', 'LD_PRELOAD', 'NODE_PATH', 'SHELL', 'TMPDIR'];

/**
 * An environment variable name a knob may set: a shell-style name, not one spawnbench sets itself.
 * @param {string} value
 * @param {string} flag e.g. '--size-env'
 * @returns {string}
 */
export function parseEnvName(value, flag) {
  const name = String(value);
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(name)) throw new UsageError(`${flag} '${name}' is not an environment variable name; use letters, digits and _, like WEB_CONCURRENCY`);
  if (RESERVED_ENV.includes(name) || name.startsWith('SPAWNBENCH_')) {
    throw new UsageError(`${flag} ${name}: spawnbench sets ${name} itself (the port and the probe); use the variable your server reads its size or policy from`);
  }
  // A number or a policy name in place of these would stop the command from starting at all ("spawn node ENOENT").
  if (PROCESS_ENV.includes(name)) {
    throw new UsageError(`${flag} ${name}: that would replace the server's ${name} with a size or policy; use the variable your server reads its size or policy from, like WORKERS`);
  }
  return name;
}

/**
 * The target of a user's server command as diagnose starts it (diagnose's plan
 * reads it from here; tune and compare on a command start it the same way).
 * @param {import('./option-declarations.js').PlanOptions} o --port, --path and --ready-timeout, parsed
 * @param {string[]} command argv
 * @returns {{ kind: 'command', command: string[], port: number|null, path: string, readyTimeoutMs: number }}
 */
export function commandTarget(o, command) {
  return { kind: 'command', command, port: o.port ?? null, path: requestPaths(o)[0], readyTimeoutMs: o.readyTimeout };
}

/** Options that configure a built-in strategy: they cannot reach a server spawnbench did not write. */
const STRATEGY_ONLY = ['runtime', 'workerRuntime', 'workload', 'workloadCmd', 'seed'];

/**
 * Refuses the options of a built-in strategy on the user's own server (run and tune after --).
 * @param {import('./option-declarations.js').PlanOptions} o
 */
export function checkStrategyOnly(o) {
  for (const name of STRATEGY_ONLY) {
    // --seed also seeds the draw of a mix, which reaches any server.
    if (name === 'seed' && o.given.has('mix')) continue;
    if (o.given.has(name)) throw new UsageError(`${flagOf(name)} configures built-in strategies; your server after -- runs its own code: drop ${flagOf(name)}`);
  }
}

/** `{size}` in a command's arguments: the size knob tune fills in per step (and run from --pool-size). */
export const SIZE_PLACEHOLDER = '{size}';

const RUN_EXAMPLE = 'spawnbench run -- node server.js';

/**
 * The plan of `spawnbench run [options] -- <command>`: the user's server, started
 * as tune and diagnose start it, measured once, with its size knob as given
 * (--size-env NAME, `{size}` filled from --pool-size) or as found in its
 * arguments and environment.
 * @param {Record<string, any>} options the options of `run`: the API's, or read already (cliOptions())
 * @param {string[]} command operands after `--`
 * @param {Record<string, string|undefined>} env the environment the server inherits (spawnbench's own)
 * @returns {import('./run-plan.js').RunPlan} a run plan whose target is a command target with `sizeKnob: { given, found }`
 */
export function buildOwnRunPlan(options, command, env) {
  const o = readOptions(options, 'run');
  if (command.length === 0) throw new UsageError(`the command after -- is empty; give the one that starts your server, e.g. ${RUN_EXAMPLE}`);
  if (o.given.has('url')) throw new UsageError('give either the command that starts your server (after --) or --url of one that runs, not both');
  if (o.given.has('strategy')) throw new UsageError('--strategy boots a built-in strategy and the command after -- is your own server: run one of them, drop --strategy or the command');
  checkStrategyOnly(o);
  if (o.given.has('balance')) throw new UsageError('--balance picks a built-in strategy\'s policy; your server balances with its own code (node:cluster reads NODE_CLUSTER_SCHED_POLICY from its environment): drop --balance');
  if (o.insecure) throw new UsageError('--insecure applies to an https:// --url; drop it');
  const sizeEnv = o.sizeEnv !== undefined ? parseEnvName(o.sizeEnv, '--size-env') : null;
  const sizeArg = command.some((a) => a.includes(SIZE_PLACEHOLDER));
  const size = o.given.has('poolSize') ? o.poolSize : null;
  if (size !== null && !sizeEnv && !sizeArg) {
    throw new UsageError('--pool-size sets your server\'s size through its knob: name it with --size-env NAME or put {size} in its arguments (-- node server.js --workers {size})');
  }
  if (sizeArg && size === null) throw new UsageError('{size} in the command needs this run\'s size: add --pool-size N (tune fills it in per step)');
  const knobEnv = sizeEnv && size !== null ? { [sizeEnv]: String(size) } : {};
  const filled = command.map((a) => (size !== null ? a.replaceAll(SIZE_PLACEHOLDER, String(size)) : a));
  const serverEnv = { ...env, ...knobEnv };
  const plan = buildCommandRunPlan(o, filled, { env: knobEnv });
  plan.target.sizeKnob = {
    given: givenSizeKnob({ sizeEnv, sizeArg, size, command, env: serverEnv }),
    found: findSizeKnob({ command, env: serverEnv }),
  };
  return plan;
}
