// What the probe and samplers cost the server they measure.
//
// Where it runs: where taskset exists and this process may use 2 CPUs or more, every server it
// measures runs on the last of them (taskset -c on its spawn; its children inherit it) and this
// process, with its load generator and samplers, on the others (taskset -a -p at start: all its
// threads, and the generator's threads started later inherit it). The first line says which CPUs
// each side has, or why nothing was pinned (no taskset, one CPU, not Linux, --no-pin). The
// servers are loaded one at a time, so a loaded server is the only measured process on its CPU
// and its CPU per request is not shared with the generator. Other work on the machine still
// shares both CPUs: on 2 cores busy with other processes (load 3.7 to 12.8), the off/off spread
// of 2. below was no narrower pinned than not (quartiles of CPU per request ±7 to 10% pinned,
// ±6 to 10% not; of throughput ±10 to 13% and ±7 to 11%; two runs each). The idle and fork
// figures (3.) run on this process's CPUs.
//
// 1. Throughput: baseline/echo under the same closed-loop load with probes and
//    samplers on and off, alternated (off, on, on, off, ...) so drift on this
//    shared machine falls on both sides; prints the on/off throughput ratio
//    (target ≥ 0.98). On a busy shared machine throughput swings more than the
//    probe costs, so the server's own CPU time per request (from /proc, counted
//    only while the load is measured) is printed too: contention moves it less.
// 2. The per-route attribution (src/probe/route-timer.js: an async hook around every
//    callback in its sampling windows) against the same probe without it, on
//    baseline/echo and on the multi-route fixture under a mix of its two cheapest
//    routes (GET /health, GET /items/:id, where the hook's share of a request is the
//    largest): two servers, one with it and one without, booted side by side and
//    loaded in turn by slices of 1 s (--pairs of them each), so both see the same
//    moments of a shared machine and each keeps what the attribution leaves in its
//    process; the medians and quartiles of the neighbouring slices' ratios, of
//    throughput (target ≥ 0.97) and of the server's CPU per request (target ≤ 1.03);
//    then the same with neither server attributing, as the noise those figures carry
//    (on 2 shared cores at load 3 to 6, off/off medians of 0.97 to 1.07 and quartiles
//    ±5 to 17%: such a machine does not resolve 3% this way; the figures below do better).
//    The slices' length (--slice, ms; each has 250 ms of warm-up first): 1 s, as shorter or
//    longer ones were no better. Pinned, over the same measured time, at load 3.7 to 12.8,
//    the off/off quartiles were, of CPU per request and of throughput: 20 pairs of 1 s ±7 to
//    10% and ±10 to 13% (two runs), 40 of 500 ms ±13 to 17% and ±22 to 25%, 10 of 2 s ±5 to
//    14% and ±13 to 19%. --only pairs runs these two-server comparisons alone (about 3 minutes).
//    Two runs of --only routes this way, pinned, at load 12.3 and 3.9: off/off medians of CPU per
//    request 0.982 and 0.922, of throughput 1.039 and 1.116, quartiles ±8 to 30%: 3% is still
//    not resolved on 2 cores that other work keeps busy.
//    Then the same inside one server process (bench/route-timer-child.js): the
//    attribution installed for every other phase of 1 s under one steady load, each
//    such phase's CPU per request against its neighbours' (target ≤ 1.03); and once
//    more on the multi-route fixture with the windows 10 times as often, where what the
//    windows cost (once, their switching on and off) stands out of the noise. Each line gives
//    the 95% interval of its median from the ratios' order statistics: with the default 41
//    phases (20 ratios) it is about ±3% on this machine, so --phases 201 (100 ratios, 3.5 min
//    a target) is what resolves 3%. Quiet 2-core machine, pinned, --only routes --pairs 0
//    --phases 201: echo 1.013 (interval 0.999–1.037), multi-route 0.998 (0.971–1.018).
//    --fixed-rate multi-route=8000,echo=200 runs the in-process comparison alone at fixed
//    open-loop rates (same throughput both ways by construction, so the cost is all in the
//    CPU per request); at 41 phases it was no tighter than the closed loop (multi-route
//    quartiles 0.977–1.116).
// 3. Idle cost: the CPU an otherwise idle Node process burns with the probe on,
//    over the same seconds without it (target ≤ 1% of a core at 250 ms), and,
//    as the floor the probe cannot go under, with nothing but the 10 ms
//    monitorEventLoopDelay the probe must run. Also the resident anonymous
//    memory the probe adds: a fork copies the parent's page tables, so each MB
//    of it makes every spawn of the server slower.
//
// Usage: npm run bench:probe-overhead [-- --rounds 5 --duration 3000 --connections 30 --idle-seconds 20 --pairs 20 --slice 1000 --only routes|pairs --no-pin
//   --phases 41 --fixed-rate multi-route=8000,echo=200]
// (about 9 minutes with the defaults; --only routes: the attribution comparisons alone, about 5;
// --only pairs: only those of two servers, about 3)
import { spawn, spawnSync, execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { once } from 'node:events';
import { parseArgs, promisify } from 'node:util';
import { openProbeChannel } from '../src/probe/channel.js';
import { startSampler } from '../src/sample/index.js';
import { startLoad } from '../src/load/index.js';
import { readStat, procUnits, HAS_PROC } from '../src/sample/proc.js';
import { checkMix } from '../src/load/mix.js';
import { ownCpuBudget, parseCpuList } from '../src/machine/cpu-budget.js';

const { values: flags } = parseArgs({
  options: {
    rounds: { type: 'string', default: '5' },
    duration: { type: 'string', default: '3000' },
    connections: { type: 'string', default: '30' },
    'idle-seconds': { type: 'string', default: '20' },
    only: { type: 'string', default: '' },
    pairs: { type: 'string', default: '20' },
    'fixed-rate': { type: 'string', default: '' },
    phases: { type: 'string', default: '41' },
    slice: { type: 'string', default: '1000' },
    'no-pin': { type: 'boolean', default: false },
  },
});
const ROUNDS = Number(flags.rounds);
const DURATION_MS = Number(flags.duration);
const CONNECTIONS = Number(flags.connections);
/** Slices each server of the attribution comparison is loaded for, and their length in ms (each after its own warm-up). */
const PAIRS = Number(flags.pairs);
const SLICE_MS = Number(flags.slice);
if (!Number.isInteger(SLICE_MS) || SLICE_MS <= 0) {
  console.error(`--slice takes a whole number of ms above 0 (got '${flags.slice}'): try --slice 1000`);
  process.exit(2);
}
const SLICE_WARMUP_MS = 250;
/** Warm-up before each measured run, in ms: the server's JIT and the fork path settle in well under a second. */
const WARMUP_MS = 500;
/**
 * The idle process is measured from 10 s for --idle-seconds of nothing but timers:
 * by then V8's memory reducer has run its one-off mark-compacts after startup
 * (at ~8 s, --trace-gc), which otherwise count as a third of the probe's cost;
 * afterwards the probe's allocations cost one ~1 ms scavenge every ~25 s.
 */
const IDLE_FROM_MS = 10000;
const IDLE_TO_MS = IDLE_FROM_MS + Number(flags['idle-seconds']) * 1000;
const STRATEGY = new URL('../strategies/baseline/index.js', import.meta.url).pathname;
const MULTI_ROUTE = new URL('../fixtures/servers/multi-route.js', import.meta.url).pathname;

/** What the throughput runs drive: a server file and its load. */
const TARGETS = {
  echo: { file: STRATEGY, label: 'baseline/echo', load: { path: '/', expectedBody: Buffer.from('hi\n') } },
  'multi-route': {
    file: MULTI_ROUTE,
    label: 'multi-route, GET /health 60 : GET /items/7 25',
    load: { mix: checkMix([{ method: 'GET', path: '/health', weight: 60 }, { method: 'GET', path: '/items/7', weight: 25 }]) },
  },
};

/** The CPUs a process may run on, from /proc (null where it cannot be read). */
function allowedCpus(pid = 'self') {
  try {
    return parseCpuList(/^Cpus_allowed_list:\s*(\S+)/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? '');
  } catch {
    return null;
  }
}

/**
 * Where each side runs: the servers under test on the last CPU this process may use, this
 * process (its load generator's threads, the samplers) on the others, so a loaded server does
 * not share its CPU with the generator (other work on the machine still may). Every thread of this
 * process is moved (taskset -a); threads started later (the generator's) inherit it. Without
 * taskset or with one CPU, nothing is pinned and `skipped` says why.
 * @returns {{ server: number[], bench: number[] } | { skipped: string }}
 */
function pinSides() {
  if (flags['no-pin']) return { skipped: '--no-pin' };
  if (process.platform !== 'linux') return { skipped: `taskset is Linux's (this is ${process.platform})` };
  if (spawnSync('taskset', ['-V']).error) return { skipped: 'no taskset on PATH' };
  const { cpus } = ownCpuBudget();
  if (cpus.length < 2) return { skipped: `this process may use ${cpus.length} CPU (${cpus.join(',')}): nothing to split` };
  const server = cpus.slice(-1);
  const bench = cpus.slice(0, -1);
  const set = spawnSync('taskset', ['-a', '-p', '-c', bench.join(','), String(process.pid)], { encoding: 'utf8' });
  if (set.status !== 0) return { skipped: `taskset could not pin this process: ${(set.stderr || set.error?.message || '').trim()}` };
  const now = allowedCpus();
  if (now && now.join(',') !== bench.join(',')) return { skipped: `taskset left this process on CPUs ${now.join(',')}, not ${bench.join(',')}` };
  return { server, bench };
}

const PIN = pinSides();
if ('skipped' in PIN) console.log(`CPUs: not pinned (${PIN.skipped}); servers, this process and its load generator share CPUs ${(allowedCpus() ?? ['?']).join(',')}`);
else console.log(`CPUs: servers under test on ${PIN.server.join(',')} (taskset -c), this process and its load generator on ${PIN.bench.join(',')} (taskset -a -p)`);

/** The command and arguments that run a server file with Node, on the servers' CPU when pinned. */
function serverCommand(args) {
  return 'skipped' in PIN ? [process.execPath, args] : ['taskset', ['-c', PIN.server.join(','), process.execPath, ...args]];
}

/** Why a pinned server is not on the servers' CPU (then the figures would not be what the header says), or null. */
function notPinned(pid) {
  if ('skipped' in PIN) return null;
  const cpus = allowedCpus(pid);
  return cpus && cpus.join(',') !== PIN.server.join(',') ? `server ${pid} runs on CPUs ${cpus.join(',')}, not ${PIN.server.join(',')}` : null;
}

/** Boots a target (baseline by default) in its own process group; resolves once it prints its ready line. */
async function bootBaseline(env, file = STRATEGY) {
  // taskset execs node: the pid is the server's.
  const [command, args] = serverCommand([file]);
  const child = spawn(command, args, {
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env, SPAWNBENCH_STRATEGY_CONFIG: JSON.stringify({ command: 'echo', args: ['hi'] }) },
  });
  let buffer = '';
  const port = await new Promise((resolve, reject) => {
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      const match = buffer.match(/\{"spawnbench":"ready","port":(\d+)\}/);
      if (match) resolve(Number(match[1]));
    });
    child.once('exit', () => reject(new Error('baseline exited before it was ready')));
  });
  const stop = async () => {
    const exited = child.exitCode === null ? once(child, 'exit') : Promise.resolve();
    process.kill(-child.pid, 'SIGTERM');
    await exited;
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // the group is already gone
    }
  };
  const misplaced = notPinned(child.pid);
  if (misplaced) {
    await stop();
    throw new Error(misplaced);
  }
  return { pid: child.pid, port, stop };
}

