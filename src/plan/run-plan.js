/**
 * CLI options → a plain plan object. Every check on user input lives here, so the
 * engine can trust the plan and tests can cover bad input without a process.
 */
import { UsageError } from '../base/errors.js';
import { checkOutputDestinations } from '../output/output-destinations.js';
import { resolveWorkload } from '../base/workloads.js';
import { getStrategy } from '../strategies/registry.js';
import { checkRuntimeSupport } from '../strategies/runtimes.js';
import { parseTarget } from '../load/target.js';
import { checkLoad } from '../load/load-options.js';
import { readMixFile } from '../load/mix-file.js';
import { BALANCE_POLICIES, readOptions, flagOf } from './option-declarations.js';
import { readLimits } from '../sample/proc.js';
import { OPEN_FILES_BESIDES_CONNECTIONS } from '../base/thresholds.js';

/**
 * @typedef {object} TargetPlan what a run measures: a built-in strategy it boots (buildTarget), a URL it
 *   drives (buildTarget), or a user's server command it starts (server-command-plan.js commandTarget)
 * @property {'strategy'|'url'|'command'} kind
 * @property {string} [strategy]
 * @property {string} [entry]
 * @property {boolean} [pool]
 * @property {number|null} [poolSize]
 * @property {string|null} [balance]
 * @property {string[]|null} [balancers] the policies the strategy honours (null: no pool)
 * @property {{name: string, kind: string, path: string}} [runtime]
 * @property {{name: string, kind: string, path: string}} [workerRuntime]
 * @property {string} [spawnsWith] how the strategy's commands run ('child_process', or its own spawner)
 * @property {number} [seed]
 * @property {number} [readyTimeoutMs] a strategy or command: how long it may take to answer
 * @property {string} [url]
 * @property {string[]} [command]  a command: its argv
 * @property {number|null} [port]  a command: --port, or null (a free port passed as PORT)
 * @property {string} [path]       a command: the path requests go to
 * @property {Record<string, string>} [env] a command: added to its environment (a size or policy knob)
 * @property {{ given: object|null, found: object|null }} [sizeKnob] `run -- <command>`: its size knob as given and as
 *   found (analysis/size-knob.js)
 */

/**
 * @typedef {object} RunPlan one measured run (buildRunPlan; server-command-plan.js for a user's server command):
 *   what the run engine (src/runner/run-engine.js) reads
 * @property {'run'|'tune'|'compare'} command the command it is part of (a tune step's or a compare row's plan is one)
 * @property {TargetPlan} target
 * @property {import('../base/workloads.js').Workload} workload
 * @property {import('../load/load-options.js').CheckedLoad} load startLoad()'s input, but for the URL
 * @property {{ enabled: boolean, intervalMs: number }} probe
 * @property {ReturnType<typeof buildOutput>} output
 */

/**
 * Builds the target part of a plan: a strategy to boot, or a URL to drive.
 * @param {import('./option-declarations.js').PlanOptions} o
 * @returns {TargetPlan}
 */
export function buildTarget(o) {
  if (o.given.has('url')) {
    for (const name of ['strategy', 'poolSize', 'balance', 'runtime', 'workerRuntime']) {
      if (o.given.has(name)) throw new UsageError(`--url drives a server that is already running; drop ${flagOf(name)}`);
    }
    return { kind: 'url', url: checkInsecure(o, parseTarget(o.url)).url };
  }
  if (o.insecure) throw new UsageError('--insecure applies to an https:// --url; drop it');
  const info = getStrategy(o.strategy);
  if (!info.pool) {
    for (const name of ['poolSize', 'balance']) {
      if (o.given.has(name)) throw new UsageError(`${flagOf(name)} applies to pool strategies; '${info.name}' has no pool`);
    }
  }
  const checked = checkRuntimeSupport(info, { runtime: o.runtime, workerRuntime: o.workerRuntime });
  const runtime = checked.runtime;
  // Workers run where the main process runs unless --worker-runtime says otherwise.
  const workerRuntime = checked.workerRuntime ?? runtime;
  return {
    kind: 'strategy',
    strategy: info.name,
    entry: info.entry,
    pool: info.pool,
    poolSize: info.pool ? o.poolSize : null,
    balance: info.pool ? checkBalance(o.balance, info) : null,
    // The policies this strategy honours, so advice never names one it cannot use.
    balancers: info.pool ? BALANCE_POLICIES.filter((p) => !info.balancers || info.balancers.includes(p)) : null,
    runtime,
    workerRuntime,
    // How the commands run (strategies/lib/spawn-command.js or child_process), so the header says how they spawn.
    spawnsWith: info.spawnsWith ?? 'child_process',
    seed: o.seed,
    readyTimeoutMs: o.readyTimeout,
  };
}

