/**
 * The test suite, on one Node or on the matrix of Nodes and runtimes spawnbench supports.
 *
 *   npm test                node test/matrix.js: the gate (GATE below: types, lint), then the
 *                           full suite on the Node that runs this script (the
 *                           machine's), test files in parallel
 *   npm run test:matrix     node test/matrix.js --matrix: the full suite on Node 26, the
 *                           smoke set (test/smoke/) on Node 22 and 24, and the files that
 *                           need Bun, Deno or Node 26 (they call missingRuntime())
 *                           on the machine's Node with those runtimes present
 *   node test/matrix.js --node 26,runtimes   only those runs (names below)
 *   node test/matrix.js --time-files         each file by itself, its wall time into
 *                                           test/durations.json (the order files start in)
 *
 * The extra Nodes, Bun and Deno are fetched on demand into a cache
 * (test/helpers/runtimes.js), not installed as devDependencies. Each run puts its
 * Node's directory first in PATH, so anything a test starts by name runs on the same
 * Node as the test (spawnbench itself starts strategies with process.execPath).
 *
 * Each test file runs in a process of its own (`node --test-reporter=spec <file>`,
 * node's test runner inside the file), several at once, the longest first, as many
 * as their measured CPU use fits in CORE_BUDGET (test/durations.json, below); its
 * output is printed whole when it ends. A file whose first lines hold the marker
 * `test: run alone` runs after them, by itself. A failure, a file that exits
 * non-zero or is stopped after FILE_TIMEOUT_MS, a missing runtime or a run that
 * executed no test makes the command fail. The output ends with node's test runner
 * summary lines for the totals of all runs, which is what CI reads.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchRuntime } from './helpers/runtimes.js';
import { COUNTERS } from './helpers/totals-reporter.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Which Node runs which set. `this` is the Node running the script; the others are
 * runtimes of test/helpers/runtimes.js. `needs` is fetched before the run starts.
 */
const RUNS = [
  { name: 'this', node: 'this', set: 'full', needs: [] },
  { name: '26', node: 'node26', set: 'full', needs: ['node26', 'bun', 'deno'] },
  { name: '22', node: 'node22', set: 'smoke', needs: ['node22'] },
  { name: '24', node: 'node24', set: 'smoke', needs: ['node24'] },
  { name: 'runtimes', node: 'this', set: 'runtimes', needs: ['node26', 'bun', 'deno'] },
];
const DEFAULT_RUNS = ['this'];
const MATRIX_RUNS = ['26', '22', '24', 'runtimes'];

/**
 * How many test files run at once. A file's load is its CPU-seconds over its wall
 * seconds when it ran by itself (test/durations.json): 0.2–0.4 for a file that mostly
 * waits on servers, grace periods and timers, 1–1.5 for one that loads a pool. Files
 * start, longest first, while the loads of the running ones add up to at most
 * CORE_BUDGET (SPAWNBENCH_TEST_CORES overrides it) and fewer than MAX_FILES run
 * (SPAWNBENCH_TEST_PARALLEL overrides it); a file that does not fit lets a lighter one
 * further down the list start. The budget is above the 2 cores because a file's
 * figure was measured beside another one (some of its time is the other's) and because
 * the waits of files that share the cores overlap: with a fixed 4 files at a time
 * (before this scheduler), the suite kept ~1.6 of the 2 cores busy, 4:05–4:28 in all. At a
 * budget of 3 and 6 files, fresh-clone CI runs met a load-sensitive end-to-end failure in two runs
 * of three (a cluster's workers not sampled, a generator thread started late): 2.5 and 5, as the
 * matrix's, trade some seconds for fewer of them.
 * Files that must not share the machine say so (`test: run alone`); files that look
 * for their own processes see only those they started (test/helpers/processes.js
 * tags them).
 */
export const CORE_BUDGET = Number(process.env.SPAWNBENCH_TEST_CORES) || 2.5;
export const MAX_FILES = Number(process.env.SPAWNBENCH_TEST_PARALLEL) || 5;
/**
 * The matrix (`--matrix`, `--node` other than this) runs fewer files at once: its time has
 * room under CI's 15 minutes, and its Node 26 full run met timing flakes of end-to-end files
 * at 6 at once that it did not meet at 4 (fresh-clone CI, this machine).
 */
const MATRIX_LIMITS = { budget: Math.min(CORE_BUDGET, 2.5), maxFiles: Math.min(MAX_FILES, 4) };

