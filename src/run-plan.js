/**
 * CLI options → a plain plan object. Every check on user input lives here, so the
 * engine can trust the plan and tests can cover bad input without a process.
 */
import { UsageError } from './errors.js';
import { ownCpuBudget, budgetWorkers } from './cpu-budget.js';
import { cpuBudgetLabel } from './labels.js';
import { parseDuration, parseInteger, parsePositiveNumber, parseChoice } from './units.js';
import { MAX_RATE } from './thresholds.js';
import { checkOutputDestinations } from './output-destinations.js';
import { resolveWorkload } from './workloads.js';
import { getStrategy, defaultStrategyName } from './strategies/registry.js';
import { checkRuntimeSupport } from './strategies/runtimes.js';
import { parseTarget } from './load/target.js';
import {
  DEFAULT_CONNECTIONS, DEFAULT_DURATION_MS, DEFAULT_WARMUP_MS, DEFAULT_TIMEOUT_MS, SAMPLE_INTERVAL_MS, SAMPLE_INTERVAL_RANGE_MS,
  READY_TIMEOUT_MS, MAX_POOL_SIZE,
} from './thresholds.js';

export const DEFAULTS = Object.freeze({
  connections: DEFAULT_CONNECTIONS,
  duration: `${DEFAULT_DURATION_MS / 1000}s`,
  warmup: `${DEFAULT_WARMUP_MS / 1000}s`,
  timeout: `${DEFAULT_TIMEOUT_MS / 1000}s`,
  balance: 'round-robin',
  generatorThreads: 1,
  sampleInterval: `${SAMPLE_INTERVAL_MS}ms`,
  runtime: 'node',
  method: 'GET',
  seed: 1,
  readyTimeout: `${READY_TIMEOUT_MS / 1000}s`,
});
export const BALANCE_POLICIES = ['random', 'round-robin', 'least-requests', 'p2c'];

/**
 * The default pool size: one worker per CPU of the budget (src/cpu-budget.js: the
 * cgroup quota, cpuset or affinity when tighter than the host), a fractional
 * budget rounded up; what most servers do on the machine, and `tune` finds a better one.
 */
export function defaultPoolSize(cpu = ownCpuBudget()) {
  return budgetWorkers(cpu);
}

/**
 * --generator-threads, at most one per CPU of the budget: a thread beyond them only waits
 * for a CPU (and takes its share from the server measured), and each costs memory (64 on 2
 * cores took ~1 GB).
 * @param {string|number} value
 * @param {import('./cpu-budget.js').CpuBudget} [cpu]
 * @returns {number}
 * @throws {UsageError}
 */
export function parseGeneratorThreads(value, cpu = ownCpuBudget()) {
  const threads = parseInteger(value, '--generator-threads', { max: 64 });
  const most = budgetWorkers(cpu);
  if (threads > most) {
    throw new UsageError(`--generator-threads ${threads} is more than the CPUs spawnbench may use here (${cpuBudgetLabel({ cpu })}); give at most ${most}`);
  }
  return threads;
}

/**
 * @typedef {object} TargetPlan
 * @property {'strategy'|'url'} kind
 * @property {string} [strategy]
 * @property {string} [entry]
 * @property {boolean} [pool]
 * @property {number} [poolSize]
 * @property {string} [balance]
 * @property {{name: string, kind: string, path: string}} [runtime]
 * @property {{name: string, kind: string, path: string}} [workerRuntime]
 * @property {number} [seed]
 * @property {string} [url]
 */

/**
 * Builds the target part of a plan: a strategy to boot, or a URL to drive.
 * @param {object} o commander options
 * @returns {TargetPlan}
 */
export function buildTarget(o) {
  if (o.url !== undefined) {
    for (const flag of ['strategy', 'poolSize', 'balance', 'runtime', 'workerRuntime']) {
      if (o[flag] !== undefined) throw new UsageError(`--url drives a server that is already running; drop --${kebab(flag)}`);
    }
    return { kind: 'url', url: checkInsecure(o, parseTarget(o.url)).url };
  }
  if (o.insecure) throw new UsageError('--insecure applies to an https:// --url; drop it');
  const info = getStrategy(o.strategy ?? defaultStrategyName());
  if (!info.pool) {
    for (const flag of ['poolSize', 'balance']) {
      if (o[flag] !== undefined) throw new UsageError(`--${kebab(flag)} applies to pool strategies; '${info.name}' has no pool`);
    }
  }
  const checked = checkRuntimeSupport(info, { runtime: o.runtime ?? DEFAULTS.runtime, workerRuntime: o.workerRuntime });
  const runtime = checked.runtime;
  // Workers run where the main process runs unless --worker-runtime says otherwise.
  const workerRuntime = checked.workerRuntime ?? runtime;
  return {
    kind: 'strategy',
    strategy: info.name,
    entry: info.entry,
    pool: info.pool,
    poolSize: info.pool ? parseInteger(o.poolSize ?? defaultPoolSize(), '--pool-size', { max: MAX_POOL_SIZE }) : null,
    balance: info.pool ? parseBalance(o.balance, info) : null,
    // The policies this strategy honours, so advice never names one it cannot use.
    balancers: info.pool ? BALANCE_POLICIES.filter((p) => !info.balancers || info.balancers.includes(p)) : null,
    runtime,
    workerRuntime,
    // How the commands run (strategies/lib/spawn-command.js or child_process), so the header says how they spawn.
    spawnsWith: info.spawnsWith ?? 'child_process',
    seed: parseInteger(o.seed ?? DEFAULTS.seed, '--seed', { min: 0 }),
    readyTimeoutMs: parseDuration(o.readyTimeout ?? DEFAULTS.readyTimeout, '--ready-timeout'),
  };
}