/**
 * Builds the load part of a plan: startLoad()'s input but for the URL, with its
 * defaults and checks from load/load-options.js (checkLoad), the ones the API's
 * startLoad() applies. --duration and --requests exclude each other (commander's
 * .conflicts(), readOptions() for the API); an open loop (--rate) without
 * --connections given sizes its own pool (connections null). --mix (a file, or the
 * API's array of entries) or a repeated --path gives the requests' mix.
 * @param {import('./option-declarations.js').PlanOptions} o
 * @param {Buffer|null} expected the body every 2xx response must have (null: not checked)
 */
export function buildLoad(o, expected) {
  const mix = requestMix(o);
  const load = checkOpenFiles(checkLoad({
    // Open loop without --connections: the generator sizes its pool from the rate (rate × 0.5 s, 10 to 1,000).
    connections: o.rate != null && !o.given.has('connections') ? null : o.connections,
    durationMs: o.given.has('requests') ? null : o.duration,
    requests: o.requests ?? null,
    warmupMs: o.warmup,
    rate: o.rate ?? null,
    timeoutMs: o.timeout,
    method: o.method,
    headers: parseHeaders(o.header ?? []),
    body: o.body ?? null,
    verify: o.verify !== false,
    expected: mix ? null : expected,
    threads: o.generatorThreads,
    insecure: Boolean(o.insecure),
    mix,
    seed: o.seed,
  }));
  // The file a --mix came from, so the tune a run prints drives the same traffic.
  return o.given.has('mix') && !Array.isArray(o.mix) ? { ...load, mixFile: String(o.mix) } : load;
}

/**
 * Refuses more connections than this process's open-files limit leaves room for: each is a
 * file, and the connects past the limit failed with spawnbench's own EMFILE, counted as the
 * server's errors. An open loop's own pool (connections null) stays within its 1,000.
 * @param {import('../load/load-options.js').CheckedLoad} load
 * @param {number|null|undefined} [limit] the soft limit (this process's)
 */
export function checkOpenFiles(load, limit = readLimits('self')?.openFiles) {
  const needed = (load.connections ?? 0) + OPEN_FILES_BESIDES_CONNECTIONS;
  if (!Number.isFinite(limit) || needed <= limit) return load;
  const most = Math.max(0, limit - OPEN_FILES_BESIDES_CONNECTIONS);
  const raise = 2 ** Math.ceil(Math.log2(needed * 2));
  throw new UsageError(`--connections ${load.connections} needs about ${needed.toLocaleString('en-US')} open files and the limit is ${limit}; run \`ulimit -n ${raise}\` in this shell first, or give at most --connections ${most}`);
}

/**
 * The mix of a run: --mix (a file; the API may give the entries), or --path given more
 * than once (an equal-weight mix of those paths, each with --method and --body); null: one request.
 * @param {import('./option-declarations.js').PlanOptions} o
 */
function requestMix(o) {
  if (o.given.has('mix')) {
    for (const name of ['method', 'path', 'body']) {
      if (o.given.has(name)) throw new UsageError(`--mix gives each request its method, path and body: drop ${flagOf(name)}`);
    }
    return Array.isArray(o.mix) ? o.mix : readMixFile(o.mix);
  }
  const paths = requestPaths(o);
  if (paths.length < 2) return null;
  return paths.map((path) => ({ method: o.method, path, body: o.body ?? null }));
}