/**
 * What `npm test` checks before the tests (both at once; a failure is named in this
 * order): package.json's `typecheck` and `lint` scripts, which a contributor runs by
 * themselves as `npm run typecheck` and `npm run lint`. One that fails ends the command
 * (exit 1) before any test runs. Run as the scripts' commands with node_modules/.bin
 * first in PATH, as npm runs them, without npm's own start (~0.3 s each).
 */
const SCRIPTS = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts;
const GATE = ['typecheck', 'lint'].map((name) => ({ name, command: SCRIPTS[name] }));

/**
 * How each file runs: node's test runner inside the file, with two reporters: the spec
 * reporter on stdout, for people, and test/helpers/totals-reporter.js into a file of
 * its own, one JSON line of the file's totals counted from the runner's events, which
 * this script adds up (no reading of the spec reporter's text). A file
 * runs directly rather than under `node --test`, whose runner is one more process and
 * starts files only a fixed number at a time; a direct run has no --test-timeout, so a
 * file that has not ended after FILE_TIMEOUT_MS is stopped (SIGTERM, then SIGKILL) and
 * fails: the same bound `--test-timeout=300000` put on each test.
 */
const TOTALS_REPORTER = join(ROOT, 'test', 'helpers', 'totals-reporter.js');
const fileArgs = (totalsFile) => [
  '--test-reporter=spec', '--test-reporter-destination=stdout',
  `--test-reporter=${TOTALS_REPORTER}`, `--test-reporter-destination=${totalsFile}`,
];
const FILE_TIMEOUT_MS = 300_000;
const KILL_AFTER_MS = 5_000;

/**
 * Each file's wall seconds and CPU-seconds by itself (test/durations.json, written by
 * --time-files): the longest start first, so that a long file does not start last and
 * run on alone while a core is idle; their ratio is the file's load. A file not in the
 * table counts as UNTIMED_S seconds at a load of UNTIMED_LOAD.
 */
const TIMES = JSON.parse(readFileSync(join(ROOT, 'test', 'durations.json'), 'utf8'));
const DURATIONS = TIMES.seconds;
const CPU_SECONDS = TIMES.cpu ?? {};
const UNTIMED_S = 10;
const UNTIMED_LOAD = 1;

/**
 * Files in the order they should start: longest first, ties by name.
 * @param {string[]} files
 * @param {Record<string, number>} [seconds]
 */
export function longestFirst(files, seconds = DURATIONS) {
  const of = (file) => seconds[file] ?? UNTIMED_S;
  return [...files].sort((a, b) => of(b) - of(a) || (a < b ? -1 : 1));
}

/**
 * A file's load: the cores it kept busy by itself (CPU-seconds over wall seconds).
 * @param {string} file
 * @param {{ seconds?: Record<string, number>, cpu?: Record<string, number> }} [times]
 */
export function loadOf(file, { seconds = DURATIONS, cpu = CPU_SECONDS } = {}) {
  if (!(file in seconds) || !(file in cpu) || !(seconds[file] > 0)) return UNTIMED_LOAD;
  return cpu[file] / seconds[file];
}

/**
 * The next file to start from a queue in start order, given the loads of those
 * running: the first that fits in the budget; with none running, the first.
 * @param {string[]} queue
 * @param {number[]} running loads of the files running
 * @param {{ budget: number, maxFiles: number, load?: (file: string) => number }} limits
 * @returns {string|null}
 */
export function nextToStart(queue, running, { budget, maxFiles, load = loadOf }) {
  if (queue.length === 0 || running.length >= maxFiles) return null;
  if (running.length === 0) return queue[0];
  const used = running.reduce((sum, x) => sum + x, 0);
  return queue.find((file) => used + load(file) <= budget) ?? null;
}

/** The marker, in a file's first lines, of a file that must not share the machine with others. */
const ALONE = /^\/\/.*\btest: run alone\b/m;

/**
 * Test files of a set, relative to the repository, sorted: 'full' every file but the
 * smoke set's (each of its cases is a short copy of what the full set tests at length:
 * every strategy, the probe's figures, tune, compare, diagnose, the dashboard; it ran
 * 27 s of a 4:54 npm test), 'smoke' test/smoke, 'runtimes' the files with tests that
 * skip without the runtime cache (they call missingRuntime() of test/helpers/runtimes.js).
 */