/** The server process's own CPU time so far, in ms (null without /proc). */
function serverCpuMs(pid) {
  const stat = HAS_PROC ? readStat(pid) : null;
  return stat ? ((stat.utime + stat.stime) * 1000) / procUnits().ticksPerSec : null;
}

/**
 * Drives a booted server with its target's load on one generator thread; resolves to the measured
 * phase's `{ rps, requests, cpuMs }` (the server's CPU over that phase, null without /proc).
 * A request that failed throws: the figures would not be the server's.
 * @param {string} what the run, for that error ('a slice')
 */
async function loadServer(server, target, { durationMs, warmupMs }, what) {
  const { path = '/', ...rest } = target.load;
  const load = startLoad({ url: `http://127.0.0.1:${server.port}${path}`, connections: CONNECTIONS, durationMs, warmupMs, threads: 1, ...rest });
  let cpuAtMeasure = null;
  load.on('phase', ({ phase }) => {
    if (phase === 'measure') cpuAtMeasure = serverCpuMs(server.pid);
  });
  const result = await load.done;
  const cpuAtEnd = serverCpuMs(server.pid);
  if (result.errors.total > 0) throw new Error(`${result.errors.total} errors in ${what}`);
  return { rps: result.rps, requests: result.requests, cpuMs: cpuAtMeasure !== null && cpuAtEnd !== null ? cpuAtEnd - cpuAtMeasure : null };
}

