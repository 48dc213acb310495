// Outside load does not flip the advice: when the cores are MACHINE_CPU_LIMIT_PCT
// busy, the limit is the cores whoever used them, and the other users are named
// with their share; the "other processes" figure is the same in every line that
// names it. On made-up runs, then end to end with a throttled busy loop beside a
// server whose threadpool fills the cores.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { currentOf } from '../../src/report/run-advice-summary.js';
import { reasonLines } from '../../src/report/reasons.js';
import { formatDiagnosis } from '../../src/report/diagnose-text.js';
import { reasonsSection } from '../../src/report/html/parts.js';
import { spawnCli } from '../helpers/harness.js';
import { fixture, assertNothingLeft, busyLoop, stopLoop, BUSY_LOOP_NAME } from './helpers.js';
import { ownRun } from './own-runs.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-outside-load-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const words = (run) => adviceParagraphs(adviseRun(adviceInput(run)), currentOf(run)).join('\n');

/** A single process whose threadpool fills the cores (1.65 of 2), beside another program's 0.3 cores. */
function saturatedBeside(others) {
  const run = ownRun({ pool: false, rps: 670, cpus: [95, 96], spawnedCpuPct: 0, generator: { cpuPct: 5, elu: 0.08 }, main: { elu: 0.32, blocked: 0, cpuPct: 160, loopCpuPct: 30, waitPct: 2 } });
  run.samples.otherUsers = { elapsedMs: 10_000, cores: others.reduce((s, u) => s + u.cores, 0), users: others, rest: { names: 0, cores: 0 } };
  return run;
}

test('cores 95% busy with an outside program at 0.3 cores: the limit is the cores, and the program is named with its share', () => {
  const run = saturatedBeside([{ name: 'node', count: 1, cores: 0.3, pids: [900], parents: [1] }]);
  const advice = adviseRun(adviceInput(run));
  const enough = advice.reasons.find((r) => r.id === 'one-process-enough');
  assert.equal(enough.figures.limit, 'cores', JSON.stringify(enough.figures));
  const text = words(run);
  assert.match(text, /^One process is enough: the limit is the cores/m);
  assert.match(text, /The cores ran at 96% of what they allow; other processes used 0\.3 of them \(node ×1: 0\.3 cores\)\./);
  assert.doesNotMatch(text, /load offered|cores had room|nothing it runs on was saturated/i);
  // Below the threshold, the model's share decides as before (the load offered).
  const calm = saturatedBeside([{ name: 'node', count: 1, cores: 0.3, pids: [900], parents: [1] }]);
  calm.samples.system.cpus = [80, 80];
  assert.notEqual(adviseRun(adviceInput(calm)).reasons.find((r) => r.id === 'one-process-enough').figures.limit, 'cores');
});

test('"other processes" is one figure in every line: the contended doubt, the other-users reason and the Other CPU line', () => {
  // The cores' busy time leaves nothing for others (1.9 of 1.9 is the run's), while /proc counted node ×2 at 0.7.
  const run = ownRun({ pool: false, rps: 400, cpus: [95, 95], spawnedCpuPct: 0, generator: { cpuPct: 10, elu: 0.1 }, main: { elu: 0.5, blocked: 0, cpuPct: 180, loopCpuPct: 40, waitPct: 30 } });
  run.samples.otherUsers = { elapsedMs: 10_000, cores: 0.7, users: [{ name: 'node', count: 2, cores: 0.7, pids: [900, 901], parents: [1] }], rest: { names: 0, cores: 0 } };
  const text = words(run);
  assert.doesNotMatch(text, /other processes used 0\.0 cores/);
  assert.match(text, /other processes used 0\.7 (cores|of them)/);
  assert.match(text, /node ×2 used 0\.7 of the 2 CPUs/);
  assert.deepEqual(reasonLines(run).filter((l) => l.startsWith('Other CPU')), ['Other CPU  node ×2: 0.7 cores']);
  // The HTML table lists the names not shown and the total the advice names.
  run.samples.otherUsers.rest = { names: 3, cores: 0.1 };
  run.samples.otherUsers.cores = 0.8;
  const html = reasonsSection(run);
  assert.match(html, /<td[^>]*>3 more<\/td><td[^>]*><\/td><td[^>]*>0\.10<\/td>/);
  assert.match(html, /<td[^>]*>all other processes<\/td><td[^>]*><\/td><td[^>]*>0\.80<\/td>/);
  assert.match(words(run), /other processes used 0\.8 (cores|of them)/);
});

