/**
 * Every option, declared once: its flags, what it does, its default as a typed
 * value (milliseconds, a count, a list) with the text --help shows for it, the
 * parser that turns the CLI's text (or the API's typed value, or its text) into
 * that value, and the options it cannot be used with. options.js makes commander
 * Options of these (.default(), .argParser(), .conflicts()); readOptions() and
 * cliOptions() give the plan builders the same typed values, whether they came
 * from the command line or the programmatic API, with the set of options given.
 * The numbers behind the defaults live in thresholds.js; tune's and compare's
 * shorter runs are per-command defaults here (COMMAND_DEFAULTS).
 */
import { UsageError } from '../base/errors.js';
import { ownLimit } from '../base/proc-limits.js';
import { ownCpuBudget, budgetWorkers } from '../machine/cpu-budget.js';
import { cpuBudgetLabel } from '../base/labels.js';
import {
  parseDuration, parseInteger, parseChoice, parseChoiceList, parseIntegerList, formatDuration,
} from '../base/units.js';
import { WORKLOAD_NAMES } from '../base/workloads.js';
import { LOAD_PARSERS, MAX_GENERATOR_THREADS } from '../load/load-options.js';
import { listStrategies, defaultStrategyName } from '../strategies/registry.js';
import {
  DEFAULT_CONNECTIONS, DEFAULT_DURATION_MS, DEFAULT_WARMUP_MS, DEFAULT_TIMEOUT_MS, DEFAULT_GENERATOR_THREADS, DEFAULT_SEED,
  SAMPLE_INTERVAL_MS, SAMPLE_INTERVAL_RANGE_MS, READY_TIMEOUT_MS, MAX_POOL_SIZE, MAX_REPEAT,
  TUNE_DEFAULTS, COMPARE_DEFAULTS, TUNE_MAX_SIZE_FACTOR,
  TUNE_STEP_MAX_MS, TUNE_MIN_RESPONSES, TUNE_P99_MULTIPLE, MIN_ADDRESS_SPACE_BYTES, GENERATOR_THREAD_ADDRESS_SPACE_BYTES,
} from '../base/thresholds.js';

export const BALANCE_POLICIES = ['random', 'round-robin', 'least-requests', 'p2c'];
export const SEARCH_MODES = ['exhaustive', 'adaptive'];

/** Highest TCP port. */
const MAX_PORT = 65535;

/**
 * The default pool size: one worker per CPU of the budget (src/machine/cpu-budget.js: the
 * cgroup quota, cpuset or affinity when tighter than the host), a fractional
 * budget rounded up; what most servers do on the machine, and `tune` finds a better one.
 */
export function defaultPoolSize(cpu = ownCpuBudget()) {
  return budgetWorkers(cpu);
}

/**
 * Default sizes of tune: the 1-2-3-4-6-8-12-16-… series (each ~1.5× the last) up to
 * twice the CPU budget's workers (defaultPoolSize()), plus that count itself, so
 * the curve has points at "one per CPU" and beyond.
 * @param {number} parallelism
 * @returns {number[]}
 */
export function defaultSizes(parallelism = defaultPoolSize()) {
  const max = Math.max(2, TUNE_MAX_SIZE_FACTOR * parallelism);
  const sizes = new Set([parallelism, max]);
  for (let base = 1; base <= max; base *= 2) {
    sizes.add(base);
    if (base >= 2 && base * 1.5 <= max) sizes.add(base * 1.5);
  }
  return [...sizes].filter((n) => n >= 1 && n <= max).sort((a, b) => a - b);
}

/**
 * --generator-threads, at most one per CPU of the budget: a thread beyond them only waits
 * for a CPU (and takes its share from the server measured), and each costs memory (64 on 2
 * cores took ~1 GB).
 * @param {string|number} value
 * @param {import('../machine/cpu-budget.js').CpuBudget} [cpu]
 * @param {number|null} [addressSpace] the address-space limit in bytes (null: none)
 * @returns {number}
 * @throws {UsageError}
 */