/**
 * One measured run; `probed` turns the probe and samplers on, `routes` its per-route
 * attribution (on by default). Resolves to `{ rps, cpuMsPerRequest }`.
 */
async function measure(probed, { target = TARGETS.echo, routes = true } = {}) {
  const channel = probed ? await openProbeChannel({ intervalMs: 250, routes }) : null;
  const server = await bootBaseline(channel?.env ?? {}, target.file);
  const sampler = probed ? startSampler({ rootPid: server.pid, channel, intervalMs: 250 }) : null;
  try {
    const { rps, cpuMs, requests } = await loadServer(server, target, { durationMs: DURATION_MS, warmupMs: WARMUP_MS }, `a ${probed ? 'probed' : 'plain'} run`);
    return { rps, cpuMsPerRequest: cpuMs === null ? null : cpuMs / requests };
  } finally {
    await sampler?.stop();
    await server.stop();
    await channel?.close();
  }
}

/**
 * CPU ms an idle Node process spends between IDLE_FROM_MS and IDLE_TO_MS, with or
 * without the probe (or only the loop-delay monitor), and its resident anonymous
 * memory at the end in MB (null without /proc). The process loads node:http and
 * node:child_process first, as a server that spawns would.
 */
async function idleProcess(env, { monitorOnly = false } = {}) {
  const monitor = monitorOnly ? "require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 }).enable();" : '';
  const script = `require('node:http'); require('node:child_process'); ${monitor}
    const at = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1000; };
    const anonMb = () => { try { return Number(require('node:fs').readFileSync('/proc/self/status', 'utf8').match(/RssAnon:\\s+(\\d+)/)[1]) / 1024; } catch { return null; } };
    let from;
    setTimeout(() => { from = at(); }, ${IDLE_FROM_MS});
    setTimeout(() => console.log(JSON.stringify({ cpuMs: at() - from, anonMb: anonMb() })), ${IDLE_TO_MS});`;
  const { stdout } = await promisify(execFile)(process.execPath, ['-e', script], { env: { ...process.env, ...env } });
  return JSON.parse(stdout);
}