test("diagnose's short-of-CPU title puts the other user before the server's pid", () => {
  const diagnosis = { verdict: { id: 'cpu-starved', kind: 'problem', where: 'pid 4242', figures: { waitingForCpu: 0.6, onCpu: 0.3, cores: 2, takenBy: [{ name: 'node', count: 1, cores: 0.2, downstream: null, competes: false }] } }, findings: [] };
  const [line] = formatDiagnosis(diagnosis, null);
  assert.equal(line, 'Verdict    the machine is short of CPU (node took 0.2 of the 2 CPUs): the server waited for a core (pid 4242)');
});

test('end to end: a busy loop at ~0.3 of a core beside a server whose threadpool fills both cores', async () => {
  const loop = busyLoop();
  try {
    const out = join(dir, 'run.json');
    const { code, out: text, err } = await spawnCli(['run', '-d', '3s', '-w', '500ms', '--out', out, '--', process.execPath, fixture('pbkdf2')], { env: { ...process.env, CI: 'true' } });
    assert.equal(code, 0, err);
    const result = JSON.parse(readFileSync(out, 'utf8'));
    const busy = Math.min(...result.samples.system.cpus);
    assert.ok(busy >= 90, `the threadpool and the loop keep both cores busy: ${result.samples.system.cpus}`);
    const rec = result.recommendation;
    const limits = rec.reasons.map((r) => r.figures?.limit).filter(Boolean);
    assert.ok(limits.includes('cores') && !limits.includes('load'), `the cores named as the limit, never the load offered: ${JSON.stringify(rec.reasons.map((r) => [r.id, r.figures?.limit]))}`);
    const block = text.slice(text.indexOf('Recommendation'));
    assert.doesNotMatch(block, /load offered|cores had room|nothing it runs on was saturated/i, block);
    // The loop is an other CPU user; the server's own processes never are.
    const users = result.samples.otherUsers.users;
    // Listed by name among the busiest few, or (on a crowded shared host) counted in the rest.
    const named = users.find((u) => u.name === BUSY_LOOP_NAME);
    if (named) assert.ok(named.pids.includes(loop.pid) && named.cores < 0.6, `the loop (pid ${loop.pid}): ${JSON.stringify(named)}`);
    else assert.ok(result.samples.otherUsers.rest.names > 0, `the loop among the other users: ${JSON.stringify(result.samples.otherUsers)}`);
    assert.ok(!users.some((u) => u.pids.includes(result.target.pid)), `the server (pid ${result.target.pid}) is not another user`);
    // One "other processes" figure: whatever line names it says the measured total.
    const total = result.samples.otherUsers.cores.toFixed(1);
    for (const said of block.replace(/\s+/g, ' ').matchAll(/other processes used (\d+\.\d)/g)) assert.equal(said[1], total, block);
    await assertNothingLeft({ pids: [result.target.pid], marker: fixture('pbkdf2') });
  } finally {
    await stopLoop(loop);
  }
});