export function parseGeneratorThreads(value, cpu = ownCpuBudget(), addressSpace = ownAddressSpace()) {
  const most = budgetWorkers(cpu);
  // The example a non-number gets is one the cap allows (it said 'e.g. 10' where 2 was the most);
  // the bound and the words are LOAD_PARSERS.threads' (load-options.js).
  const threads = parseInteger(value, '--generator-threads', { max: MAX_GENERATOR_THREADS, example: Math.min(most, 2) });
  if (threads > most) {
    throw new UsageError(`--generator-threads ${threads} is more than the CPUs spawnbench may use here (${cpuBudgetLabel({ cpu })}); give at most ${most}`);
  }
  // Each thread reserves its own V8 heap: under a ulimit -v that fits one, a second died with a V8 OOM trap, no word.
  const needed = MIN_ADDRESS_SPACE_BYTES + (threads - 1) * GENERATOR_THREAD_ADDRESS_SPACE_BYTES;
  if (threads > 1 && addressSpace !== null && addressSpace < needed) {
    const kb = (/** @type {number} */ bytes) => Math.floor(bytes / 1024);
    throw new UsageError(`--generator-threads ${threads} needs at least ${kb(needed)} kB of address space and the limit is ${kb(addressSpace)} kB (ulimit -v); run \`ulimit -v unlimited\` in this shell first, or give --generator-threads 1`);
  }
  return threads;
}

/** This process's soft address-space limit in bytes (ulimit -v), null where /proc cannot tell or it is unlimited. */
function ownAddressSpace() {
  const soft = ownLimit('Max address space');
  return soft !== null && Number.isFinite(soft) ? soft : null;
}

/** --sample-interval: a duration between 100 ms and 1 s. */
export function parseSampleInterval(value) {
  const ms = parseDuration(value, '--sample-interval');
  const [min, max] = SAMPLE_INTERVAL_RANGE_MS;
  if (ms < min || ms > max) throw new UsageError(`--sample-interval must be between ${min}ms and ${max / 1000}s`);
  return ms;
}

function parsePath(value) {
  const path = String(value);
  // A space or a control character would go raw into the request line; the path is quoted as JSON, escapes and all.
  if (!path.startsWith('/') || /[\s\x00-\x1f\x7f]/.test(path)) throw new UsageError(`--path must start with / and hold no spaces or control characters, like /api/items (got ${JSON.stringify(path)})`);
  return path;
}

/**
 * --path, repeatable: each given path (the API: one or a list); several make an equal-weight mix.
 * The declared default '/' is commander's `previous` at the first one, and is dropped.
 */
function parsePaths(value, previous) {
  const before = Array.isArray(previous) ? previous : [];
  return [...before, ...(Array.isArray(value) ? value : [value]).map(parsePath)];
}

/** commander's argParser passes the previous value second: the flag is bound here, never taken from the call. */
const parseSizes = (value) => parseSizeList(value, '--sizes');

function parseSizeList(value, flag) {
  // The cap first: `--sizes 99999999999999999999` was told "at most 9007199254740991", where it is 256.
  return parseIntegerList(value, flag, { max: MAX_POOL_SIZE });
}

/** A repeatable option: the CLI collects each value, the API gives one or a list. */
const collect = (value, previous = []) => [...previous, ...(Array.isArray(value) ? value : [value])];

/** Words --help shows after "default:" for a duration, a list, a count. */
const showList = (list) => list.join(',');

/** The commands whose runs are shorter than run's, so their --duration and --warmup say "of each run". */
const perStep = (command) => command === 'tune' || command === 'compare';
/** What tune does with a step's -d (src/runner/enough-watch.js). */
const STEP_EXTENSION_WORDS = `; at least: a step runs on, up to ${formatDuration(TUNE_STEP_MAX_MS)}, until it has ${TUNE_MIN_RESPONSES} responses over ${TUNE_P99_MULTIPLE} × its p99 (one that has not is not ranked)`;

/**
 * @typedef {object} OptionDeclaration
 * @property {string} flags commander's flags, e.g. '-d, --duration <time>'
 * @property {string | ((command: string) => string)} description what it does (for the command it is on)
 * @property {unknown | (() => unknown)} [default] the typed default (a function: worked out on this machine when asked)
 * @property {(value: any) => string} [shown] the default as --help shows it (default: String(value))
 * @property {string} [defaultWords] what happens without it, for an option whose default the plan works out from others
 * @property {(value: any, previous?: any) => unknown} [parse] CLI text or API value → the typed value; throws a UsageError naming the flag
 * @property {string[]} [conflicts] options it cannot be used with
 */