export function testFiles(set) {
  if (set === 'smoke') return list('test/smoke');
  const top = list('test');
  const nested = readdirSync(join(ROOT, 'test'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== 'smoke')
    .map((entry) => entry.name)
    .sort()
    .flatMap((dir) => list(`test/${dir}`));
  const all = [...top, ...nested];
  if (set === 'runtimes') return all.filter((file) => /\bmissingRuntime\(/.test(read(file)));
  return all;
}

function list(dir) {
  return readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith('.test.js'))
    .sort()
    .map((name) => `${dir}/${name}`);
}

const read = (file) => readFileSync(join(ROOT, file), 'utf8');

/** Whether a test file is marked to run by itself. */
export const runsAlone = (file) => ALONE.test(read(file).split('\n').slice(0, 15).join('\n'));

/**
 * The executable of a Node: 'this' (the machine's) or a major (fetched into the
 * runtime cache when missing).
 * @param {string} name 'this' | '22' | '24' | '26'
 */
export function nodePath(name) {
  if (name !== 'this') return fetchRuntime(`node${name}`);
  return process.execPath;
}

/**
 * The totals a file's run wrote (totals-reporter.js: one JSON line when the runner
 * ends); null when there are none: the file crashed, was stopped or ran no runner.
 * @param {string} text the reporter's file
 */
export function parseTotals(text) {
  const line = text.trim().split('\n').pop() ?? '';
  try {
    const totals = JSON.parse(line);
    return COUNTERS.every((key) => Number.isInteger(totals[key])) ? totals : null;
  } catch {
    return null;
  }
}

/** Adds summaries counter by counter (null when none of them is there). */
function addSummaries(summaries) {
  const present = summaries.filter(Boolean);
  if (present.length === 0) return null;
  const total = {};
  for (const key of [...COUNTERS, 'duration_ms']) total[key] = present.reduce((sum, s) => sum + (s[key] ?? 0), 0);
  return total;
}

/**
 * Runs one test file in its own process on a Node; resolves to { code, summary, output,
 * seconds, cpuSeconds }: its whole output (stdout then stderr), the summary read from
 * it, its wall time and, with `cpu`, the CPU time of the file and of the processes it
 * waited for (bash's `times` after it; only --time-files asks).
 * @param {string} node
 * @param {string} file
 * @param {{ cpu?: boolean }} [options]
 */
function runFile(node, file, { cpu = false } = {}) {
  const env = testEnv(node, file);
  const totalsDir = mkdtempSync(join(tmpdir(), 'spawnbench-test-totals-'));
  const totalsFile = join(totalsDir, 'totals.jsonl');
  const args = [...fileArgs(totalsFile), file];
  const child = cpu
    ? spawn('bash', ['-c', '"$0" "$@"; code=$?; times >&3; exit $code', node, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe', 'pipe'] })
    : spawn(node, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  running.add(child);
  const started = Date.now();
  let stdout = '';
  let stderr = '';
  let times = '';
  child.stdout?.on('data', (chunk) => { stdout += chunk; });
  child.stderr?.on('data', (chunk) => { stderr += chunk; });
  child.stdio[3]?.on('data', (chunk) => { times += chunk; });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), KILL_AFTER_MS).unref();
  }, FILE_TIMEOUT_MS);
  return new Promise((resolve) => {
    const done = (code, note) => {
      clearTimeout(timer);
      running.delete(child);
      const output = `${stdout}${stderr}${note ? `${note}\n` : ''}`;
      let totals = '';
      try { totals = readFileSync(totalsFile, 'utf8'); } catch {}
      rmSync(totalsDir, { recursive: true, force: true });
      resolve({ code, summary: parseTotals(totals), output, seconds: (Date.now() - started) / 1000, cpuSeconds: cpu ? childrenCpu(times) : null });
    };
    child.on('error', (error) => done(1, `${file}: ${error.message}`));
    child.on('close', (code, signal) => {
      if (timedOut) done(1, `✖ ${file}: stopped after ${FILE_TIMEOUT_MS / 1000} s (the test files' time limit)`);
      else done(code ?? (signal ? 1 : 0), signal ? `✖ ${file}: ended by ${signal}` : null);
    });
  });
}

