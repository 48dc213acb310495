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
 * Test files run PARALLEL at a time (one process each, node's --test-concurrency);
 * a file whose first lines hold the marker `test: run alone` runs after them, by
 * itself. A failure, a missing runtime or a run that executed no test makes the
 * command fail. The output ends with node's test runner summary lines for the totals
 * of all runs, which is what CI reads.
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';
import { fetchRuntime } from './helpers/runtimes.js';

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
 * Test files at a time (SPAWNBENCH_TEST_PARALLEL overrides it). End-to-end files wait on
 * servers more than they compute (at 3 files the suite's CPU time is ~1.5 cores of its wall
 * time), so 4 on 2 cores keeps both busier: `npm test` on the quiet machine 4:39 and 4:50 at 4
 * (both green), 5:05 at 3; with other work at nice 15, 5.4 min at 3 and 6.4 at 2. Files that
 * must not share the machine say so
 * (`test: run alone`); files that look for their own processes see only those they
 * started (test/helpers/processes.js tags them).
 */
export const PARALLEL = Number(process.env.SPAWNBENCH_TEST_PARALLEL) || 4;

/**
 * What `npm test` checks before the tests (both at once; a failure is named in this
 * order); one that fails ends the command (exit 1) before any test runs. Binaries from node_modules/.bin.
 */
const GATE = [
  { name: 'types', bin: 'tsc', args: ['--noEmit', '-p', 'tsconfig.json'] },
  { name: 'lint', bin: 'eslint', args: ['.'] },
];

/** The test runner's options, the same for every Node (20 accepts them all). */
// The timeout bounds a whole file's process on Node 20: a file of several end-to-end
// tests sharing the machine with another needs more than one test's 3 minutes.
const TEST_ARGS = ['--test', '--test-timeout=300000', '--test-reporter=spec'];

/**
 * Each file's wall time by itself (test/durations.json, written by --time-files): the
 * parallel files start longest first, so a long file does not start last and run on
 * alone while the other slot is idle. A file not in the table counts as UNTIMED_S.
 */
const DURATIONS = JSON.parse(readFileSync(join(ROOT, 'test', 'durations.json'), 'utf8')).seconds;
const UNTIMED_S = 10;

/**
 * Files in the order they should start: longest first, ties by name.
 * @param {string[]} files
 * @param {Record<string, number>} [seconds]
 */
export function longestFirst(files, seconds = DURATIONS) {
  const of = (file) => seconds[file] ?? UNTIMED_S;
  return [...files].sort((a, b) => of(b) - of(a) || (a < b ? -1 : 1));
}

/** The marker, in a file's first lines, of a file that must not share the machine with others. */
const ALONE = /^\/\/.*\btest: run alone\b/m;

/** Counters of the spec reporter's closing summary, in its order. */
const COUNTERS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];

/**
 * Test files of a set, relative to the repository, sorted: 'full' every file,
 * 'smoke' test/smoke, 'runtimes' the files with tests that skip without the runtime
 * cache (they call missingRuntime() of test/helpers/runtimes.js).
 */
