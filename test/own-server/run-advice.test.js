// The recommendation of `run -- <command>` on made-up runs of a user's server:
// its size in its knob's words with the tune that confirms it, node:cluster's
// policy where work was lopsided, what the figures support when no knob was
// found, and for a single process whether a pool would help or what limits it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { formatSummary } from '../../src/report/summary.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { currentOf } from '../../src/report/run-advice-summary.js';
import { evenWorkers } from '../analysis/synthetic-runs.js';
import { ownRun } from './own-runs.js';

const advise = (run) => adviseRun(adviceInput(run));
const ids = (advice) => advice.reasons.map((r) => r.id);
const words = (run) => adviceParagraphs(advise(run), currentOf(run));

/** 4 cluster workers on 2 saturated cores (the figures of run-advice.test.js's first case): the model says 2. */
const saturated = (extra = {}) => ({
  poolSize: 4, rps: 700, cpus: [98, 99], spawnedCpuPct: 90,
  workers: evenWorkers(4, { rps: 700, elu: 0.95, cpuPct: 22, waitPct: 40 }).map((w) => ({ ...w, loopCpuPct: 20 })),
  spawnsPerSec: [70, 70, 70, 70],
  ...extra,
});

test('a 4-worker cluster sized by WORKERS: set WORKERS=2, confirmed by a tune with --size-env WORKERS', () => {
  const run = ownRun(saturated({ env: { WORKERS: '4' } }));
  const advice = advise(run);
  assert.equal(advice.size, 2);
  assert.equal(advice.policy, 'rr', "node:cluster's default policy, kept: the work was even");
  assert.deepEqual(ids(advice).slice(0, 3), ['cores-limit', 'size-down', 'cluster-even']);
  assert.deepEqual(advice.confirmWith.argv, ['tune', '--sizes', '1,2,3,4', '--size-env', 'WORKERS', '-c', '30', '--', 'node', 'server.js']);
  assert.equal(advice.confirmWith.command, 'spawnbench tune --sizes 1,2,3,4 --size-env WORKERS -c 30 -- node server.js');
  assert.equal(advice.confirmWith.steps, 12);
  assert.equal(advice.knob.source, 'environment');
  assert.equal(words(run)[0], 'Set WORKERS=2 (this run: 4 workers).');
  assert.deepEqual(JSON.parse(JSON.stringify(advice)), advice, 'plain JSON');
  const summary = formatSummary({ ...run, recommendation: advice });
  assert.match(summary, /^spawnbench run · command 'node server.js'$/m);
  assert.match(summary, /^size 4 from WORKERS=4 in the environment; 4 cluster workers seen$/m);
  assert.match(summary, /^served by pid 100 \(cluster primary\), policy rr \(node:cluster's default\)$/m);
  assert.match(summary, /spawnbench tune --sizes 1,2,3,4 --size-env WORKERS -c 30 -- node server\.js/);
  assert.match(summary, /^worker +spawns\/s +ELU +CPU\npid 200 +70 +0\.95 +22%$/m, 'no request counts from a user\'s server: its spawns per second instead');
});

test('sized by --workers N in its arguments: the confirm puts {size} where the 4 was', () => {
  const run = ownRun(saturated({ command: ['node', 'server.js', '--workers', '4'], kind: 'processes' }));
  const advice = advise(run);
  assert.equal(advice.size, 2);
  assert.equal(advice.policy, null, 'a server that balances with its own code has no policy to advise');
  assert.ok(ids(advice).includes('own-balancing'));
  assert.deepEqual(advice.confirmWith.argv.slice(-5), ['--', 'node', 'server.js', '--workers', '{size}']);
  assert.ok(!advice.confirmWith.argv.includes('--size-env'));
  assert.equal(words(run)[0], 'Start it with --workers 2 (this run: 4 workers).');
});

test("node:cluster with NODE_CLUSTER_SCHED_POLICY=none and lopsided workers: rr, and the confirm compares both", () => {
  const run = ownRun(saturated({ env: { WORKERS: '4' }, clusterPolicy: 'none', spawnsPerSec: [190, 40, 40, 10] }));
  const advice = advise(run);
  assert.equal(advice.policy, 'rr');
  const reason = advice.reasons.find((r) => r.id === 'cluster-lopsided');
  assert.equal(reason.figures.from, 'none');
  assert.ok(Math.abs(reason.figures.balance.ratio - 2.71) < 0.01, `190 of 280 spawns is 2.71× an even share (${reason.figures.balance.ratio})`);
  assert.deepEqual(advice.confirmWith.argv.slice(0, 9), ['tune', '--sizes', '1,2,3,4', '--size-env', 'WORKERS', '--policy-env', 'NODE_CLUSTER_SCHED_POLICY', '--balance-policies', 'none,rr']);
  assert.equal(advice.confirmWith.steps, 24);
  assert.equal(words(run)[0], 'Set WORKERS=2 and NODE_CLUSTER_SCHED_POLICY=rr (this run: 4 workers).');
});

test('no knob found: what the figures support, and how to give tune the knob', () => {
  const run = ownRun(saturated({ env: { WEB_CONCURRENCY: '8' } }));
  const advice = advise(run);
  assert.equal(advice.size, 2);
  assert.equal(advice.confirmWith, null, 'nothing tune could be given as it is');
  const noKnob = advice.reasons.find((r) => r.id === 'no-knob');
  assert.deepEqual(noKnob.figures.ignored.map((i) => [i.name, i.why]), [['WEB_CONCURRENCY', 'seen-differs']]);
  assert.deepEqual(noKnob.figures.example, ['tune', '--sizes', '1,2,3,4', '--size-env', 'NAME', '-c', '30', '--', 'node', 'server.js']);
  const lines = words(run);
  assert.equal(lines[0], 'The figures support 2 workers (this run: 4 seen); no size knob was found to set.');
  assert.ok(lines.some((l) => l.includes('spawnbench tune --sizes 1,2,3,4 --size-env NAME -c 30 -- node server.js')), lines.join('\n'));
});

test('a single process blocked in spawn with idle cores: a pool of processes would help', () => {
  // Main: ELU 0.95, blocked 0.6, CPU 45%, 300 req/s; commands 20%, generator 5%: 0.7 of 2 cores used.
  const run = ownRun({ pool: false, rps: 300, cpus: [40, 30], spawnedCpuPct: 20, main: { elu: 0.95, blocked: 0.6, cpuPct: 45, loopCpuPct: 45, waitPct: 1 } });
  const advice = advise(run);
  assert.equal(advice.strategy, null, 'no built-in strategy is named for a user\'s server');
  const help = advice.reasons.find((r) => r.id === 'own-pool-would-help');
  assert.ok(help, ids(advice).join(','));
  assert.equal(help.figures.poolKind, 'processes');
  assert.ok(help.figures.idleCores > 1 && help.figures.idleCores < 1.5, `idle cores ${help.figures.idleCores}`);
  assert.ok(advice.size >= 1);
  assert.equal(advice.confirmWith, null, 'a single process has no knob to sweep');
  // In a container with 1.5 CPUs (src/machine/cpu-budget.js): 1.5 − 0.7 used = 0.8 idle.
  const capped = ownRun({ pool: false, rps: 300, cpus: [40, 30], spawnedCpuPct: 20, main: { elu: 0.95, blocked: 0.6, cpuPct: 45, loopCpuPct: 45, waitPct: 1 } });
  capped.machine.cpu = { budget: 1.5, source: 'quota' };
  const cappedHelp = advise(capped).reasons.find((r) => r.id === 'own-pool-would-help');
  assert.ok(Math.abs(cappedHelp.figures.idleCores - 0.8) < 0.01, `idle ${cappedHelp.figures.idleCores}`);
  assert.ok(words(capped).some((l) => l.includes("0.8 cores of the CPU budget's 1.5 stayed idle")), words(capped).join('\n'));
  const lines = words(run);
  assert.match(lines[0], /^A pool would help: \d+ workers? in processes \(node:cluster, or child_process\.fork workers that spawn\), about [\d,]+ req\/s, [\d.]+× this run's 300\.$/);
  assert.ok(lines.some((l) => l.includes('Worker threads would not help here')));
});

test('a single process with room: one process is enough, and what the limit is', () => {
  const idle = ownRun({ pool: false, rps: 300, cpus: [20, 20], spawnedCpuPct: 10, main: { elu: 0.3, blocked: 0.05, cpuPct: 20, loopCpuPct: 20, waitPct: 0 } });
  const advice = advise(idle);
  assert.deepEqual(ids(advice).slice(0, 2), ['main-has-room', 'one-process-enough']);
  assert.equal(advice.reasons[1].figures.limit, 'load');
  assert.match(words(idle)[0], /^One process is enough: the limit is the load offered, not the server/);

  const busyCores = ownRun({ pool: false, rps: 500, cpus: [99, 99], spawnedCpuPct: 120, generator: { cpuPct: 20, elu: 0.2 }, main: { elu: 0.5, blocked: 0.1, cpuPct: 58, loopCpuPct: 50, waitPct: 5 } });
  const cores = advise(busyCores).reasons.find((r) => r.id === 'one-process-enough');
  assert.equal(cores.figures.limit, 'cores', JSON.stringify(cores));
  assert.match(words(busyCores)[0], /^One process is enough: the limit is the cores/);
  assert.equal(advise(busyCores).confirmWith, null, 'no knob: nothing to sweep');
  // Its knob is libuv's pool (its threads did a quarter of its work): the sweep of that knob all the same.
  const pooled = ownRun({ pool: false, rps: 300, cpus: [20, 20], spawnedCpuPct: 10, env: { UV_THREADPOOL_SIZE: '4' }, poolThreads: { count: 10, cpuPct: 12 }, main: { elu: 0.3, blocked: 0.05, cpuPct: 20, loopCpuPct: 20, waitPct: 0 } });
  assert.equal(pooled.sizeKnob.name, 'UV_THREADPOOL_SIZE');
  assert.deepEqual(advise(pooled).confirmWith.argv, ['tune', '--sizes', '1,2,3,4', '--size-env', 'UV_THREADPOOL_SIZE', '-c', '30', '--', 'node', 'server.js']);
});

test('a single process whose requests wait outside it, every connection waiting: the limit is what it waits on, not "the load offered"', () => {
  // A proxy through a 4-socket agent to a 20 ms downstream: 30 connections, 162 req/s, p50 169 ms, ELU 0.14 (0.9 ms of
  // work a request). It read "the limit is the load offered, not the server … (more connections …)", beside diagnose's
  // "requests wait on I/O or a downstream"; wrk at 60 and 120 connections served no more (171, 158, 133 req/s).
  const waiting = ownRun({ pool: false, rps: 162, cpus: [30, 25], spawnedCpuPct: 0, main: { elu: 0.14, blocked: 0, cpuPct: 13, loopCpuPct: 13, waitPct: 0 } });
  waiting.load.latency = { ...waiting.load.latency, meanMs: 169, p50Ms: 165 };
  const enough = advise(waiting).reasons.find((r) => r.id === 'one-process-enough');
  assert.equal(enough.figures.limit, 'load', 'the same id and limit for --json readers');
  assert.equal(enough.figures.waitMs, 169);
  const lines = words(waiting);
  assert.equal(lines[0], 'One process is enough: the limit is what its requests wait on (a database, a downstream, a timer), not the server: more connections serve more only if that has room.');
  assert.ok(lines.some((l) => l.includes('Each request took 169 ms (mean), of which its main thread worked ~0.9 ms')), lines.join('\n'));
  assert.ok(!lines.some((l) => /load offered/.test(l)), lines.join('\n'));
  // Fast requests (the connections, not a wait, set the rate): the load offered, as before.
  const fast = structuredClone(waiting);
  Object.assign(fast.load, { rps: 12000, latency: { ...fast.load.latency, meanMs: 2.5, p50Ms: 2.4 } });
  assert.equal(advise(fast).reasons.find((r) => r.id === 'one-process-enough').figures.waitMs, undefined);
  // Connections not all waiting on the server (Little's law off by 2.4×): not shown as a wait.
  const loose = structuredClone(waiting);
  loose.load.latency = { ...loose.load.latency, meanMs: 70, p50Ms: 68 };
  assert.equal(advise(loose).reasons.find((r) => r.id === 'one-process-enough').figures.waitMs, undefined);
});

test('an open loop far beyond what its few connections carried: the limit is the connections (or what they wait on), not "the load offered"', () => {
  // --rate 50000 -c 2 on hello-world: 20,295 req/s answered at ELU 0.76, 150,350 requests not sent on time. It read
  // "One process is enough: the limit is the load offered, not the server", of a load it offered 2.5× more of.
  const fast = ownRun({ pool: false, rps: 20295, cpus: [73, 77], spawnedCpuPct: 0, main: { elu: 0.76, blocked: 0, cpuPct: 70, loopCpuPct: 70, waitPct: 0 } });
  Object.assign(fast.plan.load, { rate: 50000, connections: 2 });
  fast.load.connections = 2;
  fast.load.latency = { ...fast.load.latency, meanMs: 911, p50Ms: 990 };
  const enough = advise(fast).reasons.find((r) => r.id === 'one-process-enough');
  assert.equal(enough.figures.limit, 'load', 'the same id and limit for --json readers');
  assert.deepEqual(enough.figures.offered, { rate: 50000, connections: 2, rps: 20295 });
  const lines = words(fast);
  assert.equal(lines[0], 'One process is enough: the limit is its 2 connections, not the server: the open loop asked 50,000 req/s and they carried 20,295; nothing it runs on was saturated (raise --connections to offer more).');
  assert.ok(!lines.some((l) => /load offered/.test(l)), lines.join('\n'));
  // --rate 200 -c 2 on a server waiting 20 ms a request: 95 req/s, each request 2 / 95 s = 21 ms on its connection, its
  // latency (mostly the schedule's wait) 800 ms: the wait outside it, as on a closed loop.
  const waiting = ownRun({ pool: false, rps: 95, cpus: [8, 6], spawnedCpuPct: 0, main: { elu: 0.05, blocked: 0, cpuPct: 6, loopCpuPct: 6, waitPct: 0 } });
  Object.assign(waiting.plan.load, { rate: 200, connections: 2 });
  waiting.load.connections = 2;
  waiting.load.latency = { ...waiting.load.latency, meanMs: 802, p50Ms: 803 };
  const wait = advise(waiting).reasons.find((r) => r.id === 'one-process-enough');
  assert.equal(Math.round(wait.figures.waitMs), 21, JSON.stringify(wait));
  const waitLines = words(waiting);
  assert.equal(waitLines[0], 'One process is enough: the limit is what its requests wait on (a database, a downstream, a timer), not the server: more connections serve more only if that has room.');
  assert.ok(waitLines.some((l) => l.includes('Each request took 21 ms (its connections over the throughput: the open loop kept every one busy)')), waitLines.join('\n'));
  // The rate answered (an open loop within reach): the load offered, as before.
  const within = structuredClone(fast);
  within.plan.load.rate = 21000;
  assert.equal(advise(within).reasons.find((r) => r.id === 'one-process-enough').figures.offered, undefined);
  assert.match(words(within)[0], /^One process is enough: the limit is the load offered/);
});

test('a single process whose requests wait in the queue of its own main thread (many connections) is not told they wait on a downstream', () => {
  // Hello-world at -c 1000: 26,391 req/s, mean 37.3 ms, p50 31.7 ms, ELU 0.85 (0.03 ms of work a request): it read "the
  // limit is what its requests wait on (a database, a downstream, a timer) … the rest was a wait outside it". 1,000
  // connections × 0.03 ms is 32 ms: the wait was behind the other requests on its one main thread.
  const queued = ownRun({ pool: false, rps: 26391, cpus: [76, 77], spawnedCpuPct: 0, main: { elu: 0.85, blocked: 0, cpuPct: 87, loopCpuPct: 87, waitPct: 0 } });
  queued.load.connections = 1000;
  queued.plan.load.connections = 1000;
  queued.load.latency = { ...queued.load.latency, meanMs: 37.3, p50Ms: 31.7 };
  const enough = advise(queued).reasons.find((r) => r.id === 'one-process-enough');
  assert.equal(enough?.figures.waitMs, undefined, JSON.stringify(enough));
  const lines = words(queued);
  assert.ok(!lines.some((l) => /what its requests wait on|a wait outside it/.test(l)), lines.join('\n'));
});

test('a single process whose own backend (a process it started, no worker) never idled: that process is the limit, not "the load offered"', () => {
  // A front that proxies every request to a backend it spawns beside itself (node backend.js, no IPC): the backend at
  // ELU 1.00 while the front and the cores had room was "One process is enough: the limit is the load offered, not the
  // server: nothing it runs on was saturated".
  const run = ownRun({ pool: false, rps: 106, cpus: [60, 45], spawnedCpuPct: 0, main: { elu: 0.21, blocked: 0, cpuPct: 10, loopCpuPct: 10, waitPct: 0 } });
  const backend = structuredClone(run.samples.processes[0]);
  Object.assign(backend, { key: '300', pid: 300, role: 'worker', label: 'pid 300' });
  Object.assign(backend.summary, { elu: 1, cpuPct: 52, loopCpuPct: 52, waitPct: 1 });
  run.samples.processes.push(backend);
  const advice = advise(run);
  assert.deepEqual(advice.reasons.find((r) => r.id === 'one-process-enough')?.figures, { limit: 'child', label: 'pid 300', elu: 1, cpuPct: 52, eluLimit: 0.9 });
  const lines = words(run);
  assert.equal(lines[0], 'One process is enough: the limit is pid 300, a process it started, not its main thread.');
  assert.ok(lines.includes('- A process it started, pid 300 (no worker it balances requests over), was busy (ELU 1.00, CPU 52%) while the cores had room: more processes of the server would all wait on it. Make that process faster, or run more of it.'), lines.join('\n'));
  assert.ok(!lines.some((l) => /nothing it runs on was saturated/i.test(l)), lines.join('\n'));
  // The same backend with room: the load offered, as before.
  backend.summary.elu = 0.4;
  assert.equal(advise(run).reasons.find((r) => r.id === 'one-process-enough')?.figures.limit, 'load');
});

test('a node:cluster whose workers each listen on a port of their own: the worker that answered nothing on the port measured is named, and nothing is sized', () => {
  // Workers on PORT and PORT + 7 (behind a proxy): "The figures support 3 workers … lopsided (1.99×) even with rr:
  // keep-alive connections stay with the worker that took them", where the second worker never served this port.
  const run = ownRun({ poolSize: 2, rps: 904, workers: evenWorkers(2, { rps: 904 }), cpus: [98, 58] });
  const [, busy, idle] = run.samples.processes;
  busy.summary.routes = [{ route: 'GET /', requests: 2715 }];
  idle.summary.routes = [];
  run.server.otherPorts = [4007];
  const advice = advise(run);
  assert.equal(advice.size, null);
  assert.deepEqual(advice.reasons.map((r) => r.id), ['workers-unreached']);
  assert.deepEqual(advice.reasons[0].figures, { idle: ['pid 201'], workers: 2, connections: 30, otherPorts: [4007] });
  const lines = words(run);
  assert.equal(lines[0], 'No recommendation: not every worker serves the port measured.');
  assert.match(lines[1], /^- Worker pid 201 answered no request while node:cluster's round-robin spread 30 connections over its 2 workers, and the server also listens on port 4007: it serves another port, or started after the connections were made; either way this run cannot size the workers\./);
  // Listening on no other port, an idle worker started after the connections were made: sized as before (lopsided).
  run.server.otherPorts = [];
  assert.notDeepEqual(ids(advise(run)), ['workers-unreached']);
  // Nor is a worker the kernel left idle under 'none', nor one whose routes the probe did not count.
  run.server = { ...run.server, otherPorts: [4007], clusterPolicy: 'none' };
  assert.notDeepEqual(ids(advise(run)), ['workers-unreached']);
  run.server.clusterPolicy = null;
  delete idle.summary.routes;
  assert.notDeepEqual(ids(advise(run)), ['workers-unreached']);
});

test('too short a run on a server with a knob: cannot tell, and the sweep to run instead', () => {
  const run = ownRun(saturated({ env: { WORKERS: '4' }, durationMs: 1000 }));
  const advice = advise(run);
  assert.equal(advice.size, null);
  assert.deepEqual(ids(advice), ['too-short']);
  assert.deepEqual(advice.confirmWith.argv.slice(0, 5), ['tune', '--sizes', '1,2,3,4', '--size-env', 'WORKERS']);
});

test('a server that ended during the run is not sized: the advice says why there is none', () => {
  // Seen: prlimit --cpu=2 spawnbench run -d 8s -- node server.js: the server was killed by SIGKILL at 5 s,
  // "FAILED: … was killed by SIGKILL during the run", then "One process is enough: the limit is the cores".
  const run = ownRun({ pool: false, rps: 19_000, cpus: [100, 100], spawnedCpuPct: 0, main: { elu: 0.67, blocked: 0, cpuPct: 40, loopCpuPct: 35, waitPct: 30 } });
  run.durationMs = 5000;
  const sized = adviseRun(adviceInput(run));
  assert.notEqual(sized.reasons[0].id, 'server-exited');
  run.serverExit = { code: null, signal: 'SIGKILL' };
  const advice = adviseRun(adviceInput(run));
  assert.equal(advice.size, null);
  assert.equal(advice.reasons[0].id, 'server-exited');
  const words = adviceParagraphs(advice, run.plan.target).join('\n');
  assert.match(words, /^No recommendation: the server ended during the run\.$/m);
  assert.match(words, /It was killed by SIGKILL while measured \(FAILED above\)/);
  assert.doesNotMatch(words, /One process is enough|the limit is/);
});

test('a server restarted during the run (nodemon) is not sized: the advice says why there is none', () => {
  // Seen: spawnbench run -- node fixtures/servers/restarts.js: "the server restarted 1 time: pid A → B" in the
  // errors, beside "One process is enough: the limit is the cores".
  const run = ownRun({ pool: false, rps: 19_000, cpus: [100, 100], spawnedCpuPct: 0, main: { elu: 0.67, blocked: 0, cpuPct: 40, loopCpuPct: 35, waitPct: 30 } });
  const sized = adviseRun(adviceInput(run));
  assert.ok(!sized.reasons.some((r) => r.id === 'server-restarted'));
  assert.match(adviceParagraphs(sized, run.plan.target).join('\n'), /One process is enough/, 'advised without a restart');
  run.samples = { ...run.samples, serverRestarts: [{ from: 4100, to: 4200, t: 1500 }] };
  const advice = adviseRun(adviceInput(run));
  assert.equal(advice.size, null);
  assert.deepEqual(advice.reasons.map((r) => r.id), ['server-restarted']);
  const words = adviceParagraphs(advice, run.plan.target).join('\n');
  assert.match(words, /^No recommendation: the server restarted during the run\.$/m);
  assert.match(words, /It restarted once while measured \(pid 4100 → 4200\)/);
  assert.doesNotMatch(words, /One process is enough|the limit is/);
});