/** @type {Record<string, OptionDeclaration>} */
export const OPTIONS = {
  strategy: { flags: '-s, --strategy <name>', description: 'strategy to boot', default: () => defaultStrategyName(), shown: (name) => `${name}; see spawnbench list` },
  workload: {
    flags: '--workload <name>', description: `what each request runs: ${WORKLOAD_NAMES.join(' | ')}`, default: 'echo', conflicts: ['workloadCmd'],
  },
  workloadCmd: { flags: '--workload-cmd <command>', description: 'run this command per request instead, split into argv without a shell, e.g. "printf hello"' },
  runtime: { flags: '--runtime <runtime>', description: "runtime of the strategy's main process: node, bun, deno or a path", default: 'node' },
  workerRuntime: { flags: '--worker-runtime <runtime>', description: 'runtime of forked pool workers: node, bun, deno or a path', defaultWords: "the main process's runtime" },
  seed: { flags: '--seed <n>', description: 'seed for the random and p2c balancers, and for the draw of --mix', default: DEFAULT_SEED, parse: LOAD_PARSERS.seed },
  readyTimeout: {
    flags: '--ready-timeout <time>',
    description: (command) => `how long the server may take to ${command === 'diagnose' ? 'accept connections' : 'start listening'}`,
    default: READY_TIMEOUT_MS, shown: formatDuration, parse: (v) => parseDuration(v, '--ready-timeout'),
  },
  poolSize: {
    flags: '-p, --pool-size <n>', description: 'workers in a pool strategy; for your own server, its size through --size-env or {size}',
    default: () => defaultPoolSize(), shown: (n) => `one per CPU of the budget, ${n} here: ${cpuBudgetLabel({ cpu: ownCpuBudget() })}`,
    parse: (v) => parseInteger(v, '--pool-size', { max: MAX_POOL_SIZE }),
  },
  balance: {
    flags: '-b, --balance <policy>', description: `how a pool picks a worker: ${BALANCE_POLICIES.join(' | ')}`, default: 'round-robin',
    parse: (v) => parseChoice(v, '--balance', BALANCE_POLICIES),
  },
  url: { flags: '--url <url>', description: 'drive a server that is already running instead of booting a strategy (http:// or https://)' },
  insecure: { flags: '--insecure', description: 'with an https --url: accept a certificate that does not verify (self-signed)' },
  connections: {
    flags: '-c, --connections <n>', description: 'keep-alive connections', default: DEFAULT_CONNECTIONS,
    parse: LOAD_PARSERS.connections,
  },
  duration: {
    flags: '-d, --duration <time>', description: (command) => `measured time${perStep(command) ? ' of each run' : ''}, e.g. 500ms, 10s, 1m${command === 'tune' ? STEP_EXTENSION_WORDS : ''}`,
    default: DEFAULT_DURATION_MS, shown: formatDuration, parse: LOAD_PARSERS.durationMs, conflicts: ['requests'],
  },
  requests: { flags: '-n, --requests <n>', description: 'measure this many requests instead of a duration (ended as a stall when nothing answers for 3 × --timeout)', parse: LOAD_PARSERS.requests },
  warmup: {
    flags: '-w, --warmup <time>', description: (command) => `warm-up before measuring${perStep(command) ? ', before each run' : ''}, not counted`,
    default: DEFAULT_WARMUP_MS, shown: formatDuration, parse: LOAD_PARSERS.warmupMs,
  },
  rate: {
    flags: '-r, --rate <rps>', description: 'open loop: send at this constant rate, latency timed from when each request was due (at most 1000000)',
    parse: LOAD_PARSERS.rate,
  },
  timeout: { flags: '--timeout <time>', description: 'per-request timeout', default: DEFAULT_TIMEOUT_MS, shown: formatDuration, parse: LOAD_PARSERS.timeoutMs },
  method: { flags: '--method <method>', description: 'HTTP method', default: 'GET', parse: LOAD_PARSERS.method },
  header: { flags: '-H, --header <name:value>', description: 'request header, repeatable', parse: collect },
  body: { flags: '--body <text>', description: 'request body' },
  mix: {
    flags: '--mix <file>',
    description: 'a mix of requests, each drawn by weight (--seed): a JSON array of { name?, method, path, headers?, body?, weight? }, or a .har capture; figures per endpoint',
    conflicts: ['method', 'path', 'body'],
  },
  verify: { flags: '--no-verify', description: 'do not compare response bodies with the workload\'s expected bytes', default: true },
  generatorThreads: {
    flags: '--generator-threads <n>', description: 'load generator worker threads, at most one per CPU of the budget',
    default: DEFAULT_GENERATOR_THREADS, parse: (v) => parseGeneratorThreads(v),
  },
  json: { flags: '--json', description: 'print one JSON document on stdout instead of the summary' },
  dashboard: { flags: '--no-dashboard', description: 'no live dashboard; progress lines on stderr', default: true },
  out: { flags: '--out <file>', description: 'also write the result as JSON to this file (read it back with spawnbench report)' },
  logFile: { flags: '--log-file <path>', description: 'log the run (options, strategy output, errors) to this file' },
  probe: { flags: '--no-probe', description: 'do not inject the in-process probe into the server', default: true },
  sampleInterval: {
    flags: '--sample-interval <time>', description: 'probe and sampler interval, 100ms to 1s', default: SAMPLE_INTERVAL_MS, shown: formatDuration, parse: parseSampleInterval,
  },
  debug: { flags: '--debug', description: 'show stack traces' },
  assert: {
    flags: '--assert <expr>',
    description: "fail (exit 3) unless it holds: p50|p90|p99|p999|max<50ms, rps>=800 (successful responses only), errors=0, errors<=1%, blocked-in-spawn<30%, elu<0.9, busy<0.9 (threads waiting for work count idle), rps-change>-5% (with --against), p99{GET /report}<50ms (one endpoint of --mix, by its name or METHOD path); repeatable",
    parse: collect,
  },
  against: { flags: '--against <old.json>', description: 'compare with a result saved by --out: rps, percentiles and errors, each marked as a change only beyond the noise' },
  html: { flags: '--html <file>', description: 'also write a self-contained HTML report (charts, tables; no network needed) to this file' },
  sizes: {
    flags: '--sizes <list>', description: 'pool sizes to measure, e.g. 1,2,4,8', default: () => defaultSizes(),
    shown: (sizes) => `${showList(sizes)} here: 1 to 2 × the CPU budget's workers`, parse: parseSizes,
  },
  balancePolicies: {
    flags: '--balance-policies <list>',
    description: `policies to measure, from ${BALANCE_POLICIES.join(', ')}; for your own server, the values it understands`,
    defaultWords: 'all that the strategy supports',
  },
  repeat: {
    flags: '--repeat <n>',
    description: (command) => (command === 'compare'
      ? 'run each this many times, interleaved; the median is used, the spread shown'
      : 'measure each step this many times, interleaved; the median is used, the spread shown'),
    parse: (v) => parseInteger(v, '--repeat', { max: MAX_REPEAT }),
  },
  search: {
    flags: '--search <mode>', description: `${SEARCH_MODES.join(' | ')}: every size × policy, or coarse-to-fine over sizes then the other policies at the chosen size`,
    default: TUNE_DEFAULTS.search, parse: (v) => parseChoice(v, '--search', SEARCH_MODES),
  },
  strategies: {
    flags: '--strategies <list>', description: 'strategies to compare, the first is the yardstick, e.g. baseline,cluster,fork-pool', defaultWords: 'all, see spawnbench list',
    parse: (v) => parseChoiceList(v, '--strategies', listStrategies().map((s) => s.name)),
  },
  workloads: {
    flags: '--workloads <list>', description: `workloads to run each on: ${WORKLOAD_NAMES.join(', ')}`, default: COMPARE_DEFAULTS.workloads, shown: showList,
    parse: (v) => parseChoiceList(v, '--workloads', WORKLOAD_NAMES),
  },
  command: {
    flags: '--command <name=command line>',
    description: 'also compare your own server: a name, =, and the command that starts it, split into argv without a shell, e.g. mine="node server.js"; repeatable',
    parse: collect,
  },
  markdown: { flags: '--markdown', description: 'print the table as Markdown' },
  port: {
    flags: '--port <n>', description: 'the port your server listens on when it ignores PORT', defaultWords: 'a free port, given to it as PORT',
    parse: (v) => parseInteger(v, '--port', { max: MAX_PORT }),
  },
  path: { flags: '--path <path>', description: 'request path, e.g. /api/items; repeated: an equal-weight mix of them', default: '/', parse: parsePaths },
  sizeEnv: {
    flags: '--size-env <name>', description: 'your server reads its size from this environment variable, e.g. WEB_CONCURRENCY, WORKERS, UV_THREADPOOL_SIZE (or put {size} in its arguments)',
  },
  processes: {
    flags: '--processes <list>',
    description: 'run your own server, unchanged, in this many node:cluster processes (as pm2 start app.js -i N does), one step each, e.g. 1,2,3; the command is node [node-flags] <script> [args]',
    parse: (v) => parseSizeList(v, '--processes'),
  },
  policyEnv: {
    flags: '--policy-env <name>',
    description: 'your server reads its balancing policy from this environment variable (or put {policy} in its arguments); the values come from --balance-policies',
  },
  cpuProf: { flags: '--cpu-prof', description: 'profile the server\'s Node processes; print where the .cpuprofile is and the top 10 functions by self time' },
  cpuProfDir: { flags: '--cpu-prof-dir <dir>', description: 'folder for the .cpuprofile files, implies --cpu-prof', defaultWords: 'a new folder in the temp dir' },
  pid: { flags: '--pid <pid>', description: 'with --url: the server\'s process id, to read its CPU from /proc', parse: (v) => parseInteger(v, '--pid') },
};