const pct = (value) => `${value.toFixed(2)}%`;

/** Runs the alternated rounds and prints each run and the on/off ratio. */
async function compareThroughput() {
  console.log(`baseline/echo, ${CONNECTIONS} connections, ${DURATION_MS} ms per run after ${WARMUP_MS} ms warm-up, ${ROUNDS} rounds`);
  const rps = { off: [], on: [] };
  const cpu = { off: [], on: [] };
  for (let round = 0; round < ROUNDS; round += 1) {
    // off,on then on,off: each side gets the early and the late slot equally often.
    const order = round % 2 === 0 ? [false, true] : [true, false];
    for (const probed of order) {
      const { rps: value, cpuMsPerRequest } = await measure(probed);
      rps[probed ? 'on' : 'off'].push(value);
      if (cpuMsPerRequest !== null) cpu[probed ? 'on' : 'off'].push(cpuMsPerRequest);
      const perRequest = cpuMsPerRequest === null ? '' : `  server CPU ${cpuMsPerRequest.toFixed(3)} ms/request`;
      console.log(`round ${round + 1}  probe ${probed ? 'on ' : 'off'}  ${value.toFixed(0)} req/s${perRequest}`);
    }
  }
  const mean = (list) => list.reduce((a, b) => a + b, 0) / list.length;
  // Each round's on and off runs are neighbours in time: their ratio is the least
  // disturbed by other work on the machine, and the median drops the odd round.
  const paired = rps.on.map((on, i) => on / rps.off[i]).sort((a, b) => a - b);
  const median = paired[Math.floor(paired.length / 2)];
  if (cpu.on.length > 0 && cpu.off.length > 0) {
    const cpuRatio = mean(cpu.on) / mean(cpu.off);
    console.log(`server CPU per request on/off: ${cpuRatio.toFixed(3)} (${mean(cpu.on).toFixed(3)} vs ${mean(cpu.off).toFixed(3)} ms; 1.00 = no cost)`);
  } else {
    console.log('server CPU per request: skipped (no /proc on this platform)');
  }
  console.log(
    `throughput on/off: median of rounds ${median.toFixed(3)}, ratio of means ${(mean(rps.on) / mean(rps.off)).toFixed(3)} ` +
      `(${mean(rps.on).toFixed(0)} vs ${mean(rps.off).toFixed(0)} req/s; target ≥ 0.98)`,
  );
}