/**
 * Builds the load part of a plan.
 * @param {object} o commander options
 * @param {Buffer|null} expected the body every 2xx response must have (null: not checked)
 */
export function buildLoad(o, expected) {
  if (o.duration !== undefined && o.requests !== undefined) {
    throw new UsageError('use either --duration or --requests, not both');
  }
  const rate = o.rate !== undefined ? parsePositiveNumber(o.rate, '--rate', { max: MAX_RATE }) : null;
  // Open loop without --connections: the generator sizes its pool from the rate (rate × 0.5 s, 10 to 1,000).
  const connections = rate !== null && o.connections === undefined
    ? null
    : parseInteger(o.connections ?? DEFAULTS.connections, '--connections', { max: 10_000 });
  const threads = parseGeneratorThreads(o.generatorThreads ?? DEFAULTS.generatorThreads);
  if (connections !== null && threads > connections) throw new UsageError(`--generator-threads (${threads}) cannot exceed --connections (${connections})`);
  return {
    connections,
    durationMs: o.requests !== undefined ? null : parseDuration(o.duration ?? DEFAULTS.duration, '--duration'),
    requests: o.requests !== undefined ? parseInteger(o.requests, '--requests') : null,
    warmupMs: parseDuration(o.warmup ?? DEFAULTS.warmup, '--warmup', { allowZero: true }),
    rate,
    timeoutMs: parseDuration(o.timeout ?? DEFAULTS.timeout, '--timeout'),
    method: parseMethod(o.method ?? DEFAULTS.method),
    headers: parseHeaders(o.header ?? []),
    body: o.body ?? null,
    verify: o.verify !== false,
    expected: o.verify === false ? null : expected,
    threads,
    insecure: Boolean(o.insecure),
  };
}

/**
 * Builds the plan for `spawnbench run` (and the per-step plans of tune and compare).
 * @param {object} o commander options
 */
export function buildRunPlan(o) {
  const target = buildTarget(o);
  const workloadGiven = o.workload !== undefined || o.workloadCmd !== undefined;
  if (target.kind === 'url' && o.workloadCmd !== undefined) {
    throw new UsageError('--workload-cmd sets what a booted strategy runs; with --url, use --workload echo|large only to verify bodies');
  }
  const workload = resolveWorkload(o);
  const expected = target.kind === 'url' && !workloadGiven ? null : workload.expected;
  return {
    command: 'run',
    target,
    workload,
    load: buildLoad(o, expected),
    probe: {
      enabled: o.probe !== false,
      intervalMs: parseSampleInterval(o.sampleInterval ?? DEFAULTS.sampleInterval),
    },
    output: buildOutput(o),
  };
}

/** Output options shared by every command; their destinations are checked now, before anything starts. */
export function buildOutput(o) {
  checkOutputDestinations(o);
  return {
    json: Boolean(o.json),
    dashboard: o.dashboard !== false,
    logFile: o.logFile ?? null,
    out: o.out ?? null,
    debug: Boolean(o.debug),
  };
}

function parseBalance(value, info) {
  const policy = parseChoice(value ?? DEFAULTS.balance, '--balance', BALANCE_POLICIES);
  if (info.balancers && !info.balancers.includes(policy)) {
    throw new UsageError(`--balance ${policy}: strategy '${info.name}' balances with ${info.balancers.join(', ')} only (see strategies/README.md)`);
  }
  return policy;
}

/** --sample-interval: a duration between 100 ms and 1 s. */
export function parseSampleInterval(value) {
  const ms = parseDuration(value, '--sample-interval');
  const [min, max] = SAMPLE_INTERVAL_RANGE_MS;
  if (ms < min || ms > max) throw new UsageError(`--sample-interval must be between ${min}ms and ${max / 1000}s`);
  return ms;
}

function parseMethod(value) {
  const method = String(value).toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw new UsageError(`--method '${value}' is not an HTTP method; use GET, POST, …`);
  return method;
}

/**
 * ['x-a: 1', 'accept:text/plain'] → { 'x-a': '1', accept: 'text/plain' }
 * @param {string[]} list
 */
export function parseHeaders(list) {
  const headers = {};
  for (const item of list) {
    const at = item.indexOf(':');
    const name = at > 0 ? item.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`--header '${item}' must look like 'name: value'`);
    }
    // Checked here, before anything starts: a line break would smuggle a header or a request.
    if (/[\r\n]/.test(item)) throw new UsageError(`--header '${name}' must not contain a line break`);
    headers[name.toLowerCase()] = item.slice(at + 1).trim();
  }
  return headers;
}

/**
 * --insecure only means something for an https target: refused elsewhere, so a
 * user who thinks the flag changed something learns that it did not.
 * @param {object} o commander options
 * @param {ReturnType<typeof parseTarget>} target
 */
export function checkInsecure(o, target) {
  if (o.insecure && !target.tls) throw new UsageError(`--insecure applies to https:// targets; ${target.url} is http, drop --insecure`);
  return target;
}

/** An option's camelCase name as its flag: 'sizeEnv' → 'size-env'. */
export function kebab(name) {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}
