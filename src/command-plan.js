/**
 * The run plan of a user's server command: what a tune step or a compare run
 * measures when the target is `-- <command>` or `--command name=<line>` instead
 * of a built-in strategy. The command starts as diagnose starts it (PORT or
 * --port, readiness by TCP, the probe through NODE_OPTIONS, its own process
 * group); its responses are not compared with a workload's bytes, since only the
 * server knows what it answers.
 */
import { UsageError } from './errors.js';
import { DEFAULTS, buildLoad, buildOutput, parseSampleInterval } from './plan.js';
import { parseDuration, parseInteger } from './units.js';

/** Highest TCP port. */
const MAX_PORT = 65535;

/**
 * What each request runs on a user's server: its own code, unknown to spawnbench.
 * Run plans always carry a workload (results name it); this one has no command and no expected body.
 */
export const SERVER_WORKLOAD = Object.freeze({ name: 'server', command: null, args: [], expected: null });

/** Variables spawnbench sets itself for the command: a knob may not take them over. */
const RESERVED_ENV = ['PORT', 'NODE_OPTIONS'];

/**
 * @param {object} o commander options (load, output, --port, --path, --ready-timeout)
 * @param {string[]} command argv, split without a shell
 * @param {{ env?: Record<string, string> }} [extra] `env` added to the command's environment
 * @returns {object} a run plan whose target is `{ kind: 'command', command, port, path, readyTimeoutMs, env }`
 */
export function buildCommandRunPlan(o, command, { env = {} } = {}) {
  return {
    command: 'run',
    target: { ...commandTarget(o, command), env },
    workload: SERVER_WORKLOAD,
    load: buildLoad(o, null),
    probe: {
      enabled: o.probe !== false,
      intervalMs: parseSampleInterval(o.sampleInterval ?? DEFAULTS.sampleInterval),
    },
    output: buildOutput(o),
  };
}

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
  return name;
}

/**
 * The target of a user's server command as diagnose starts it (diagnose's plan
 * reads it from here; tune and compare on a command start it the same way):
 * --port, --path and --ready-timeout checked.
 * @param {{ port?: string, path?: string, readyTimeout?: string }} o commander options
 * @param {string[]} command argv
 * @returns {{ kind: 'command', command: string[], port: number|null, path: string, readyTimeoutMs: number }}
 */
export function commandTarget(o, command) {
  const pathValue = o.path ?? '/';
  if (!String(pathValue).startsWith('/')) throw new UsageError(`--path must start with /, like /api/items (got '${pathValue}')`);
  return {
    kind: 'command',
    command,
    port: o.port !== undefined ? parseInteger(o.port, '--port', { max: MAX_PORT }) : null,
    path: pathValue,
    readyTimeoutMs: parseDuration(o.readyTimeout ?? DEFAULTS.readyTimeout, '--ready-timeout'),
  };
}