/** The middle half of a list, sorted: its median and quartiles. */
function quartiles(list) {
  const sorted = [...list].sort((a, b) => a - b);
  const at = (q) => sorted[Math.round((sorted.length - 1) * q)];
  return { median: at(0.5), low: at(0.25), high: at(0.75) };
}

const spread = ({ median, low, high }) => `${median.toFixed(3)} (quartiles ${low.toFixed(3)}–${high.toFixed(3)})`;

/**
 * The 95% confidence interval of a median from its sample's order statistics (no assumption on
 * the distribution): the values ranked n/2 ∓ 0.98·√n. Null under 6 values, where it spans them all.
 * @param {number[]} list
 * @returns {{ low: number, high: number }|null}
 */
function medianInterval(list) {
  if (list.length < 6) return null;
  const sorted = [...list].sort((a, b) => a - b);
  const half = 0.98 * Math.sqrt(sorted.length);
  const low = Math.max(0, Math.floor(sorted.length / 2 - half));
  const high = Math.min(sorted.length - 1, Math.ceil(sorted.length / 2 + half) - 1);
  return { low: sorted[low], high: sorted[high] };
}

/** The interval of medianInterval() as a clause of a figure's line, or nothing. */
const intervalText = (interval) => (interval ? `, 95% interval of the median ${interval.low.toFixed(3)}–${interval.high.toFixed(3)}` : '');

/**
 * The probe with and without its per-route attribution, as two servers booted side by side
 * and loaded in turn, slice by slice (on, off, off, on, ...): each slice's figure against the
 * other server's neighbouring slice, so both see the same moments of a shared machine, in
 * processes of their own (what the attribution leaves behind in a process is counted). Prints
 * the medians and quartiles of the slices' ratios: throughput and the server's CPU per request.
 * With `noise`, neither server has the attribution: the same figures say how far this
 * machine moves them by itself.
 */