/**
 * The environment of a test file: this script's, with the Node's directory first in PATH
 * and without NODE_EXTRA_CA_CERTS. With that variable set, Node 20 reads and parses the
 * CA bundle it names as every process starts, before any JavaScript runs: `node -e 0`
 * takes 113 ms instead of 41 on the 2-core machine, whose environment sets it to the
 * system bundle (hyperfine, 40 runs). A test file starts several Node processes (its
 * servers, spawnbench, pool workers: over 400 in a run of the suite), and talks only to loopback servers
 * (https tests trust their own certificate), so the suite runs without it: 3:39 instead
 * of 3:59–4:17, ~50 CPU-s less.
 * @param {string} node
 * @param {string} [file] the test file the process runs: its tag for test/helpers/processes.js
 */
function testEnv(node, file) {
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  delete env.NODE_EXTRA_CA_CERTS;
  // The file's tag (test/helpers/processes.js) from its first process on: every process it starts carries
  // it, whether or not the file imports the helpers, so another file's check for left-over processes of a
  // shared fixture does not take this file's running ones for its own.
  // (Under --node-test, each file's process sets its own: node --test starts them.)
  if (file) env.SPAWNBENCH_TEST_FILE = file;
  else delete env.SPAWNBENCH_TEST_FILE;
  return env;
}

/** The file processes running, stopped if this script gets SIGTERM (Ctrl-C reaches them with the foreground group). */
const running = new Set();
let stopping = false;
process.on('SIGTERM', () => {
  stopping = true;
  for (const child of running) child.kill('SIGTERM');
});

/** The children's user + system seconds from bash's `times` (its second line: "0m1.250s 0m0.310s"). */
function childrenCpu(text) {
  const line = text.trim().split('\n')[1] ?? '';
  const seconds = [...line.matchAll(/(\d+)m([\d.]+)s/g)].map((m) => Number(m[1]) * 60 + Number(m[2]));
  return seconds.length === 2 ? seconds[0] + seconds[1] : null;
}

/**
 * Runs files on one Node, as many at once as nextToStart() lets, each one's output
 * printed whole when it ends; resolves to { code, summary } for them all. A file that
 * ends non-zero without a failing test in its summary (it crashed, was stopped, or
 * printed none) counts as one failed test.
 * @param {string} node
 * @param {string[]} files in start order
 * @param {{ budget: number, maxFiles: number }} limits
 */
async function runFiles(node, files, limits) {
  const queue = [...files];
  const loads = new Map();
  const results = [];
  let wake = () => {};
  const start = (file) => {
    queue.splice(queue.indexOf(file), 1);
    const started = runFile(node, file);
    loads.set(started, loadOf(file));
    started.then((result) => {
      loads.delete(started);
      process.stdout.write(`\n── ${file} (${result.seconds.toFixed(1)} s) ──\n${result.output}`);
      results.push({ file, ...result });
      wake();
    });
  };
  while (queue.length > 0 || loads.size > 0) {
    if (stopping) queue.length = 0;
    let file;
    while ((file = nextToStart(queue, [...loads.values()], limits)) !== null) start(file);
    await new Promise((resolve) => { wake = resolve; });
  }
  const summary = addSummaries(results.map((result) => fileSummary(result)));
  const failed = results.filter((result) => result.code !== 0);
  return { code: failed.length > 0 ? 1 : 0, summary, failures: failed.map(({ file, output }) => ({ file, text: failureText(output) })) };
}

/** Most lines of a failed file's output said again at the end of the run. */
const FAILURE_LINES = 40;

/**
 * What a failed file said of its failures, to say again at the end of the run, where a reader
 * of the log's last lines (CI) sees it: node's "failing tests" section, or else the output's
 * last lines (a crash, a stop); at most FAILURE_LINES lines.
 * @param {string} output
 */
export function failureText(output) {
  const at = output.lastIndexOf('✖ failing tests:');
  const lines = (at === -1 ? output : output.slice(at)).trimEnd().split('\n');
  if (lines.length <= FAILURE_LINES) return lines.join('\n');
  const more = `… ${lines.length - FAILURE_LINES} more lines in the file's section above`;
  return (at === -1 ? [more, ...lines.slice(-FAILURE_LINES)] : [...lines.slice(0, FAILURE_LINES), more]).join('\n');
}

/** A file's summary, with one failed test more when it failed without one (crash, stop, no summary). */
export function fileSummary({ code, summary }) {
  const counted = summary ?? Object.fromEntries([...COUNTERS, 'duration_ms'].map((key) => [key, 0]));
  if (code === 0 || counted.fail > 0) return counted;
  return { ...counted, tests: counted.tests + 1, fail: counted.fail + 1 };
}

