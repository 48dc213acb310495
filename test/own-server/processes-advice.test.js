// A single process that spawns nothing, its main thread the limit, a core idle
// (issue 37 items 3 and 7): the advice is more processes, measured by
// `tune --processes`, never "spawning in workers"; a WORKERS=1 its code reads is a knob.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { currentOf } from '../../src/report/run-advice-summary.js';
import { nodeScriptCommand, deployProcesses, processGain } from '../../src/analysis/process-count.js';
import { processSweepSentences } from '../../src/report/own-server.js';
import { ownRun } from './own-runs.js';

const advise = (run) => adviseRun(adviceInput(run));
const ids = (advice) => advice.reasons.map((r) => r.id);
const words = (run) => adviceParagraphs(advise(run), currentOf(run));

/** The Fastify API of the issue: 73 req/s, the main thread busy 99%, one of 2 cores 77% idle, no spawns. */
const cpuRoute = (extra = {}) => ownRun({
  pool: false, rps: 73, cpus: [100, 23], spawnedCpuPct: 0, generator: { cpuPct: 4, elu: 0.04 },
  main: { elu: 0.99, blocked: 0, cpuPct: 99, loopCpuPct: 99, waitPct: 0 },
  ...extra,
});

test('one process, its main thread the limit, a core idle, no spawns: 2 processes, confirmed by tune --processes 1,2', () => {
  const run = cpuRoute({ command: ['node', 'api.js'] });
  const advice = advise(run);
  assert.equal(advice.size, 2, ids(advice).join(','));
  assert.ok(ids(advice).includes('more-processes'), ids(advice).join(','));
  assert.ok(!ids(advice).includes('no-gain-expected') && !ids(advice).includes('own-pool-would-help'), ids(advice).join(','));
  const more = advice.reasons.find((r) => r.id === 'more-processes').figures;
  assert.ok(more.gain > 1.5 && more.gain <= 2.01, `gain ${more.gain}`);
  assert.notEqual(advice.confidence, 'high', 'a gain from one run is not measured');
  assert.deepEqual(advice.confirmWith.argv, ['tune', '--processes', '1,2', '-c', '30', '--', 'node', 'api.js']);
  const lines = words(run);
  const text = lines.join('\n');
  assert.match(lines[0], /^More processes would help: run 2 processes of it \(node:cluster, pm2 start api\.js -i 2, or 2 replicas\), about \d+ req\/s, [\d.]+× this run's 73\.$/);
  assert.match(text, /in-memory state .* is per process/);
  assert.doesNotMatch(text, /[Ss]pawning in workers|One process is enough/, text);
});

test('spawn advice stays for a server that spawns: the same figures with spawns seen', () => {
  const run = cpuRoute({ spawnedCpuPct: 20, main: { elu: 0.99, blocked: 0.02, cpuPct: 99, loopCpuPct: 99, waitPct: 0 } });
  const advice = advise(run);
  assert.ok(!ids(advice).includes('more-processes'), ids(advice).join(','));
  assert.ok(ids(advice).some((id) => id === 'own-pool-would-help' || id === 'no-gain-expected'), ids(advice).join(','));
});

test('on one core a second process has nothing to run on: no more processes, and no spawn words', () => {
  const run = cpuRoute({ cpus: [100], cores: 1 });
  const advice = advise(run);
  assert.equal(advice.size, null);
  assert.ok(ids(advice).includes('processes-no-gain'), ids(advice).join(','));
  const text = words(run).join('\n');
  assert.equal(advice.reasons.find((r) => r.id === 'processes-no-gain').figures.limit, 'cores');
  assert.equal(words(run)[0], 'One process is enough: the limit is the cores, not the process.');
  assert.match(text, /more processes would leave the cores the limit at ~\d+ req\/s, no more than this run's 73/);
  assert.doesNotMatch(text, /[Ss]pawning in workers/);
});

test('npm start: the advice stands, tune --processes needs the node command', () => {
  const run = cpuRoute({ command: ['npm', 'start'] });
  const advice = advise(run);
  assert.equal(advice.size, 2);
  assert.equal(advice.confirmWith, null);
  assert.match(words(run).join('\n'), /give tune the node command that starts it: spawnbench tune --processes 1,2 -- node <entry file>/);
});

test('WORKERS=1 on a single process is its knob: set WORKERS=2, confirmed by a tune over 1 and 2', () => {
  const run = cpuRoute({ env: { WORKERS: '1' } });
  assert.deepEqual([run.sizeKnob.source, run.sizeKnob.name, run.sizeKnob.value, run.sizeKnob.ignored], ['environment', 'WORKERS', 1, []]);
  const advice = advise(run);
  assert.equal(advice.size, 2);
  assert.deepEqual(advice.confirmWith.argv, ['tune', '--sizes', '1,2', '--size-env', 'WORKERS', '-c', '30', '--', 'node', 'server.js']);
  assert.match(words(run)[0], /^More processes would help: set WORKERS=2, /);
  // With room on its main thread the knob is kept all the same, and its sweep is 1 against 2.
  const idle = ownRun({ pool: false, rps: 300, cpus: [20, 20], spawnedCpuPct: 0, env: { WORKERS: '1' }, main: { elu: 0.3, blocked: 0, cpuPct: 20, loopCpuPct: 20, waitPct: 0 } });
  assert.deepEqual(advise(idle).confirmWith.argv, ['tune', '--sizes', '1,2', '--size-env', 'WORKERS', '-c', '30', '--', 'node', 'server.js']);
  // A run too short to size anything proposes the same 1-against-2 sweep.
  const short = advise(cpuRoute({ env: { WORKERS: '1' }, durationMs: 1000 }));
  assert.ok(ids(short).includes('too-short'), ids(short).join(','));
  assert.deepEqual(short.confirmWith.argv.slice(0, 5), ['tune', '--sizes', '1,2', '--size-env', 'WORKERS']);
  // WORKERS=3 with one process seen is still not believed: the tree contradicts it.
  assert.equal(cpuRoute({ env: { WORKERS: '3' } }).sizeKnob.ignored[0].why, 'seen-differs');
});

test('a run too short to size a single process with no knob: the sweep over process counts, which needs none', () => {
  const short = advise(cpuRoute({ command: ['node', 'api.js'], durationMs: 1000 }));
  assert.ok(ids(short).includes('too-short') && ids(short).includes('no-knob'), ids(short).join(','));
  assert.deepEqual(short.confirmWith.argv, ['tune', '--processes', '1,2', '-c', '30', '--', 'node', 'api.js']);
  assert.equal(advise(cpuRoute({ command: ['npm', 'start'], durationMs: 1000 })).confirmWith, null);
});

test('the command shapes --processes takes, and how to deploy N processes', () => {
  assert.deepEqual(nodeScriptCommand(['node', '--max-old-space-size=200', '-r', 'dotenv/config', 'api.js', '--verbose']).parts,
    { node: 'node', flags: ['--max-old-space-size=200', '-r', 'dotenv/config'], script: 'api.js', args: ['--verbose'] });
  assert.deepEqual(nodeScriptCommand(['/usr/local/bin/node', 'server.mjs']).parts.script, 'server.mjs');
  assert.deepEqual(nodeScriptCommand(['npm', 'start']), { ok: false, why: 'not-node', word: 'npm' });
  assert.deepEqual(nodeScriptCommand(['node', '-e', 'x']), { ok: false, why: 'inline', word: '-e' });
  assert.deepEqual(nodeScriptCommand(['node', '--inspect']), { ok: false, why: 'no-script', word: '' });
  assert.deepEqual(deployProcesses(['node', '--enable-source-maps', 'api.js', '--port', '80'], 3).pm2,
    ['pm2', 'start', 'api.js', '-i', '3', '--node-args=--enable-source-maps', '--', '--port', '80']);
  assert.deepEqual(processGain({ size: 2, sizes: [{ size: 1, rps: 73 }, { size: 2, rps: 146 }] }), { size: 2, rps: 146, baseSize: 1, baseRps: 73, gain: 2 });
  const sentences = processSweepSentences({
    plan: { knobs: { processes: true }, base: { target: { command: ['node', 'api.js'] } } },
    recommendation: { size: 2, sizes: [{ size: 1, rps: { median: 73 } }, { size: 2, rps: { median: 146 } }] },
  });
  assert.equal(sentences[0], '2 processes served 146 req/s, 2.00× what 1 process served (73).');
  assert.match(sentences[1], /^To run 2 processes: `pm2 start api\.js -i 2` \(PM2's cluster mode\), node:cluster in your entry file .* or 2 replicas behind a load balancer\. Each process has its own memory: in-memory state/);
  assert.deepEqual(processSweepSentences({ plan: { knobs: { sizeEnv: 'W' } }, recommendation: { size: 2 } }), []);
  // tune --processes 1,2 --rate 50: "1 process measured best (50 req/s): more processes did not serve more here", where
  // the open loop's rate, served in full at every size, set the throughput.
  const rateBound = (findings) => processSweepSentences({
    plan: { knobs: { processes: true }, base: { target: { command: ['node', 'api.js'] } } },
    recommendation: { size: 1, sizes: [{ size: 1, rps: { median: 50 } }, { size: 2, rps: { median: 49.9 } }], bottleneck: { findings } },
  })[0];
  assert.equal(rateBound([{ kind: 'rate' }]), '1 process measured best (50 req/s): every size served the rate offered, so throughput cannot tell them apart here (the bottleneck above).');
  assert.equal(rateBound([]), '1 process measured best (50 req/s): more processes did not serve more here.');
  // A tune stopped (Ctrl-C) before its second size, or whose larger sizes failed: none larger was measured, so nothing
  // says more processes did not serve more.
  const only = (sizes, size = 1) => processSweepSentences({
    plan: { knobs: { processes: true }, base: { target: { command: ['node', 'api.js'] } } },
    recommendation: { size, sizes },
  });
  assert.deepEqual(only([{ size: 1, rps: { median: 946 } }]), []);
  assert.deepEqual(only([{ size: 1, rps: { median: 946 } }, { size: 2, rps: null }]), []);
  const two = only([{ size: 1, rps: null }, { size: 2, rps: { median: 946 } }], 2);
  assert.equal(two.length, 1);
  assert.match(two[0], /^To run 2 processes: /);
});

test('the tune --processes sweep a slow server gets carries a -d, and its time estimate counts those longer steps', () => {
  const slow = advise(cpuRoute({ command: ['node', 'api.js'], rps: 15 }));
  const argv = slow.confirmWith.argv;
  const d = argv.indexOf('-d');
  assert.ok(d > 0, argv.join(' '));
  const stepMs = Number.parseFloat(argv[d + 1]) * 1000;
  // It said "6 steps, about 42 s" beside -d 14s: 7 s a step, half of one step's measuring alone.
  assert.ok(slow.confirmWith.expectedMs >= slow.confirmWith.steps * stepMs, `${slow.confirmWith.expectedMs} ms for ${slow.confirmWith.steps} steps of ${argv[d + 1]}`);
});

test('a single process with room, on cores full mostly of other processes\' work: one process is enough, and the cores are not called its limit', () => {
  // Seen: a server waiting 50 ms on a timer per request (485 req/s, ELU 0.10, 0.1 of 2 cores) beside a test suite on
  // 1.3 cores: "One process is enough: the limit is the cores, not the process."
  const run = ownRun({ pool: false, rps: 485, cpus: [100, 100], spawnedCpuPct: 0, generator: { cpuPct: 2, elu: 0.03 }, main: { elu: 0.1, blocked: 0, cpuPct: 8, loopCpuPct: 8, waitPct: 5 } });
  run.samples.otherUsers = { users: [{ name: 'node', count: 14, cores: 1.3 }], cores: 1.3 };
  const advice = advise(run);
  assert.equal(advice.reasons.find((r) => r.id === 'one-process-enough')?.figures.limit, 'cores', ids(advice).join(','));
  assert.match(words(run)[0], /^One process is enough: its main thread had room; the cores were full, but mostly of other processes' work \(1\.\d of the 2\), not the server's\.$/);
  // Cores full of the server's own work keep their words.
  const own = ownRun({ pool: false, rps: 485, cpus: [100, 100], spawnedCpuPct: 120, generator: { cpuPct: 30, elu: 0.3 }, main: { elu: 0.3, blocked: 0, cpuPct: 30, loopCpuPct: 30, waitPct: 5 } });
  own.samples.otherUsers = { users: [{ name: 'node', count: 2, cores: 0.2 }], cores: 0.2 };
  assert.equal(words(own)[0], 'One process is enough: the limit is the cores, not the process.');
});

test('one CPU shared with other processes: the gain is its wait for that CPU, not a second process ("run 1 processes … 2.5×")', () => {
  // A server pinned to one CPU beside a busy loop: ELU 0.99, on the CPU 38% of the time, waiting for it the rest.
  const run = cpuRoute({ command: ['node', 'api.js'], rps: 216, cores: 1, cpus: [100], main: { elu: 0.99, blocked: 0, cpuPct: 38, loopCpuPct: 38, waitPct: 62 } });
  const advice = advise(run);
  assert.equal(advice.size, null, ids(advice).join(','));
  assert.equal(advice.confirmWith, null);
  assert.ok(ids(advice).includes('processes-no-gain') && !ids(advice).includes('more-processes'), ids(advice).join(','));
  const text = words(run).join('\n');
  assert.doesNotMatch(text, /run 1 processes|More processes would help|--processes 1,1/, text);
  assert.match(text, /the machine's one CPU has room for one main thread, not two: more processes would share it, not add to it\. Its main thread had the CPU 38% of the time; with it to itself, one process would serve ~\d+ req\/s \(this run: 216\)/);
});

test('a server on another runtime (python3 -m http.server) is not sized by its main thread: no recommendation, its process CPU said', async () => {
  // Seen: "One process is enough: the limit is the load offered … Its main thread had room (on a CPU 11% of the time)"
  // of a python server whose process used 83% of a core on its threads; diagnose told it to run under `diagnose -- <command>`, as it had.
  const { probeStatus } = await import('../../src/sample/index.js');
  const { unseenLines } = await import('../../src/report/diagnose-words.js');
  const probe = probeStatus({}, 'node', false, 'python3.11');
  assert.equal(probe.program, 'python3.11');
  const run = cpuRoute({ command: ['python3', '-m', 'http.server'], rps: 557, main: { elu: null, blocked: null, cpuPct: 83, loopCpuPct: 11, waitPct: 12 } });
  run.samples.probe = probe;
  const advice = advise(run);
  assert.equal(advice.size, null);
  assert.deepEqual(ids(advice).filter((id) => id !== 'other-users'), ['other-runtime']);
  const lines = words(run);
  assert.equal(lines[0], 'No recommendation: the server is not Node.js.');
  assert.match(lines.join('\n'), /It runs python3\.11, not Node\.js: .*its process used 83% of a core in all, its main thread 11%/);
  assert.doesNotMatch(lines.join('\n'), /had room|load offered/);
  // A node server without the probe is sized as before.
  assert.notDeepEqual(ids(advise(cpuRoute({ command: ['node', 'api.js'] }))), ['other-runtime']);
  assert.doesNotMatch(unseenLines([{ id: 'probe', reason: probe.reason, mode: 'command' }])[0], /run it under spawnbench diagnose/);
  assert.match(unseenLines([{ id: 'probe', reason: '--no-probe', mode: 'command' }])[0], /drop --no-probe to see them$/);
  assert.match(unseenLines([{ id: 'probe', reason: 'the server was not started by spawnbench', mode: 'url' }])[0], /run it under spawnbench diagnose -- <command> to see them$/);
});

test('a job of its own beside it (a process it started, serving nothing) uses the cores too: not "a core stayed idle", no second process', () => {
  // Seen: sh -c 'node job.js & exec node server.js', the job at 84% CPU, the server's main thread the limit at 475 req/s on
  // 2 cores 92% and 99% busy: "1.0 core of the CPU budget's 2 stayed idle … 2 processes … ~968 req/s, 2.0× this run's 475".
  const run = ownRun({ pool: false, rps: 475, cpus: [92, 99], spawnedCpuPct: 0, generator: { cpuPct: 4, elu: 0.03 }, main: { elu: 1, blocked: 0, cpuPct: 95, loopCpuPct: 92, waitPct: 8 } });
  const job = structuredClone(run.samples.processes[0]);
  Object.assign(job, { key: '300', pid: 300, role: 'worker', label: 'pid 300' });
  Object.assign(job.summary, { elu: 0.91, cpuPct: 84, loopCpuPct: 84, waitPct: 10, routes: undefined });
  run.samples.processes.push(job);
  const advice = advise(run);
  assert.equal(advice.size, null, ids(advice).join(','));
  const noGain = advice.reasons.find((r) => r.id === 'processes-no-gain');
  assert.ok(noGain, ids(advice).join(','));
  assert.ok(noGain.figures.expectedRps < 600, `about ${noGain.figures.expectedRps} req/s on the 1.2 cores the job leaves`);
  const text = words(run).join('\n');
  assert.doesNotMatch(text, /More processes would help|stayed idle|run 1 processes/, text);
  assert.match(text, /more processes would share them, not add to them/);
});

test('a server that answered nothing while its loop was held from the start gets no recommendation naming the loop, not "too short"', () => {
  const run = cpuRoute();
  const spinning = { pid: 100, label: 'main', silentMs: 1750, cpuPct: 99, fromStart: true };
  run.load = { ...run.load, requests: 0, rps: 0, errors: { ...run.load.errors, total: 0 }, spinning };
  const advice = advise(run);
  assert.deepEqual(ids(advice), ['loop-held']);
  assert.match(words(run).join('\n'), /No recommendation: the server answered nothing, its event loop held/);
});