async function compareRoutes(target, { noise = false } = {}) {
  const what = noise ? 'probe without per-route attribution against the same (the noise)' : 'probe with per-route attribution against without';
  console.log(`${target.label}: ${what}, two servers loaded in turn, ` +
    `${PAIRS} pairs of ${SLICE_MS} ms slices after ${SLICE_WARMUP_MS} ms each, ${CONNECTIONS} connections`);
  const sides = {};
  try {
    for (const routes of [true, false]) {
      const channel = await openProbeChannel({ intervalMs: 250, routes: routes && !noise });
      sides[routes ? 'on' : 'off'] = { channel };
      const server = await bootBaseline(channel.env, target.file);
      sides[routes ? 'on' : 'off'].server = server;
      sides[routes ? 'on' : 'off'].sampler = startSampler({ rootPid: server.pid, channel, intervalMs: 250 });
    }
    const slice = (side) => loadServer(side.server, target, { durationMs: SLICE_MS, warmupMs: SLICE_WARMUP_MS }, 'a slice');
    // Both servers warm before the first measured slice.
    await slice(sides.on);
    await slice(sides.off);
    const ratios = { rps: [], cpu: [] };
    const sums = { on: { cpuMs: 0, requests: 0 }, off: { cpuMs: 0, requests: 0 } };
    for (let pair = 0; pair < PAIRS; pair += 1) {
      const order = pair % 2 === 0 ? ['on', 'off'] : ['off', 'on'];
      const got = {};
      for (const name of order) {
        got[name] = await slice(sides[name]);
        sums[name].cpuMs += got[name].cpuMs ?? 0;
        sums[name].requests += got[name].requests;
      }
      ratios.rps.push(got.on.rps / got.off.rps);
      const perRequest = (x) => (x.cpuMs === null ? null : x.cpuMs / x.requests);
      if (perRequest(got.on) !== null) ratios.cpu.push(perRequest(got.on) / perRequest(got.off));
      const cpuText = perRequest(got.on) === null ? '' : `, CPU per request ${(perRequest(got.on) * 1000).toFixed(1)} vs ${(perRequest(got.off) * 1000).toFixed(1)} µs`;
      console.log(`pair ${pair + 1}  on ${got.on.rps.toFixed(0)} req/s, off ${got.off.rps.toFixed(0)} req/s${cpuText}`);
    }
    if (ratios.cpu.length > 0) {
      const ofSums = (sums.on.cpuMs / sums.on.requests) / (sums.off.cpuMs / sums.off.requests);
      console.log(`${target.label}: server CPU per request ${noise ? 'off/off' : 'routes on/off'}: median of pairs ${spread(quartiles(ratios.cpu))}, of all slices ${ofSums.toFixed(3)}${noise ? '' : ' (target ≤ 1.03)'}`);
    } else {
      console.log(`${target.label}: server CPU per request: skipped (no /proc on this platform)`);
    }
    console.log(`${target.label}: throughput ${noise ? 'off/off' : 'routes on/off'}: median of pairs ${spread(quartiles(ratios.rps))}, of all slices ${(sums.on.requests / sums.off.requests).toFixed(3)}${noise ? '' : ' (target ≥ 0.97)'}`);
  } finally {
    for (const side of Object.values(sides)) {
      await side.sampler?.stop();
      await side.server?.stop();
      await side.channel.close();
    }
  }
}

const ONLY_ROUTES = flags.only === 'routes' || flags.only === 'pairs';
if (ROUNDS > 0 && !ONLY_ROUTES) await compareThroughput();
else if (ROUNDS === 0) console.log('throughput comparison skipped (--rounds 0)');
/**
 * Phases of the in-process alternation (off, on, off, ..., off), and their length in ms: the
 * probe's windows open once a second, so a phase of a second holds one, as a real run does.
 */
const PHASES = Number(flags.phases);
if (!Number.isInteger(PHASES) || PHASES < 3 || PHASES % 2 === 0) {
  console.error(`--phases ${flags.phases}: give an odd whole number of 3 or more (off, on, …, off)`);
  process.exit(2);
}
const PHASE_MS = 1000;