test('"had room" beside an ELU over the limit says the busy time it was judged on (a fixed rate)', () => {
  // ELU 0.95, of which 45% waiting for a core: busy ~50% once the wait is taken out. At a fixed rate
  // the loop given the core would idle between requests: it had room.
  const run = ownRun({ pool: false, rps: 300, cpus: [70, 70], spawnedCpuPct: 0, main: { elu: 0.95, blocked: 0, cpuPct: 45, loopCpuPct: 45, waitPct: 45 } });
  run.plan.load.rate = 300;
  run.load.mode = 'open';
  const text = words(run);
  assert.match(text, /Its main thread had room \(busy \d+% once its wait for a core is taken out, ELU 0\.95 with it, blocked in spawn 0%; it is the limit from 90% busy or 25% in spawn\)\./);
  assert.doesNotMatch(text, /had room \(ELU 0\.95/);
  // A closed loop at the same figures never idled: its main thread is the limit, contention and all.
  const closed = ownRun({ pool: false, rps: 300, cpus: [70, 70], spawnedCpuPct: 0, main: { elu: 0.95, blocked: 0, cpuPct: 45, loopCpuPct: 45, waitPct: 45 } });
  const advice = adviseRun(adviceInput(closed));
  assert.ok(advice.reasons.some((r) => r.id === 'main-busy'), JSON.stringify(advice.reasons.map((r) => r.id)));
  assert.doesNotMatch(words(closed), /had room|load offered/);
  // An open loop far beyond what was answered (--rate 2000 on 2 connections, 300 answered) kept its connections full as a
  // closed loop does: "had room … One process is enough" was said of a server spinning 2 ms a request at ELU 0.91.
  const beyond = ownRun({ pool: false, rps: 300, cpus: [70, 70], spawnedCpuPct: 0, main: { elu: 0.95, blocked: 0, cpuPct: 45, loopCpuPct: 45, waitPct: 45 } });
  beyond.plan.load.rate = 2000;
  beyond.load.mode = 'open';
  assert.ok(adviseRun(adviceInput(beyond)).reasons.some((r) => r.id === 'main-busy'), JSON.stringify(adviseRun(adviceInput(beyond)).reasons.map((r) => r.id)));
  assert.doesNotMatch(words(beyond), /had room|load offered/);
});

test("the HTML report's CPU chart and process table include the spawned commands", async () => {
  const { renderRunHtml } = await import('../../src/report/html/run-html.js');
  const { syntheticRun } = await import('../analysis/synthetic-runs.js');
  const run = syntheticRun({ pool: false, rps: 300, spawnedCpuPct: 120, main: { elu: 0.95, blocked: 0.6, cpuPct: 45, loopCpuPct: 45, waitPct: 1 } });
  run.samples.processes[0].series = [0, 1, 2, 3].map((i) => ({ t: 1000 + i * 500, cpuPct: 45, rssBytes: 6e7, requests: null, probe: { elu: 0.9, loopDelay: { p99Ms: 20 }, spawn: { blockedFraction: 0.6 } } }));
  run.samples.spawned.series = [0, 1, 2, 3].map((i) => ({ t: 1000 + i * 500, cpuPct: 120 }));
  const html = renderRunHtml(run);
  const table = html.slice(html.indexOf('<h2>Processes</h2>'));
  assert.match(table, /spawned commands<\/td><td[^>]*>–<\/td>(<td[^>]*>[^<]*<\/td>){4}<td[^>]*>120%<\/td>/);
  const chart = html.slice(html.indexOf('CPU per process'), html.indexOf('<h2>Processes</h2>'));
  assert.match(chart, /spawned commands/, 'a line for the spawned commands in the CPU chart');
  const elu = html.slice(html.indexOf('Event-loop utilisation per process'), html.indexOf('Time blocked in spawn per process'));
  assert.doesNotMatch(elu, /spawned commands/, 'no empty line for them where they have no figure');
});

test('the live advice (dashboard) reads the other processes as the finished run does, and a core without a reading is not idle', async () => {
  const { emptyAdviceWindow, foldSample, windowInput } = await import('../../src/analysis/advice-window.js');
  const otherUsers = { elapsedMs: 3000, cores: 0.7, users: [{ name: 'node', count: 2, cores: 0.7, pids: [900, 901], parents: [1] }], rest: { names: 0, cores: 0 } };
  const sample = { processes: [], spawned: { cpuPct: 0 }, system: { cpus: [95, 95] }, throttling: [], otherUsers };
  let window = foldSample(emptyAdviceWindow(), sample);
  window = foldSample(window, { ...sample, system: { cpus: [null, null] }, otherUsers: { ...otherUsers, cores: 0.8 } });
  const input = windowInput(window, { plan: null, machine: { cores: 2 }, tick: { elapsedMs: 3000, requests: 900 } });
  assert.equal(input.otherCores, 0.8, 'the latest running figure');
  assert.deepEqual(input.otherUsers.map((u) => u.name), ['node']);
  assert.equal(input.systemCpuPct, 95, 'the interval without a reading is left out');
});

test('under a budget narrower than the host (1 CPU of affinity on 2), the other processes, measured host-wide, are not "of them"', () => {
  const run = saturatedBeside([{ name: 'node', count: 1, cores: 0.7, pids: [900], parents: [1] }, { name: 'wrk', count: 1, cores: 0.3, pids: [901], parents: [1] }]);
  run.machine.cpu = { budget: 1, source: 'affinity', hostThreads: 2, physicalCores: 2, capacity: 1, cpus: [0], limits: { quota: null, cpuset: 2, affinity: 1 }, smt: null, unreadable: null };
  run.samples.system.cpus = [100, 100];
  const text = words(run);
  // It said "1 CPU (CPU affinity) ran at 100% of what they allow; other processes used 1.0 of them": 2 CPUs' worth on 1.
  assert.match(text, /ran at 100% of what they allow; other processes used 1\.0 cores of the host's 2 CPUs \(node ×1: 0\.7 cores, wrk ×1: 0\.3 cores\)\./);
  assert.doesNotMatch(text, /of them/);
});
