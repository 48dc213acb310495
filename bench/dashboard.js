/**
 * What the live dashboard costs: the same short baseline run with the dashboard on
 * and with --no-dashboard, alternated in one sitting, each in an 80×24 tmux pane
 * (a real pseudo-terminal, so Ink renders as it would for a user). A preload in the
 * spawnbench process records its own CPU time at exit: the whole process (all
 * threads, load generator included) and its main thread (where Ink renders).
 * Prints the difference in % of one core against the budget (≤ 2%).
 *
 * Then, to see the rendering alone without a run's noise: the dashboard mounted in
 * this process on a discarding 80×24 TTY stream, fed the engine's event rates
 * (tick 1/s, sample and workers 4/s; 0 and 32 workers) from fixed data, vs the same
 * events with nothing listening.
 *
 *   npm run bench:dashboard   (ROUNDS=5 more pairs, DURATION=10s longer runs, STRATEGY=fork-pool another strategy)
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EventEmitter } from 'node:events';
import { Writable } from 'node:stream';
import { mountDashboard } from '../src/ui/index.js';
import { machine, makePlan, makeSample, makeTick, makeWorkers } from '../test/ui/fixtures.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const BIN = join(ROOT, 'bin', 'spawnbench.js');
const TMUX = '/usr/bin/tmux';
/** Pairs of runs (dashboard on, off), alternated so drift on a shared machine cancels out. */
const ROUNDS = Number(process.env.ROUNDS ?? 3);
const RUN_ARGS = ['--strategy', process.env.STRATEGY ?? 'baseline', '--duration', process.env.DURATION ?? '3s', '--warmup', '500ms'];
/** The dashboard's budget: rendering at the default refresh costs at most 2% of a core, so it does not skew the run it shows. */
const TARGET_PCT = 2;
/** One run boots a strategy and loads it for 3.5 s; a minute means something is stuck. ms */
const RUN_LIMIT_MS = 60_000;

/**
 * Preloaded into spawnbench's main thread only (worker threads inherit --import,
 * strategies are other processes): on exit, writes process CPU (µs), main-thread
 * CPU (/proc clock ticks) and wall time (ms) to $DASHBOARD_BENCH_OUT.
 */
const PRELOAD = `
import { isMainThread } from 'node:worker_threads';
import { readFileSync, writeFileSync } from 'node:fs';
if (isMainThread && process.argv[1]?.endsWith('spawnbench.js') && process.env.DASHBOARD_BENCH_OUT) {
  process.on('exit', () => {
    const stat = readFileSync('/proc/self/task/' + process.pid + '/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const mainTicks = Number(fields[11]) + Number(fields[12]);
    const { user, system } = process.cpuUsage();
    writeFileSync(process.env.DASHBOARD_BENCH_OUT, JSON.stringify({ cpuUs: user + system, mainTicks, wallMs: performance.now() }));
  });
}`;
const PRELOAD_URL = `data:text/javascript,${encodeURIComponent(PRELOAD)}`;
/** Length of each in-process rendering measurement, after a warm-up like a run's. ms */
const RENDER_MS = 8000;
const RENDER_WARMUP_MS = 1000;
/** The engine's event rates: a LoadTick a second, samples and worker lists every 250 ms. ms */
const TICK_EVERY_MS = 1000;
const SAMPLE_EVERY_MS = 250;
/** Workers in the fixed data: none (a baseline run), and 32 (the collapsed table, the most per frame). */
const RENDER_WORKER_COUNTS = [0, 32];