/**
 * One set on one Node: the files that may share the machine, then the ones that run alone.
 * @param {string} node
 * @param {string} set
 * @param {{ budget: number, maxFiles: number }} limits
 */
async function runSet(node, set, limits) {
  const files = testFiles(set);
  const alone = files.filter(runsAlone);
  const shared = longestFirst(files.filter((file) => !alone.includes(file)));
  const parts = [];
  const run = NODE_RUNNER ? runWithNodeTest : runFiles;
  if (shared.length > 0) parts.push(await run(node, shared, limits));
  if (alone.length > 0) {
    await settle();
    parts.push(await run(node, alone, { budget: 0, maxFiles: 1 }));
  }
  const failedPart = parts.find((part) => part.code !== 0 || !part.summary);
  return { code: failedPart ? 1 : 0, summary: addSummaries(parts.map((part) => part.summary)), failures: parts.flatMap((part) => part.failures ?? []) };
}

/** Most the run-alone files wait for the machine to quiet after the shared ones, ms. */
const SETTLE_MAX_MS = 30_000;
/** Cores busy below which the machine is quiet: the run-alone files read every other process's CPU. */
const QUIET_CORES = 0.15;
/** One reading of how busy the machine is, ms. */
const SETTLE_WINDOW_MS = 500;

/**
 * Waits, before the run-alone files, until the machine's CPU is quiet (QUIET_CORES over a
 * SETTLE_WINDOW_MS), for at most SETTLE_MAX_MS: a process the shared files left ending (a
 * server stopping, a database shutting down) read as another program using the cores, and
 * a verdict that needs an idle core failed (a fresh-clone run read 0.3 to 1.0 cores of
 * others there). Says what was busy when it had to wait. Linux /proc only; elsewhere it returns at once.
 */
export async function settle() {
  const started = Date.now();
  /** pid → { comm, ticks } over the busy readings */
  const seen = new Map();
  const busiest = () => [...seen].sort((a, b) => b[1].ticks - a[1].ticks).slice(0, 5).map(([pid, p]) => `${p.comm} ${pid}`).join(', ');
  for (;;) {
    const before = { cpu: machineTicks(), procs: processTicks() };
    if (!before.cpu) return;
    await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
    const after = { cpu: machineTicks(), procs: processTicks() };
    const cores = ((after.cpu.busy - before.cpu.busy) / Math.max(1, after.cpu.total - before.cpu.total)) * after.cpu.count;
    if (cores < QUIET_CORES) break;
    for (const [pid, p] of before.procs) {
      const used = (after.procs.get(pid)?.ticks ?? p.ticks) - p.ticks;
      if (used > 0) seen.set(pid, { comm: p.comm, ticks: (seen.get(pid)?.ticks ?? 0) + used });
    }
    if (Date.now() - started >= SETTLE_MAX_MS) {
      console.log(`\nrun-alone files: the machine was still busy after ${SETTLE_MAX_MS / 1000} s (${cores.toFixed(2)} cores; the busiest: ${busiest()}); starting them anyway`);
      return;
    }
  }
  const waited = Date.now() - started;
  if (waited > SETTLE_WINDOW_MS * 1.5) console.log(`\nrun-alone files: waited ${(waited / 1000).toFixed(1)} s for the machine to quiet (the busiest meanwhile: ${busiest() || 'the kernel'})`);
}

/** /proc/stat's busy and total ticks of all CPUs (busy: a process's or the kernel's work), and how many there are; null without /proc. */
function machineTicks() {
  try {
    const lines = readFileSync('/proc/stat', 'utf8').split('\n');
    const [, ...fields] = lines[0].trim().split(/\s+/).map(Number);
    const total = fields.slice(0, 8).reduce((a, b) => a + b, 0);
    // Idle, I/O wait and steal (a hypervisor's other guests) are no process's work here.
    return { busy: total - fields[3] - fields[4] - fields[7], total, count: lines.filter((line) => /^cpu\d/.test(line)).length };
  } catch {
    return null;
  }
}

/** Each process's name and CPU ticks so far (user + system), from /proc. */
function processTicks() {
  const procs = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const text = readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(name), { comm: text.slice(text.indexOf('(') + 1, text.lastIndexOf(')')), ticks: Number(fields[11]) + Number(fields[12]) });
    } catch {
      // gone between readdir and read
    }
  }
  return procs;
}