/**
 * Windows opened this many times as often (for as many requests each) in the second in-process
 * alternation: what the windows cost shows ten times over, where at their own rate it is
 * within the noise of a shared machine.
 */
const WINDOWS_SPEED_UP = 10;

/**
 * The attribution switched on and off inside one server process under one load, its windows
 * `speedUp` times as often as the probe opens them; prints its CPU per request both ways.
 */
async function alternateRoutes(target, speedUp = 1, rate = null) {
  const [command, args] = serverCommand([new URL('./route-timer-child.js', import.meta.url).pathname, target.file, String(PHASES), String(PHASE_MS), String(speedUp)]);
  const child = spawn(command, args, {
    stdio: ['pipe', 'ignore', 'pipe'],
    env: { ...process.env, SPAWNBENCH_STRATEGY_CONFIG: JSON.stringify({ command: 'echo', args: ['hi'] }) },
  });
  const lines = [];
  let buffer = '';
  const port = await new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (chunk) => {
      buffer += chunk;
      const parts = buffer.split('\n');
      buffer = parts.pop();
      for (const line of parts) {
        if (line.startsWith('{')) lines.push(JSON.parse(line));
        if (lines.length === 1 && lines[0].port) resolve(lines[0].port);
      }
    });
    child.once('exit', () => reject(new Error(`${target.label}: the server exited before it listened`)));
  });
  const exited = once(child, 'exit');
  const misplaced = notPinned(child.pid);
  if (misplaced) {
    child.kill('SIGKILL');
    await exited;
    throw new Error(misplaced);
  }
  const { path = '/', ...rest } = target.load;
  const load = startLoad({ url: `http://127.0.0.1:${port}${path}`, connections: CONNECTIONS, durationMs: 2000 + PHASES * PHASE_MS + 2000, warmupMs: 0, threads: 1, ...rest, ...(rate ? { rate } : {}) });
  await exited;
  await load.stop();
  const { phases } = lines.at(-1);
  const perRequest = (phase) => (phase.cpuMs / phase.requests) * 1000;
  // Each on phase against the mean of the off phases either side of it.
  const ratios = [];
  for (let i = 1; i < phases.length - 1; i += 2) ratios.push(perRequest(phases[i]) / ((perRequest(phases[i - 1]) + perRequest(phases[i + 1])) / 2));
  const requests = phases.reduce((sum, phase) => sum + phase.requests, 0);
  const offMedian = quartiles(phases.filter((phase) => !phase.on).map(perRequest)).median;
  const windows = `${speedUp === 1 ? 'windows at their own rate' : `windows ${speedUp}× as often`}${rate ? `, an open loop at ${rate} req/s` : ''}`;
  console.log(
    `${target.label}, in one process, ${PHASES} phases of ${PHASE_MS} ms, ${windows}: server CPU per request with attribution / without (its neighbours), ` +
      `median of ${ratios.length} ${spread(quartiles(ratios))}${intervalText(medianInterval(ratios))} (without: ${offMedian.toFixed(1)} µs; ${requests} requests${speedUp === 1 ? '; target ≤ 1.03' : ''})`,
  );
}

if (PAIRS > 0) {
  for (const target of Object.values(TARGETS)) await compareRoutes(target);
  await compareRoutes(TARGETS['multi-route'], { noise: true });
}
if (flags.only === 'pairs') process.exit(0);
if (flags['fixed-rate']) {
  for (const [name, rate] of flags['fixed-rate'].split(',').map((pair) => pair.split('='))) await alternateRoutes(TARGETS[name], 1, Number(rate));
  process.exit(0);
}
for (const target of Object.values(TARGETS)) await alternateRoutes(target);
await alternateRoutes(TARGETS['multi-route'], WINDOWS_SPEED_UP);
if (flags.only === 'routes') process.exit(0);