/**
 * Defaults a command sets for itself, over the declared ones: tune's steps and
 * compare's runs are shorter than run's (their figures and reasons: thresholds.js).
 * @type {Record<string, Record<string, unknown>>}
 */
export const COMMAND_DEFAULTS = {
  tune: { duration: TUNE_DEFAULTS.durationMs, warmup: TUNE_DEFAULTS.warmupMs, repeat: TUNE_DEFAULTS.repeat },
  compare: { duration: COMPARE_DEFAULTS.durationMs, warmup: COMPARE_DEFAULTS.warmupMs, repeat: COMPARE_DEFAULTS.repeat },
};

/**
 * The typed default of an option on a command (undefined: none, the plan works it out).
 * @param {string} name an OPTIONS key
 * @param {string} [command]
 */
export function defaultOf(name, command = 'run') {
  const own = COMMAND_DEFAULTS[command];
  if (own && name in own) return own[name];
  const value = OPTIONS[name].default;
  return typeof value === 'function' ? value() : value;
}

/** The text --help shows after "default:" for a typed default. */
export function shownDefault(name, value) {
  const { shown } = OPTIONS[name];
  return shown ? shown(value) : String(value);
}

/** An option's description on a command. */
export function describeOption(name, command = 'run') {
  const { description } = OPTIONS[name];
  return typeof description === 'function' ? description(command) : description;
}