/**
 * `--node-test`: the same files under `node --test`'s own runner instead of the CPU-weighted
 * scheduler above: `--test-concurrency` files at a time (the scheduler's most, MAX_FILES), its
 * `--test-timeout`, the same two reporters over all of them; the run-alone files after, one at a
 * time. Kept to measure the two side by side (`node test/matrix.js --node-test`), as the note on
 * the scheduler says.
 */
const NODE_RUNNER = process.argv.includes('--node-test');

/**
 * Runs files with `node --test`; resolves to { code, summary } as runFiles() does.
 * @param {string} node
 * @param {string[]} files
 * @param {{ maxFiles: number }} limits
 */
function runWithNodeTest(node, files, { maxFiles }) {
  const totalsDir = mkdtempSync(join(tmpdir(), 'spawnbench-test-totals-'));
  const totalsFile = join(totalsDir, 'totals.jsonl');
  const args = ['--test', `--test-concurrency=${maxFiles}`, `--test-timeout=${FILE_TIMEOUT_MS}`, ...fileArgs(totalsFile), ...files];
  const child = spawn(node, args, { cwd: ROOT, env: testEnv(node), stdio: ['ignore', 'inherit', 'inherit'] });
  running.add(child);
  return new Promise((resolve) => {
    child.on('close', (code) => {
      running.delete(child);
      let totals = '';
      try { totals = readFileSync(totalsFile, 'utf8'); } catch {}
      rmSync(totalsDir, { recursive: true, force: true });
      resolve({ code: code ?? 1, summary: parseTotals(totals) });
    });
  });
}