/** Linux USER_HZ: /proc reports CPU time in 1/100 s. */
const TICK_MS = 10;

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const quote = (arg) => `'${String(arg).replace(/'/g, `'\\''`)}'`;

function main() {
  if (!existsSync(BIN)) return console.log('skipped the CLI runs: bin/spawnbench.js does not exist yet');
  if (!existsSync(TMUX)) return console.log(`skipped: tmux is not installed at ${TMUX}`);
  if (!existsSync('/proc/self/task')) return console.log('skipped: needs /proc (Linux) for main-thread CPU');

  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-dashboard-bench-'));
  const socket = `spawnbench-dashboard-bench-${process.pid}`;
  const tmux = (...args) => execFileSync(TMUX, ['-L', socket, '-f', '/dev/null', ...args], { encoding: 'utf8', timeout: RUN_LIMIT_MS, stdio: ['ignore', 'pipe', 'pipe'] });

  const runOnce = (dashboard, index) => {
    const out = join(dir, `cpu-${index}.json`);
    const result = join(dir, `result-${index}.json`);
    const args = [process.execPath, '--import', PRELOAD_URL, BIN, ...RUN_ARGS, '--out', result, ...(dashboard ? [] : ['--no-dashboard'])];
    const command = `env -u CI DASHBOARD_BENCH_OUT=${quote(out)} ${args.map(quote).join(' ')} >/dev/null 2>&1; tmux -L ${socket} wait-for -S run-${index}`;
    tmux('new-session', '-d', '-s', `run-${index}`, '-x', '80', '-y', '24', '-c', ROOT, command);
    tmux('wait-for', `run-${index}`);
    if (!existsSync(out)) throw new Error(`run ${index} wrote no CPU figures (did spawnbench fail? try the command by hand: ${args.join(' ')})`);
    const cpu = JSON.parse(readFileSync(out, 'utf8'));
    const rps = existsSync(result) ? JSON.parse(readFileSync(result, 'utf8')).load?.rps : null;
    return {
      mode: dashboard ? 'dashboard' : 'no-dashboard',
      wallMs: cpu.wallMs,
      processPct: (cpu.cpuUs / 1000 / cpu.wallMs) * 100,
      mainPct: ((cpu.mainTicks * TICK_MS) / cpu.wallMs) * 100,
      rps,
    };
  };

  // One server for all runs: without exit-empty off it exits after each run, and the
  // next new-session can race its shutdown ("server exited unexpectedly").
  tmux('start-server', ';', 'set-option', '-g', 'exit-empty', 'off');
  console.log(`dashboard cost: ${ROUNDS} pairs of \`spawnbench ${RUN_ARGS.join(' ')}\` in an 80×24 tmux pane, alternated`);
  console.log('mode           wall s  process CPU % core  main thread % core     rps');
  const runs = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? [true, false] : [false, true];
      for (const dashboard of order) {
        const run = runOnce(dashboard, runs.length);
        runs.push(run);
        console.log(
          `${run.mode.padEnd(13)} ${(run.wallMs / 1000).toFixed(1).padStart(7)} ${run.processPct.toFixed(1).padStart(19)} ${run.mainPct.toFixed(1).padStart(19)} ${run.rps == null ? '–'.padStart(7) : Math.round(run.rps).toString().padStart(7)}`,
        );
      }
    }
  } finally {
    try {
      tmux('kill-server');
    } catch {
      // every session already ended
    }
    rmSync(dir, { recursive: true, force: true });
  }

  const of = (mode, key) => median(runs.filter((run) => run.mode === mode).map((run) => run[key]));
  const processCost = of('dashboard', 'processPct') - of('no-dashboard', 'processPct');
  const mainCost = of('dashboard', 'mainPct') - of('no-dashboard', 'mainPct');
  console.log('');
  console.log(`median process CPU: dashboard ${of('dashboard', 'processPct').toFixed(1)}% vs no-dashboard ${of('no-dashboard', 'processPct').toFixed(1)}% of a core`);
  console.log(`rendering cost: ${processCost >= 0 ? '+' : ''}${processCost.toFixed(2)}% of a core (whole process), ${mainCost >= 0 ? '+' : ''}${mainCost.toFixed(2)}% (main thread)`);
  console.log(`target ≤ ${TARGET_PCT}% of a core: ${processCost <= TARGET_PCT ? 'met' : 'NOT met'}`);
}

/** CPU time of this process's main thread (where React and Ink run), in ms, from /proc. */
function mainThreadMs() {
  const stat = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
}

/**
 * CPU of this process and of its main thread, % of a core, while a fake engine emits
 * for RENDER_MS with or without the dashboard mounted. The whole process includes V8's
 * background threads, which still compile the rendering code in a run's first seconds.
 */
async function renderCost(withDashboard, workers) {
  const run = new EventEmitter();
  run.stop = () => {};
  const stdout = Object.assign(new Writable({ write: (chunk, encoding, done) => done() }), { isTTY: true, columns: 80, rows: 24 });
  const stdin = Object.assign(new EventEmitter(), { isTTY: false });
  const ui = withDashboard ? mountDashboard(run, { stdout, stdin, stderr: stdout, env: {}, formatSummary: () => 'summary' }) : null;
  run.emit('start', { plan: makePlan({ workers }), machine });
  run.emit('phase', { phase: 'measure' });
  let second = 0;
  let sampled = 0;
  const ticks = setInterval(() => run.emit('tick', makeTick({ second: ++second, errors: second > 2 })), TICK_EVERY_MS);
  const samples = setInterval(() => {
    // Figures change every interval, as real ones do, so no frame is skipped as unchanged.
    const sample = makeSample({ workers });
    sample.processes[0].cpuPct = 60 + (++sampled % 40);
    run.emit('sample', sample);
    run.emit('workers', makeWorkers(workers));
  }, SAMPLE_EVERY_MS);
  await new Promise((resolve) => setTimeout(resolve, RENDER_WARMUP_MS));
  const started = performance.now();
  const cpuBefore = process.cpuUsage();
  const mainBefore = mainThreadMs();
  await new Promise((resolve) => setTimeout(resolve, RENDER_MS));
  const mainMs = mainThreadMs() - mainBefore;
  clearInterval(ticks);
  clearInterval(samples);
  const cpu = process.cpuUsage(cpuBefore);
  const wallMs = performance.now() - started;
  run.emit('done', { kind: 'run' });
  await ui?.done;
  return { processPct: ((cpu.user + cpu.system) / 1000 / wallMs) * 100, mainPct: (mainMs / wallMs) * 100 };
}

async function renderOnly() {
  console.log('');
  console.log(`rendering alone: ${RENDER_MS / 1000} s of engine events in this process (ticks 1/s, samples 4/s), dashboard on vs off, alternated`);
  for (const workers of RENDER_WORKER_COUNTS) {
    const on = [];
    const off = [];
    for (let round = 0; round < 2; round++) {
      for (const dashboard of round % 2 === 0 ? [true, false] : [false, true]) (dashboard ? on : off).push(await renderCost(dashboard, workers));
    }
    const cost = (key) => median(on.map((m) => m[key])) - median(off.map((m) => m[key]));
    const processCost = cost('processPct');
    console.log(
      `${String(workers).padStart(2)} workers: rendering ${processCost.toFixed(2)}% of a core (whole process), ` +
        `${cost('mainPct').toFixed(2)}% (main thread); target ≤ ${TARGET_PCT}%: ${processCost <= TARGET_PCT ? 'met' : 'NOT met'}`,
    );
  }
}

if (ROUNDS > 0) main();
await renderOnly();