/** Idle pairs measured; on and off run side by side so both see the same machine. */
const IDLE_PAIRS = 3;

const channel = await openProbeChannel({ intervalMs: 250 });
try {
  const seconds = (IDLE_TO_MS - IDLE_FROM_MS) / 1000;
  const pctOfCore = (cpuMs) => (cpuMs / 1000 / seconds) * 100;
  const costs = [];
  const floors = [];
  const memory = [];
  for (let pair = 0; pair < IDLE_PAIRS; pair += 1) {
    const [off, on, monitor] = await Promise.all([idleProcess({}), idleProcess(channel.env), idleProcess({}, { monitorOnly: true })]);
    costs.push(pctOfCore(on.cpuMs - off.cpuMs));
    floors.push(pctOfCore(monitor.cpuMs - off.cpuMs));
    if (on.anonMb !== null && off.anonMb !== null) memory.push(on.anonMb - off.anonMb);
    console.log(`idle process CPU over ${seconds} s: ${pct(pctOfCore(off.cpuMs))} without probe, ${pct(pctOfCore(on.cpuMs))} with, ${pct(pctOfCore(monitor.cpuMs))} with only the 10 ms loop-delay monitor`);
  }
  const median = (list) => list.sort((a, b) => a - b)[Math.floor(list.length / 2)];
  console.log(`probe costs ${pct(median(costs))} of a core at 250 ms (median of ${IDLE_PAIRS}; target ≤ 1%); the 10 ms loop-delay monitor alone ${pct(median(floors))}`);
  if (memory.length > 0) console.log(`probe adds ${median(memory).toFixed(2)} MB of resident anonymous memory (median of ${IDLE_PAIRS}): what each fork of the server copies`);
  else console.log('probe memory: skipped (no /proc on this platform)');
} finally {
  await channel.close();
}

/** Spawns timed per process, processes per side, and memory added, for the fork-cost figure. */
const SPAWNS_PER_PROCESS = 200;
const FORK_ROUNDS = 6;
const EXTRA_MB = 16;

/**
 * What a resident MB of a server costs each of its spawns: the median
 * synchronous time of spawn('true') in fresh Node processes, alternately with and
 * without EXTRA_MB more touched memory (separate processes: memory a process has
 * touched stays resident after it is freed). Turns the probe's memory above into
 * µs per spawn.
 */
async function forkCostPerMb() {
  const timeIn = async (extraMb) => {
    const script = `
      const { spawn } = require('node:child_process');
      const { once } = require('node:events');
      globalThis.held = Buffer.alloc(${extraMb} * 1024 * 1024, 1); // touched, and kept to the end
      (async () => {
        const times = [];
        for (let i = 0; i < ${SPAWNS_PER_PROCESS}; i += 1) {
          const started = performance.now();
          const child = spawn('true', [], { stdio: 'ignore' });
          times.push(performance.now() - started);
          await once(child, 'exit');
        }
        console.log(times.sort((a, b) => a - b)[times.length >> 1] * 1000);
      })();`;
    const { stdout } = await promisify(execFile)(process.execPath, ['-e', script]);
    return Number(stdout);
  };
  const runs = { without: [], with: [] };
  for (let round = 0; round < FORK_ROUNDS; round += 1) {
    for (const extra of round % 2 === 0 ? [false, true] : [true, false]) {
      runs[extra ? 'with' : 'without'].push(await timeIn(extra ? EXTRA_MB : 0));
    }
  }
  const median = (list) => list.sort((a, b) => a - b)[list.length >> 1];
  const perMb = (median(runs.with) - median(runs.without)) / EXTRA_MB;
  console.log(
    `a spawn takes ${median(runs.without).toFixed(0)} µs, ${median(runs.with).toFixed(0)} µs with ${EXTRA_MB} MB more resident: ` +
      `~${perMb.toFixed(0)} µs per MB per spawn (what the probe's memory costs a server that spawns)`,
  );
}

await forkCostPerMb();