/** An option's long flag: 'sizeEnv' → '--size-env'. */
export function flagOf(name) {
  return /--[\w-]+/.exec(OPTIONS[name]?.flags ?? '')?.[0] ?? `--${name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
}

/**
 * Options as a plan builder reads them: every declared option's typed value (its
 * default where it was not given) and `given`, the names the user set.
 * @typedef {Record<string, any> & { given: Set<string> }} PlanOptions
 */

/**
 * The options of the programmatic API (or a test): an option is given when its key
 * holds a value; each given value goes through its declared parser, so typed values
 * (duration: 5000, sizes: [1, 2, 4]) and the CLI's text ('5s', '1,2,4') give the
 * same plan. Options already read (a PlanOptions) are returned as they are.
 * @param {Record<string, any>} options
 * @param {string} [command] whose per-command defaults apply
 * @returns {PlanOptions}
 * @throws {UsageError}
 */
export function readOptions(options, command = 'run') {
  if (options.given instanceof Set) return /** @type {PlanOptions} */ (options);
  const given = new Set(Object.keys(options).filter((name) => options[name] !== undefined));
  const values = {};
  for (const name of given) {
    const parse = OPTIONS[name]?.parse;
    values[name] = parse ? parse(options[name]) : options[name];
  }
  checkConflicts(given);
  return withDefaults(options, values, given, command);
}

/**
 * The options of a parsed commander command: commander parsed each given value
 * with its declared parser and checked .conflicts(); getOptionValueSource() says
 * which were given.
 * @param {import('commander').Command} cmd
 * @param {string} command
 * @returns {PlanOptions}
 */
export function cliOptions(cmd, command) {
  const values = cmd.opts();
  const given = new Set(Object.keys(values).filter((name) => ![undefined, 'default', 'implied'].includes(cmd.getOptionValueSource(name))));
  return withDefaults(values, values, given, command);
}

function withDefaults(raw, values, given, command) {
  const options = { ...raw };
  for (const name of Object.keys(OPTIONS)) {
    options[name] = given.has(name) ? values[name] : defaultOf(name, command);
  }
  return Object.assign(options, { given });
}

/** The same words as commander's .conflicts(), for options that did not come through commander. */
function checkConflicts(given) {
  for (const name of given) {
    const other = OPTIONS[name]?.conflicts?.find((c) => given.has(c));
    if (other) throw new UsageError(`option '${OPTIONS[name].flags}' cannot be used with option '${OPTIONS[other].flags}'`);
  }
}

/**
 * Options as a plan builder passes them on with some values set (compare's run of
 * one strategy and workload): `set` counts as given, `unset` as not given.
 * @param {PlanOptions} o
 * @param {Record<string, unknown>} set
 * @param {string[]} [unset]
 * @returns {PlanOptions}
 */
export function withOptions(o, set, unset = []) {
  const given = new Set([...o.given, ...Object.keys(set)]);
  for (const name of unset) given.delete(name);
  const unsetValues = Object.fromEntries(unset.map((name) => [name, undefined]));
  return { ...o, ...unsetValues, ...set, given };
}