/** `--node this,26` → the runs named; `--matrix` → the matrix; neither → the machine's Node. */
function selectRuns(argv) {
  if (argv.includes('--matrix')) return RUNS.filter((run) => MATRIX_RUNS.includes(run.name));
  const index = argv.indexOf('--node');
  if (index === -1) return RUNS.filter((run) => DEFAULT_RUNS.includes(run.name));
  const names = (argv[index + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((name) => !RUNS.some((run) => run.name === name));
  if (names.length === 0 || unknown.length > 0) {
    console.error(`--node ${argv[index + 1] ?? ''}: use a comma-separated list of ${RUNS.map((run) => run.name).join(', ')}`);
    process.exit(2);
  }
  return RUNS.filter((run) => names.includes(run.name));
}

/**
 * Runs the gate's steps at once (two processes, one per core; ~10 s instead of ~16 one
 * after the other), each one's output printed whole when it ends, in GATE's order;
 * resolves to the name of the first in that order that failed, or null.
 */
async function runGate() {
  const started = Date.now();
  const env = { ...process.env, PATH: `${join(ROOT, 'node_modules', '.bin')}${delimiter}${process.env.PATH ?? ''}` };
  const runs = GATE.map((step) => new Promise((resolve) => {
    const child = spawn('sh', ['-c', step.command], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('error', (error) => resolve({ step, code: 1, output: `${step.command}: ${error.message} (run 'npm ci')\n`, seconds: 0 }));
    child.on('close', (exit, signal) => resolve({ step, code: exit ?? (signal ? 1 : 0), output, seconds: (Date.now() - started) / 1000 }));
  }));
  let failed = null;
  for (const { step, code, output, seconds } of await Promise.all(runs)) {
    console.log(`\n═══ ${step.name}: ${step.command} ═══\n`);
    if (output) process.stdout.write(output);
    console.log(`${step.name}: ${code === 0 ? 'ok' : 'FAILED'} in ${Math.round(seconds)} s`);
    if (code !== 0) failed ??= step.name;
  }
  return failed;
}

/**
 * --time-files: every file of the full set run by itself on this Node, two at a time
 * (the alone files one at a time), its wall seconds and CPU-seconds written to
 * test/durations.json.
 */
async function timeFiles() {
  const files = testFiles('full');
  const seconds = {};
  const cpu = {};
  const queue = files.filter((file) => !runsAlone(file));
  const one = async (file) => {
    const result = await runFile(process.execPath, file, { cpu: true });
    seconds[file] = Math.round(result.seconds * 10) / 10;
    cpu[file] = Math.round((result.cpuSeconds ?? 0) * 10) / 10;
    console.log(`${result.code === 0 ? 'ok    ' : 'FAILED'} ${seconds[file].toFixed(1).padStart(6)} s ${cpu[file].toFixed(1).padStart(6)} CPU-s  ${file}`);
  };
  const slot = async () => {
    while (queue.length > 0) await one(/** @type {string} */ (queue.shift()));
  };
  await Promise.all(Array.from({ length: 2 }, slot));
  for (const file of files.filter(runsAlone)) await one(file);
  const sorted = (table) => Object.fromEntries(Object.keys(table).sort().map((file) => [file, table[file]]));
  writeFileSync(join(ROOT, 'test', 'durations.json'), `${JSON.stringify({ about: TIMES.about, seconds: sorted(seconds), cpu: sorted(cpu) }, null, 1)}\n`);
  const total = (table) => Math.round(Object.values(table).reduce((a, b) => a + b, 0));
  console.log(`test/durations.json: ${files.length} files, ${total(seconds)} s and ${total(cpu)} CPU-s in all`);
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--time-files')) return timeFiles();
  const runs = selectRuns(argv);
  const results = [];
  if (argv.every((arg) => arg === '--node-test')) {
    const failedStep = await runGate();
    if (failedStep) {
      console.log(`\nspawnbench tests: not run, ${failedStep} failed`);
      process.exitCode = 1;
      return;
    }
  }
  for (const run of runs) {
    let node;
    try {
      for (const needed of run.needs) fetchRuntime(needed);
      node = run.node === 'this' ? process.execPath : fetchRuntime(run.node);
    } catch (error) {
      results.push({ run, version: null, code: 1, summary: null, error: error.message });
      console.error(`\n✖ run ${run.name}: ${error.message}`);
      continue;
    }
    const version = await nodeVersion(node);
    const what = { full: 'full suite', smoke: 'smoke set', runtimes: 'files that use Bun, Deno or Node 26' }[run.set];
    console.log(`\n═══ ${what} on Node ${version} (${node}) ═══\n`);
    const started = Date.now();
    const limits = run.name === 'this' ? { budget: CORE_BUDGET, maxFiles: MAX_FILES } : MATRIX_LIMITS;
    const outcome = await runSet(node, run.set, limits);
    results.push({ run, version, seconds: (Date.now() - started) / 1000, ...outcome });
  }
  const failed = results.filter((r) => r.code !== 0 || !r.summary || r.summary.fail > 0 || r.summary.tests === 0);
  // The failures again, just above the totals: the end of the log is what a CI reader sees first.
  for (const r of results) {
    for (const { file, text } of r.failures ?? []) console.log(`\n✖ ${file} on Node ${r.version ?? r.run.name}:\n${text}`);
  }
  console.log('\nspawnbench tests');
  for (const r of results) {
    const s = r.summary;
    const figures = s ? `${s.tests} tests, ${s.pass} pass, ${s.fail} fail, ${s.skipped} skipped` : (r.error ?? 'no summary (the runner did not finish)');
    const verdict = failed.includes(r) ? 'FAILED' : 'ok';
    const time = r.seconds ? ` in ${Math.round(r.seconds)} s` : '';
    console.log(`  Node ${r.version ?? r.run.name} ${r.run.set.padEnd(8)} ${verdict.padEnd(6)} ${figures}${time}`);
  }
  // The closing lines in node's own format, for all runs together: a reader of the
  // last summary (CI) sees the totals, and a failed or missing run as a failure.
  const total = Object.fromEntries(COUNTERS.map((key) => [key, 0]));
  for (const r of results) for (const key of COUNTERS) total[key] += r.summary?.[key] ?? 0;
  // A run that failed without a failing test (crashed, missing, ran nothing) counts as one failed test.
  const silent = results.filter((r) => failed.includes(r) && !(r.summary?.fail > 0)).length;
  total.tests += silent;
  total.fail += silent;
  for (const key of COUNTERS) console.log(`ℹ ${key} ${total[key]}`);
  console.log(`ℹ duration_ms ${results.reduce((sum, r) => sum + (r.summary?.duration_ms ?? 0), 0).toFixed(3)}`);
  process.exitCode = stopping ? 143 : failed.length > 0 ? 1 : 0;
}

function nodeVersion(node) {
  return new Promise((resolve) => {
    const child = spawn(node, ['-p', 'process.versions.node'], { stdio: ['ignore', 'pipe', 'ignore'] });
    let out = '';
    child.stdout.on('data', (d) => { out += d; });
    child.on('error', () => resolve('?'));
    child.on('close', () => resolve(out.trim() || '?'));
  });
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
