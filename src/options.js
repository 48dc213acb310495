/**
 * Every command-line option, once, grouped so that commands pick the groups they
 * take (no option block pasted per command). Values are parsed and checked in
 * run-plan.js, where the defaults named here are applied.
 */
import { Option } from 'commander';
import { DEFAULTS, BALANCE_POLICIES, defaultPoolSize } from './run-plan.js';
import { WORKLOAD_NAMES } from './workloads.js';
import { defaultSizes, TUNE_DEFAULTS, SEARCH_MODES } from './tune/tune-plan.js';
import { COMPARE_DEFAULTS } from './thresholds.js';
import { ownCpuBudget } from './cpu-budget.js';
import { cpuBudgetLabel } from './labels.js';

const collect = (value, previous = []) => [...previous, value];

/** @type {Record<string, (defaults: {duration?: string, warmup?: string, perStep?: boolean}) => Option[]>} */
export const OPTION_GROUPS = {
  strategy: () => [new Option('-s, --strategy <name>', 'strategy to boot (default: fork-pool; see spawnbench list)')],
  workload: () => [
    new Option('--workload <name>', `what each request runs: ${WORKLOAD_NAMES.join(' | ')} (default: echo)`),
    new Option('--workload-cmd <command>', 'run this command per request instead, split into argv without a shell, e.g. "printf hello"'),
  ],
  runtime: () => [
    new Option('--runtime <runtime>', `runtime of the strategy's main process: node, bun, deno or a path (default: ${DEFAULTS.runtime})`),
    new Option('--worker-runtime <runtime>', "runtime of forked pool workers: node, bun, deno or a path (default: the main process's runtime)"),
    new Option('--seed <n>', `seed for the random and p2c balancers (default: ${DEFAULTS.seed})`),
    new Option('--ready-timeout <time>', `how long the server may take to start listening (default: ${DEFAULTS.readyTimeout})`),
  ],
  pool: () => [
    new Option('-p, --pool-size <n>', `workers in a pool strategy (default: one per CPU of the budget, ${defaultPoolSize()} here: ${cpuBudgetLabel({ cpu: ownCpuBudget() })}); for your own server, its size through --size-env or {size}`),
    new Option('-b, --balance <policy>', `how a pool picks a worker: ${BALANCE_POLICIES.join(' | ')} (default: ${DEFAULTS.balance})`),
  ],
  url: () => [
    new Option('--url <url>', 'drive a server that is already running instead of booting a strategy (http:// or https://)'),
    new Option('--insecure', 'with an https --url: accept a certificate that does not verify (self-signed)'),
  ],
  load: (defaults) => [
    new Option('-c, --connections <n>', `keep-alive connections (default: ${DEFAULTS.connections})`),
    new Option('-d, --duration <time>', `measured time${defaults.perStep ? ' of each run' : ''}, e.g. 500ms, 10s, 1m (default: ${defaults.duration ?? DEFAULTS.duration})`),
    new Option('-n, --requests <n>', 'measure this many requests instead of a duration'),
    new Option('-w, --warmup <time>', `warm-up before measuring${defaults.perStep ? ', before each run' : ''}, not counted (default: ${defaults.warmup ?? DEFAULTS.warmup})`),
    new Option('-r, --rate <rps>', 'open loop: send at this constant rate, latency timed from when each request was due (at most 1000000)'),
    new Option('--timeout <time>', `per-request timeout (default: ${DEFAULTS.timeout})`),
    new Option('--method <method>', `HTTP method (default: ${DEFAULTS.method})`),
    new Option('-H, --header <name:value>', 'request header, repeatable').argParser(collect),
    new Option('--body <text>', 'request body'),
    new Option('--no-verify', 'do not compare response bodies with the workload\'s expected bytes'),
    new Option('--generator-threads <n>', `load generator worker threads, at most one per CPU of the budget (default: ${DEFAULTS.generatorThreads})`),
  ],
  output: () => [
    new Option('--json', 'print one JSON document on stdout instead of the summary'),
    new Option('--no-dashboard', 'no live dashboard; progress lines on stderr'),
    new Option('--out <file>', 'also write the result as JSON to this file (read it back with spawnbench report)'),
    new Option('--log-file <path>', 'log the run (options, strategy output, errors) to this file'),
    new Option('--no-probe', 'do not inject the in-process probe into the server'),
    new Option('--sample-interval <time>', `probe and sampler interval, 100ms to 1s (default: ${DEFAULTS.sampleInterval})`),
    new Option('--debug', 'show stack traces'),
  ],
  assert: () => [
    new Option('--assert <expr>', "fail (exit 3) unless it holds: p50|p90|p99|p999|max<50ms, rps>=800, errors=0, errors<=1%, blocked-in-spawn<30%, elu<0.9, rps-change>-5% (with --against); repeatable").argParser(collect),
  ],
  against: () => [
    new Option('--against <old.json>', 'compare with a result saved by --out: rps, percentiles and errors, each marked as a change only beyond the noise'),
  ],
  html: () => [
    new Option('--html <file>', 'also write a self-contained HTML report (charts, tables; no network needed) to this file'),
  ],
  tune: () => [
    new Option('--sizes <list>', `pool sizes to measure, e.g. 1,2,4,8 (default: ${defaultSizes().join(',')} here: 1 to 2 × the CPU budget's workers)`),
    new Option('--balance-policies <list>', `policies to measure, from ${BALANCE_POLICIES.join(', ')} (default: all that the strategy supports); for your own server, the values it understands`),
    new Option('--repeat <n>', `measure each step this many times, interleaved; the median is used, the spread shown (default: ${TUNE_DEFAULTS.repeat}; each step ${TUNE_DEFAULTS.duration} after ${TUNE_DEFAULTS.warmup} warm-up unless --duration/--warmup say otherwise)`),
    new Option('--search <mode>', `${SEARCH_MODES.join(' | ')}: every size × policy, or coarse-to-fine over sizes then the other policies at the chosen size (default: ${TUNE_DEFAULTS.search})`),
  ],
  compare: () => [
    new Option('--strategies <list>', 'strategies to compare, the first is the yardstick, e.g. baseline,cluster,fork-pool (default: all, see spawnbench list)'),
    new Option('--workloads <list>', `workloads to run each on: ${WORKLOAD_NAMES.join(', ')} (default: ${COMPARE_DEFAULTS.workloads})`),
    new Option('--repeat <n>', `run each this many times, interleaved; the median is used, the spread shown (default: ${COMPARE_DEFAULTS.repeat}; each ${COMPARE_DEFAULTS.duration} after ${COMPARE_DEFAULTS.warmup} warm-up unless --duration/--warmup say otherwise)`),
    new Option('--command <name=command line>', 'also compare your own server: a name, =, and the command that starts it, split into argv without a shell, e.g. mine="node server.js"; repeatable').argParser(collect),
    new Option('--markdown', 'print the table as Markdown'),
  ],
  server: () => [
    new Option('--port <n>', 'the port your server listens on when it ignores PORT (default: a free port, given to it as PORT)'),
    new Option('--path <path>', 'request path, e.g. /api/items (default: /)'),
  ],
  sizeEnv: () => [
    new Option('--size-env <name>', 'your server reads its size from this environment variable, e.g. WEB_CONCURRENCY, WORKERS, UV_THREADPOOL_SIZE (or put {size} in its arguments)'),
  ],
  knobs: () => [
    ...OPTION_GROUPS.sizeEnv(),
    new Option('--policy-env <name>', 'your server reads its balancing policy from this environment variable (or put {policy} in its arguments); the values come from --balance-policies'),
  ],
  diagnose: () => [
    ...OPTION_GROUPS.server(),
    new Option('--ready-timeout <time>', `how long the server may take to accept connections (default: ${DEFAULTS.readyTimeout})`),
    new Option('--cpu-prof', 'profile the server\'s Node processes; print where the .cpuprofile is and the top 10 functions by self time'),
    new Option('--cpu-prof-dir <dir>', 'folder for the .cpuprofile files (implies --cpu-prof; default: a new folder in the temp dir)'),
    new Option('--pid <pid>', 'with --url: the server\'s process id, to read its CPU from /proc'),
  ],
};

/**
 * Adds the named option groups to a commander command.
 * @param {import('commander').Command} command
 * @param {string[]} groups
 * @param {{duration?: string, warmup?: string, perStep?: boolean}} [defaults] a command's own load defaults, for --help
 */
export function addOptionGroups(command, groups, defaults = {}) {
  for (const group of groups) {
    for (const option of OPTION_GROUPS[group](defaults)) command.addOption(option);
  }
  return command;
}