export function testFiles(set) {
  if (set === 'smoke') return list('test/smoke');
  const top = list('test');
  const nested = readdirSync(join(ROOT, 'test'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
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
 * Reads the counters of the last closing summary in a spec reporter's output
 * ("ℹ tests 12" ... "ℹ duration_ms 345.6"); null when there is none.
 * @param {string} text
 */
export function parseSummary(text) {
  const found = {};
  for (const line of text.split('\n')) {
    const match = /^ℹ (\w+) ([\d.]+)\s*$/.exec(line.replace(/\x1b\[[\d;]*m/g, ''));
    if (!match) continue;
    if (match[1] === 'tests') for (const key of Object.keys(found)) delete found[key];
    found[match[1]] = Number(match[2]);
  }
  return 'tests' in found && 'pass' in found && 'fail' in found ? found : null;
}

/** Adds summaries counter by counter (null when none of them is there). */
function addSummaries(summaries) {
  const present = summaries.filter(Boolean);
  if (present.length === 0) return null;
  const total = {};
  for (const key of [...COUNTERS, 'duration_ms']) total[key] = present.reduce((sum, s) => sum + (s[key] ?? 0), 0);
  return total;
}

/** Runs test files on one Node, its output passed through (not with quiet); resolves to { code, summary }. */
function runFiles(node, files, concurrency, { quiet = false } = {}) {
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(node, [...TEST_ARGS, `--test-concurrency=${concurrency}`, ...files], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let tail = '';
  child.stdout.on('data', (chunk) => {
    if (!quiet) process.stdout.write(chunk);
    // The summary is the last ~10 lines; keep a bounded tail, not the whole output.
    tail = (tail + chunk.toString()).slice(-8192);
  });
  // Ctrl-C reaches the whole foreground group; SIGTERM to this script is passed on.
  const forward = () => child.kill('SIGTERM');
  process.once('SIGTERM', forward);
  return new Promise((resolve) => {
    child.on('error', (error) => resolve({ code: 1, summary: null, error: error.message }));
    child.on('close', (code, signal) => {
      process.off('SIGTERM', forward);
      resolve({ code: code ?? (signal ? 1 : 0), summary: parseSummary(tail) });
    });
  });
}

/** One set on one Node: the parallel files, then the ones that run alone. */
async function runSet(node, set) {
  const files = testFiles(set);
  const alone = files.filter(runsAlone);
  const parallel = longestFirst(files.filter((file) => !alone.includes(file)));
  const parts = [];
  if (parallel.length > 0) parts.push(await runFiles(node, parallel, PARALLEL));
  if (alone.length > 0) parts.push(await runFiles(node, alone, 1));
  const failedPart = parts.find((part) => part.code !== 0 || !part.summary);
  return { code: failedPart ? (failedPart.code || 1) : 0, summary: addSummaries(parts.map((part) => part.summary)), error: failedPart?.error };
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
  const runs = GATE.map((step) => new Promise((resolve) => {
    const child = spawn(join(ROOT, 'node_modules', '.bin', step.bin), step.args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('error', (error) => resolve({ step, code: 1, output: `${step.bin}: ${error.message} (run 'npm ci')\n`, seconds: 0 }));
    child.on('close', (exit, signal) => resolve({ step, code: exit ?? (signal ? 1 : 0), output, seconds: (Date.now() - started) / 1000 }));
  }));
  let failed = null;
  for (const { step, code, output, seconds } of await Promise.all(runs)) {
    console.log(`\n═══ ${step.name}: ${step.bin} ${step.args.join(' ')} ═══\n`);
    if (output) process.stdout.write(output);
    console.log(`${step.name}: ${code === 0 ? 'ok' : 'FAILED'} in ${Math.round(seconds)} s`);
    if (code !== 0) failed ??= step.name;
  }
  return failed;
}

/**
 * --time-files: every file of the full set run by itself on this Node, two at a time
 * (the alone files one at a time), its wall time written to test/durations.json.
 */
async function timeFiles() {
  const files = testFiles('full');
  const seconds = {};
  const queue = files.filter((file) => !runsAlone(file));
  const one = async (file) => {
    const started = Date.now();
    const { code } = await runFiles(process.execPath, [file], 1, { quiet: true });
    seconds[file] = Math.round((Date.now() - started) / 100) / 10;
    console.log(`${code === 0 ? 'ok    ' : 'FAILED'} ${seconds[file].toFixed(1).padStart(6)} s  ${file}`);
  };
  const slot = async () => {
    while (queue.length > 0) await one(queue.shift());
  };
  await Promise.all(Array.from({ length: 2 }, slot));
  for (const file of files.filter(runsAlone)) await one(file);
  const sorted = Object.fromEntries(Object.keys(seconds).sort().map((file) => [file, seconds[file]]));
  const about = JSON.parse(readFileSync(join(ROOT, 'test', 'durations.json'), 'utf8')).about;
  writeFileSync(join(ROOT, 'test', 'durations.json'), `${JSON.stringify({ about, seconds: sorted }, null, 1)}\n`);
  console.log(`test/durations.json: ${files.length} files, ${Math.round(Object.values(seconds).reduce((a, b) => a + b, 0))} s in all`);
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv.includes('--time-files')) return timeFiles();
  const runs = selectRuns(argv);
  const results = [];
  if (argv.length === 0) {
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
    const outcome = await runSet(node, run.set);
    results.push({ run, version, seconds: (Date.now() - started) / 1000, ...outcome });
  }
  const failed = results.filter((r) => r.code !== 0 || !r.summary || r.summary.fail > 0 || r.summary.tests === 0);
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
  process.exitCode = failed.length > 0 ? 1 : 0;
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
