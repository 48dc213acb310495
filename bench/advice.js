#!/usr/bin/env node
/**
 * bench:advice: is the advice of `spawnbench run -- <command>` right on the servers
 * most people run? The truth is a sweep spawnbench did not make: for each server and
 * each size, the bench starts the server itself and measures it with wrk
 * (`wrk -t1 -c30 -d<duration> --timeout 10s`, after 1 s of warm-up on fresh
 * connections), rounds interleaved (1, 2, 3, 4, then again), the median per size.
 * Then it runs `spawnbench run --json -- <command>` as a user would (the server at its
 * default size, run's default duration) and reads its recommendation. MET when the
 * truth's throughput at the advised value is within 5% of its best (the rule of
 * src/analysis/run-vs-tune.js) and the advice names the kind of limit where one is
 * expected.
 *
 *   npm run bench:advice [-- --servers login,cpu-route --rounds 2 --duration 5]
 *
 * Servers (--servers, comma-separated; default the first four):
 *   login          crypto.pbkdf2 on libuv's threadpool (a bcrypt-like login API): UV_THREADPOOL_SIZE 1–4,
 *                  and 2 node:cluster processes beside them; the limit expected is the cores
 *   thumbnail      sharp (1600×1200 JPEG → 200 px) where sharp is installed, else zlib.gzip of 128 KB
 *                  (said in the output): UV_THREADPOOL_SIZE 1–4
 *   cpu-route      one Fastify process, ~13 ms of JavaScript per request (fixed work): 1, 2, 3 processes in node:cluster
 *                  (bench/cluster-of.js); the advice expected is more processes
 *   cluster-spawn  node:cluster, `echo` spawned per request, WORKERS 1–4
 *   fork-pool, comm-channel  the strategies: run --pool-size 1 and 4 against tune --sizes 1,2,3,4 (--repeat)
 *
 * Defaults (3 rounds of 5 s): 6.5 minutes for the four servers on a 2-vCPU machine that
 * other programs loaded (load average 10–20); `--rounds 1 --duration 2` is a 2-minute smoke run.
 * Every process it starts (servers in their own process groups, wrk, spawnbench) is
 * ended on every exit path, Ctrl-C included.
 */
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { loadavg, availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { startTarget } from '../src/runner/command-target.js';
import { runAgainstTune } from '../src/analysis/run-vs-tune.js';
import { parseWrk, summariseSize, advisedValue, judgeAdvice, noisySizes } from './advice-figures.js';

// Paths from the project's root, where the bench runs: the commands print as a user types them.
process.chdir(fileURLToPath(new URL('..', import.meta.url)));
const SPAWNBENCH = 'bin/spawnbench.js';
const CLUSTER_OF = 'bench/cluster-of.js';
const fixture = (name) => `fixtures/servers/${name}`;

const CONNECTIONS = 30;
const WARMUP_S = 1;
/** wrk's own timeout: a request slower than this is a socket error, not a response (its default, 2 s, cuts slow endpoints). */
const WRK_TIMEOUT = '10s';
const READY_TIMEOUT_MS = 30_000;
/** How long a spawnbench run is given to stop after Ctrl-C before its group is killed. */
const STOP_WAIT_MS = 15_000;

const OPTIONS = /** @type {const} */ ({
  servers: { type: 'string', default: 'login,thumbnail,cpu-route,cluster-spawn' },
  rounds: { type: 'string', default: '3' },
  duration: { type: 'string', default: '5' },
  'run-duration': { type: 'string' },
  repeat: { type: 'string', default: '3' },
});

function fail(message) {
  process.stderr.write(`bench:advice: ${message}\n`);
  process.exit(2);
}

const opts = parseOptions();
function parseOptions() {
  try {
    return parseArgs({ options: OPTIONS }).values;
  } catch (error) {
    return fail(`${error.message}; the options are ${Object.keys(OPTIONS).map((o) => `--${o}`).join(', ')}`);
  }
}

const seconds = (text, flag) => {
  const m = /^(\d+)s?$/.exec(text ?? '');
  if (!m || Number(m[1]) <= 0) fail(`${flag} takes whole seconds, e.g. ${flag} 5, not '${text}'`);
  return Number(m[1]);
};
const ROUNDS = Number(opts.rounds);
if (!Number.isInteger(ROUNDS) || ROUNDS < 1) fail(`--rounds takes a whole number ≥ 1, not '${opts.rounds}'`);
const DURATION_S = seconds(opts.duration, '--duration');
const RUN_ARGS = opts['run-duration'] === undefined ? [] : ['--duration', `${seconds(opts['run-duration'], '--run-duration')}s`];

// ── the servers ──────────────────────────────────────────────────────────────

const sizes = (name, values) => values.map((n) => ({ label: String(n), size: n, env: { [name]: String(n) } }));
const processes = (script, values) => values.map((n) => (n === 1 ? { label: '1', size: 1 } : { label: String(n), size: n, processes: n, script }));

/** sharp resolves from the fixture's directory (installed, or on NODE_PATH): the thumbnail server is the real one. */
function sharpInstalled() {
  try {
    createRequire(resolve(fixture('thumbnail.js'))).resolve('sharp');
    return true;
  } catch {
    return false;
  }
}

const SHARP = sharpInstalled();
const skipped = [];
const SERVERS = {
  login: {
    title: 'login API: crypto.pbkdf2 (30,000 iterations) on the libuv threadpool',
    script: fixture('pbkdf2.js'),
    env: { ITERATIONS: '30000' },
    knob: 'UV_THREADPOOL_SIZE',
    truth: [...sizes('UV_THREADPOOL_SIZE', [1, 2, 3, 4]), { label: '2 processes', side: true, processes: 2, script: fixture('pbkdf2.js') }],
    advice: 'thread-knob',
    expect: { limit: 'cores' },
  },
  thumbnail: {
    title: SHARP ? 'thumbnail API: sharp, 1600×1200 JPEG → 200 px' : 'thumbnail stand-in: zlib.gzip of 128 KB on the libuv threadpool (sharp not installed)',
    script: fixture(SHARP ? 'thumbnail.js' : 'gzip.js'),
    env: {},
    knob: 'UV_THREADPOOL_SIZE',
    truth: sizes('UV_THREADPOOL_SIZE', [1, 2, 3, 4]),
    advice: 'thread-knob',
    expect: {},
  },
  'cpu-route': {
    // A fixed amount of work per request (Fastify, chained hashes), not a loop that burns until a
    // clock says 13 ms: under contention such a loop uses less CPU, and 3 processes on 2 cores served
    // 196 req/s against 142 for 2, a gain no real route would show.
    title: 'one Fastify process, ~13 ms of JavaScript per request',
    script: fixture('fastify-cpu-route.cjs'),
    env: {},
    knob: 'processes (node:cluster)',
    truth: processes(fixture('fastify-cpu-route.cjs'), [1, 2, 3]),
    advice: 'processes',
    expect: { reason: 'more-processes' },
  },
  'cluster-spawn': {
    title: 'node:cluster, `echo` spawned per request',
    script: fixture('cluster-env.js'),
    env: {},
    runEnv: { WORKERS: '2' },
    knob: 'WORKERS',
    truth: sizes('WORKERS', [1, 2, 3, 4]),
    advice: 'workers',
    expect: {},
  },
};
const STRATEGIES = ['fork-pool', 'comm-channel'];

const chosen = opts.servers.split(',').map((s) => s.trim()).filter(Boolean);
for (const name of chosen) {
  if (!(name in SERVERS) && !STRATEGIES.includes(name)) fail(`unknown server '${name}': choose from ${[...Object.keys(SERVERS), ...STRATEGIES].join(', ')}`);
}
if (chosen.includes('thumbnail') && !SHARP) skipped.push('sharp: not installed (npm install sharp, or put it on NODE_PATH), so the thumbnail server is the zlib.gzip stand-in');

const WRK = spawnSync('wrk', ['--version']).error ? null : 'wrk';
if (!WRK) skipped.push('wrk: not found, so the truth is measured with autocannon (same connections and duration)');

// ── every process started, ended on every exit path ──────────────────────────

/** @type {Map<number, { kind: 'group'|'child', stop: () => Promise<unknown>, kill: () => void }>} */
const live = new Map();
/** One AbortController per server start (the runner keeps a listener on the signal it is given): all aborted on Ctrl-C. */
const aborters = new Set();
/** Servers being started: waited for on Ctrl-C. */
const starts = new Set();
let stopping = false;

function track(pid, entry) {
  live.set(pid, entry);
  return () => live.delete(pid);
}

async function stopEverything(signal) {
  if (stopping) return;
  stopping = true;
  for (const ac of aborters) ac.abort();
  // A server still starting is stopped by its start, which then fails; one that made it is tracked by then.
  await Promise.allSettled([...starts]);
  await new Promise((resolve) => setImmediate(resolve));
  process.stderr.write(`\nbench:advice: ${signal}: stopping ${live.size} started process${live.size === 1 ? '' : 'es'}\n`);
  await Promise.all([...live.values()].map((entry) => entry.stop().catch(() => entry.kill())));
  process.exit(130);
}
process.on('SIGINT', () => stopEverything('SIGINT'));
process.on('SIGTERM', () => stopEverything('SIGTERM'));
// Last resort (an exception, process.exit elsewhere): whatever is left is killed, group and all.
process.on('exit', () => {
  for (const entry of live.values()) entry.kill();
});

/** After Ctrl-C the session waits here while stopEverything ends what it started and exits. */
const halted = () => new Promise(() => {});

const killGroup = (pid) => {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
};

/** A child we wait on; `group`: in its own process group, killed as one. */
function runChild(command, args, { env = process.env, group = false, stopSignal = 'SIGTERM' } = {}) {
  if (stopping) return halted();
  const child = spawn(command, args, { env, detached: group, stdio: ['ignore', 'pipe', 'pipe'] });
  const out = [];
  const err = [];
  child.stdout.on('data', (chunk) => out.push(chunk));
  child.stderr.on('data', (chunk) => err.push(chunk));
  const done = new Promise((resolve) => {
    child.once('error', (error) => resolve({ code: null, stdout: '', stderr: error.message }));
    child.once('close', (code) => resolve({ code, stdout: Buffer.concat(out).toString(), stderr: Buffer.concat(err).toString() }));
  });
  const kill = () => (group ? killGroup(child.pid) : child.kill('SIGKILL'));
  const stop = async () => {
    child.kill(stopSignal);
    const timer = setTimeout(kill, STOP_WAIT_MS);
    await done;
    clearTimeout(timer);
  };
  const untrack = child.pid ? track(child.pid, { kind: group ? 'group' : 'child', stop, kill }) : () => {};
  // After Ctrl-C a child's answer (spawnbench prints what it measured so far) is not a result.
  return done.finally(untrack).then((result) => (stopping ? halted() : result));
}

// ── the truth: each size measured by the bench itself ────────────────────────

async function load(port, durationS) {
  const url = `http://127.0.0.1:${port}/`;
  if (WRK) {
    const { stdout, stderr } = await runChild(WRK, ['-t1', `-c${CONNECTIONS}`, `-d${durationS}s`, '--timeout', WRK_TIMEOUT, url]);
    const figures = parseWrk(stdout);
    if (!figures) throw new Error(`wrk printed no Requests/sec: ${stderr.trim().split('\n').at(-1) ?? ''}`);
    return figures;
  }
  const { default: autocannon } = await import('autocannon');
  const result = await autocannon({ url, connections: CONNECTIONS, duration: durationS });
  return { rps: result.requests.average, requests: result.requests.total, errors: result.errors + result.timeouts + result.non2xx };
}

/** Starts one configuration of a server (its own process group, PORT free), measures it, stops it. */
async function measure(server, config) {
  const command = config.processes ? ['node', CLUSTER_OF, String(config.processes), config.script] : ['node', server.script];
  let listening = null;
  const allListening = new Promise((resolve) => (listening = resolve));
  const ac = new AbortController();
  aborters.add(ac);
  const start = startTarget({
    command,
    port: null,
    env: { ...server.env, ...config.env },
    readyTimeoutMs: READY_TIMEOUT_MS,
    signal: ac.signal,
    onOutput: (line) => {
      if (/workers listening/.test(line)) listening();
    },
  });
  starts.add(start);
  const target = await start.finally(() => {
    aborters.delete(ac);
    starts.delete(start);
  });
  const untrack = track(target.proc.pid, { kind: 'group', stop: () => target.stop(), kill: () => killGroup(target.proc.pid) });
  try {
    // Under node:cluster, connections opened before every worker listens stay with the first.
    if (config.processes) await Promise.race([allListening, new Promise((resolve) => setTimeout(resolve, READY_TIMEOUT_MS))]);
    await load(target.port, WARMUP_S);
    return await load(target.port, DURATION_S);
  } finally {
    await target.stop();
    untrack();
  }
}

async function truthOf(name, server) {
  const rounds = server.truth.map(() => []);
  const failures = [];
  for (let round = 1; round <= ROUNDS; round++) {
    for (const [i, config] of server.truth.entries()) {
      process.stderr.write(`${name}: round ${round}/${ROUNDS}, ${config.side ? config.label : `${server.knob} ${config.label}`} … `);
      try {
        const figures = await measure(server, config);
        rounds[i].push(figures);
        process.stderr.write(`${Math.round(figures.rps)} req/s${figures.errors ? `, ${figures.errors} errors` : ''}\n`);
      } catch (error) {
        if (stopping) await halted();
        rounds[i].push(null);
        failures.push(`${config.label}: ${error.message}`);
        process.stderr.write(`not measured: ${error.message}\n`);
      }
    }
  }
  return { sizes: server.truth.map((config, i) => ({ ...config, rps: summariseSize(rounds[i]) })), failures };
}

// ── spawnbench's advice, from a run as a user would make it ──────────────────

async function spawnbenchJson(args, env) {
  const started = Date.now();
  // --json before `--`: what follows it is the server's command.
  const dash = args.includes('--') ? args.indexOf('--') : args.length;
  const argv = [...args.slice(0, dash), '--json', ...args.slice(dash)];
  const { code, stdout, stderr } = await runChild(process.execPath, [SPAWNBENCH, ...argv], { env: { ...process.env, ...env, CI: 'true' }, group: true, stopSignal: 'SIGINT' });
  try {
    return { result: JSON.parse(stdout), code, ms: Date.now() - started };
  } catch {
    throw new Error(`spawnbench ${args.join(' ')} exited ${code}: ${stderr.trim().split('\n').at(-1) ?? 'no output'}`);
  }
}

function describeAdvice(rec, advised) {
  const reason = rec.reasons.find((r) => r.id === 'thread-knob');
  const head = reason
    ? `${reason.figures.name}=${reason.figures.trySize} (today ${reason.figures.value}${reason.figures.unset ? ', unset' : ''}; limit: ${reason.figures.limit})`
    : advised.value === null ? 'no value' : `size ${advised.value}`;
  return `${head}; confidence ${rec.confidence ?? '–'}; reasons ${rec.reasons.map((r) => r.id).join(', ') || 'none'}`;
}

const pad = (text, n) => String(text).padEnd(n);
const fmt = (s) => (s.rps.median === null ? 'not measured' : `${Math.round(s.rps.median)} (${Math.round(s.rps.min)}–${Math.round(s.rps.max)})${s.rps.errors ? ` ${s.rps.errors} err` : ''}`);

async function benchServer(name) {
  const server = SERVERS[name];
  process.stderr.write(`\n== ${name}: ${server.title}\n`);
  const truth = await truthOf(name, server);
  const command = ['node', server.script];
  process.stderr.write(`${name}: spawnbench ${['run', ...RUN_ARGS].join(' ')} -- node ${server.script} …\n`);
  let run = null;
  let runError = null;
  try {
    run = await spawnbenchJson(['run', ...RUN_ARGS, '--', ...command], { ...server.env, ...server.runEnv });
  } catch (error) {
    if (stopping) await halted();
    runError = error.message;
  }
  const swept = truth.sizes.filter((s) => !s.side);
  let verdict;
  let advice;
  if (run) {
    const rec = run.result.recommendation;
    const advised = advisedValue(server.advice, rec, server.knob);
    verdict = judgeAdvice(advised, swept, server.expect);
    advice = describeAdvice(rec, advised);
  } else {
    verdict = { met: false, why: `spawnbench did not answer: ${runError}` };
    advice = '–';
  }
  return { name, server, truth, run, advice, verdict };
}

function printServer({ name, server, truth, run, advice, verdict }) {
  console.log(`\n${name}: ${server.title}`);
  console.log(`  truth (${WRK ? `wrk -t1 -c${CONNECTIONS} -d${DURATION_S}s` : `autocannon -c ${CONNECTIONS} -d ${DURATION_S}`}, ${ROUNDS} round${ROUNDS === 1 ? '' : 's'}), ${server.knob}: req/s median (min–max)`);
  console.log(`    ${truth.sizes.map((s) => `${s.label}: ${fmt(s)}`).join(' · ')}`);
  for (const failure of truth.failures) console.log(`    not measured: ${failure}`);
  const noisy = noisySizes(truth.sizes);
  if (noisy.length > 0) console.log(`    noisy: the rounds of ${noisy.join(', ')} spread more than 10%, wider than the 5% MET is judged by: run on a quiet machine, or with more --rounds`);
  if (run) console.log(`  spawnbench run (${(run.ms / 1000).toFixed(0)} s, ${Math.round(run.result.load.rps)} req/s): ${advice}`);
  if (run?.result.recommendation.confirmWith?.command) console.log(`    confirm with: ${run.result.recommendation.confirmWith.command}`);
  const expected = [server.expect.reason && `reason ${server.expect.reason}`, server.expect.limit && `limit ${server.expect.limit}`].filter(Boolean).join(', ');
  console.log(`  ${verdict.met ? 'MET' : 'NOT MET'}: ${verdict.why}${expected ? ` (expected: ${expected})` : ''}`);
}

// ── the strategies: run against tune, in one session ─────────────────────────

const RUN = ['--duration', '5s', '--warmup', '1s'];
const TUNE = ['--sizes', '1,2,3,4', '--balance-policies', 'round-robin', '--repeat', opts.repeat, '--duration', '2s', '--warmup', '500ms'];
/** Step time tune was given (2 s + 500 ms), to work out the per-step overhead the confirm estimate assumes. */
const TUNE_STEP_MS = 2500;

async function benchStrategy(strategy) {
  process.stderr.write(`\n== ${strategy}: run --pool-size 1, run --pool-size 4, tune ${TUNE.join(' ')}\n`);
  const one = await spawnbenchJson(['run', '--strategy', strategy, '--pool-size', '1', ...RUN], {});
  const four = await spawnbenchJson(['run', '--strategy', strategy, '--pool-size', '4', ...RUN], {});
  const tune = await spawnbenchJson(['tune', '--strategy', strategy, ...TUNE], {});
  return { strategy, one, four, tune };
}

function printStrategy({ strategy, one, four, tune }) {
  const best = tune.result.recommendation;
  let met = 0;
  console.log(`\n${pad('strategy', 13)}${pad('answer from', 22)}${pad('size', 6)}${pad('policy', 15)}${pad('confidence', 12)}${pad('rps', 7)}tune's rps at that size, of its best`);
  for (const [label, { result }] of [['run --pool-size 1', one], ['run --pool-size 4', four]]) {
    const rec = result.recommendation;
    const check = runAgainstTune(rec.size, best.sizes ?? []);
    const within = check?.within === true;
    met += within ? 1 : 0;
    const share = check?.share == null ? 'not measured by tune' : `${Math.round(check.share * 100)}%${check.interpolated ? ' (between measured sizes)' : ''}`;
    console.log(`${pad(strategy, 13)}${pad(label, 22)}${pad(rec.size ?? '–', 6)}${pad(rec.policy ?? '–', 15)}${pad(rec.confidence ?? '–', 12)}${pad(Math.round(result.load.rps), 7)}${within ? `yes, ${share}` : `NO, ${share} (${rec.reasons.map((r) => r.id).join(', ')})`}`);
  }
  const perSize = (best.sizes ?? []).map((s) => `${s.size}: ${Math.round(s.rps.median)} (${Math.round(s.rps.min)}–${Math.round(s.rps.max)})`).join(', ');
  console.log(`${pad(strategy, 13)}${pad('tune --sizes 1,2,3,4', 22)}${pad(best.size ?? '–', 6)}${pad(best.policy ?? '–', 15)}${pad('', 12)}rps per size, median (min–max):`);
  console.log(`${pad('', 13)}${perSize}`);
  const ties = best.ties?.sizes ?? [];
  console.log(`${pad('', 13)}sizes tune could not tell from ${best.size} (repeats overlap): ${ties.length ? ties.join(', ') : 'none'}`);
  const steps = tune.result.steps.length;
  console.log(`${pad('', 13)}tune took ${(tune.ms / 1000).toFixed(0)} s for ${steps} steps: ${((tune.ms / steps - TUNE_STEP_MS) / 1000).toFixed(1)} s per step beyond warm-up and measurement`);
  return { met: met === 2, why: `${met}/2 run sizes within 5% of tune's best` };
}

// ── the session ──────────────────────────────────────────────────────────────

const startedAt = Date.now();
const loadAtStart = loadavg()[0];
const servers = [];
const strategies = [];
for (const name of chosen) {
  if (STRATEGIES.includes(name)) strategies.push(await benchStrategy(name));
  else servers.push(await benchServer(name));
}

const cores = availableParallelism();
const loadAtEnd = loadavg()[0];
console.log(`\nbench:advice · ${cores} cores · load average ${loadAtStart.toFixed(1)} at the start, ${loadAtEnd.toFixed(1)} at the end · ${((Date.now() - startedAt) / 60000).toFixed(1)} min`);
if (Math.max(loadAtStart, loadAtEnd) > cores) console.log('the load average was above the cores: other programs competed for them, and the truth below is theirs as much as the servers\'');
for (const row of servers) printServer(row);
const strategyVerdicts = strategies.map((row) => ({ name: row.strategy, ...printStrategy(row) }));

const verdicts = [...servers.map((row) => ({ name: row.name, ...row.verdict })), ...strategyVerdicts];
console.log(`\n${pad('server', 15)}result`);
for (const v of verdicts) console.log(`${pad(v.name, 15)}${v.met ? 'MET' : 'NOT MET'}: ${v.why}`);
console.log(`MET on ${verdicts.filter((v) => v.met).length}/${verdicts.length}`);
for (const line of skipped) console.log(`skipped ${line}`);