/**
 * The --path values given, in order ('/' when none was): the first is the path of a one-request run.
 * @param {import('./option-declarations.js').PlanOptions} o
 * @returns {string[]}
 */
export function requestPaths(o) {
  const paths = [o.path ?? '/'].flat();
  return paths.length > 0 ? paths : ['/'];
}

/**
 * Builds the plan for `spawnbench run` (and the per-step plans of tune and compare).
 * @param {Record<string, any>} options the API's options (typed or the CLI's text), or options read already
 * @returns {RunPlan}
 */
export function buildRunPlan(options) {
  const o = readOptions(options, 'run');
  const target = buildTarget(o);
  const workloadGiven = o.given.has('workload') || o.given.has('workloadCmd');
  if (target.kind === 'url' && o.given.has('workloadCmd')) {
    throw new UsageError('--workload-cmd sets what a booted strategy runs; with --url, use --workload echo|large only to verify bodies');
  }
  const workload = resolveWorkload(o);
  const expected = target.kind === 'url' && !workloadGiven ? null : workload.expected;
  const load = buildLoad(o, expected);
  if (load.mix && target.kind === 'strategy') {
    throw new UsageError(`${o.given.has('mix') ? '--mix' : 'a repeated --path'} drives your own server (-- <command>) or a --url; a strategy answers its one workload`);
  }
  return {
    command: 'run',
    target,
    workload,
    load,
    probe: { enabled: o.probe !== false, intervalMs: o.sampleInterval },
    output: buildOutput(o),
  };
}

/**
 * Output options shared by every command; their destinations are checked now, before anything starts.
 * @param {Record<string, any>} o
 * @param {string[]} [command] the server command the run starts: no output may replace its files
 */
export function buildOutput(o, command = []) {
  checkOutputDestinations(o, command);
  return {
    json: Boolean(o.json),
    dashboard: o.dashboard !== false,
    logFile: o.logFile ?? null,
    out: o.out ?? null,
    debug: Boolean(o.debug),
  };
}

/** --balance on a strategy that balances with some policies only (strategy.json's `balancers`). */
function checkBalance(policy, info) {
  if (info.balancers && !info.balancers.includes(policy)) {
    throw new UsageError(`--balance ${policy}: strategy '${info.name}' balances with ${info.balancers.join(', ')} only (see strategies/README.md)`);
  }
  return policy;
}

/**
 * ['x-a: 1', 'accept:text/plain'] → { 'x-a': '1', accept: 'text/plain' }
 * @param {string[]} list
 */
export function parseHeaders(list) {
  /** @type {Record<string, string>} */
  const headers = {};
  for (const item of list) {
    const at = item.indexOf(':');
    const name = at > 0 ? item.slice(0, at).trim() : '';
    if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
      throw new UsageError(`--header '${item}' must look like 'name: value'`);
    }
    // Checked here, before anything starts: a line break would smuggle a header or a request; another control character
    // (NUL, DEL, …) makes every request one the server answers 400.
    if (/[\r\n]/.test(item)) throw new UsageError(`--header '${name}' must not contain a line break`);
    if (/[\x00-\x08\x0a-\x1f\x7f]/.test(item)) throw new UsageError(`--header '${name}' must not contain a line break or a control character`);
    headers[name.toLowerCase()] = item.slice(at + 1).trim();
  }
  return headers;
}

/**
 * --insecure only means something for an https target: refused elsewhere, so a
 * user who thinks the flag changed something learns that it did not.
 * @param {import('./option-declarations.js').PlanOptions} o the options read: `insecure`
 * @param {ReturnType<typeof parseTarget>} target
 */
export function checkInsecure(o, target) {
  if (o.insecure && !target.tls) throw new UsageError(`--insecure applies to https:// targets; ${target.url} is http, drop --insecure`);
  return target;
}
