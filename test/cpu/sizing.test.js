// Everything that said "cores" reads the CPU budget: busy against it, the pool
// estimate's bound, the bottleneck finder, run's recommendation and tune's limit
// sentence, on made-up figures (no machine involved).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuView } from '../../src/analysis/cpu-view.js';
import { findBottleneck } from '../../src/analysis/bottleneck.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { recommend } from '../../src/analysis/recommend.js';
import { emptyAdviceWindow, foldSample, windowInput } from '../../src/analysis/advice-window.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { wordRecommendation, wordBottleneck } from '../../src/report/tune-words.js';
import { defaultPoolSize, defaultSizes } from '../../src/plan/option-declarations.js';
import { syntheticRun, evenWorkers } from '../analysis/synthetic-runs.js';
import { sweep, CALM } from '../analysis/sweeps.js';
import { ownRun } from '../own-server/own-runs.js';

const budget = (over) => ({ budget: 2, source: 'host', hostThreads: 2, physicalCores: 2, capacity: over?.budget ?? 2, cpus: [0, 1], limits: {}, smt: null, unreadable: null, ...over });
const THROTTLED = [{ roles: ['server', 'spawnbench'], quotaCpus: 1, cgroup: '/q', version: 1, periods: 100, throttledPeriods: 87, fraction: 0.87, throttledMs: 4000, usageCpus: null }];

test('the default pool and sweep follow the budget, a fraction rounded up', () => {
  assert.equal(defaultPoolSize(budget({ budget: 1, source: 'quota' })), 1);
  assert.equal(defaultPoolSize(budget({ budget: 1.5, source: 'quota' })), 2);
  assert.equal(defaultPoolSize(budget({ budget: 0.5, source: 'quota' })), 1);
  assert.equal(defaultPoolSize(budget({ budget: 24, hostThreads: 24, physicalCores: 16 })), 24);
  assert.deepEqual(defaultSizes(defaultPoolSize(budget({ budget: 1, source: 'quota' }))), [1, 2]);
  assert.deepEqual(defaultSizes(defaultPoolSize(budget({ budget: 1.5, source: 'quota' }))), [1, 2, 3, 4]);
});

test('busy against the budget: the host mean, the budget CPUs, or the quota\'s usage', () => {
  const cpus = [95, 20];
  assert.equal(cpuView({ machine: { cpu: budget() }, cpus }).busyPct, 57.5);
  assert.equal(cpuView({ machine: { cpu: budget({ budget: 1, source: 'affinity', cpus: [0] }) }, cpus }).busyPct, 95);
  const quota = { cpu: budget({ budget: 1, source: 'quota' }) };
  assert.equal(cpuView({ machine: quota, cpus, ownCpuPct: 97 }).busyPct, 97, 'v1 without cpuacct beside cpu: what spawnbench saw');
  assert.equal(cpuView({ machine: quota, cpus, throttling: [{ ...THROTTLED[0], usageCpus: 0.99 }], ownCpuPct: 50 }).busyPct, 99);
  assert.equal(cpuView({ machine: quota, cpus, throttling: THROTTLED }).throttle.fraction, 0.87);
  // A saved result from before the budget: its cores and the host mean, as before.
  const old = cpuView({ machine: { cores: 2 }, cpus });
  assert.deepEqual([old.budget, old.source, old.busyPct, old.throttle], [2, 'host', 57.5, null]);
});

test('the bottleneck finder names a throttled quota first, and no second "machine" finding for the same CPU', () => {
  const found = findBottleneck({ ...CALM, cores: 1, budgetSource: 'quota', hostCpus: 2, budgetBusyPct: 99, throttle: { fraction: 0.87, throttledMs: 4000, quotaCpus: 1, roles: ['server', 'spawnbench'], periods: 100 } });
  assert.deepEqual(found.findings.map((f) => f.kind), ['cpu-quota']);
  assert.equal(wordBottleneck(found).text, "the container's CPU quota (1.0 CPU) is the limit: throttled in 87% of periods (spawnbench and its load generator share it); more workers only split the same quota");
  const under = findBottleneck({ ...CALM, throttle: { fraction: 0.2, throttledMs: 10, quotaCpus: 1, roles: ['server'], periods: 100 } });
  assert.deepEqual(under.findings, []);
});

test('"cores busy" is against the budget: one CPU of affinity full while the host is half idle', () => {
  const signals = { ...CALM, systemCpuPct: 55, cores: 1, budgetSource: 'affinity', hostCpus: 2, budgetBusyPct: 98 };
  const found = wordBottleneck(findBottleneck(signals));
  assert.deepEqual(found.findings.map((f) => f.kind), ['machine']);
  assert.match(found.text, /^the CPU budget is the limit \(1 CPU by CPU affinity, 98% busy; CPUs used: /);
  // The bare machine: as before.
  const bare = wordBottleneck(findBottleneck({ ...CALM, systemCpuPct: 95, cores: 2, budgetSource: 'host', hostCpus: 2, budgetBusyPct: 95 }));
  assert.match(bare.text, /^the machine is the limit \(cores 95% busy; cores used of 2: /);
});

test("run's recommendation under a throttled 1-CPU quota names the quota and sizes for one CPU", () => {
  const run = syntheticRun({ poolSize: 4, rps: 375, workers: evenWorkers(4, { rps: 375, elu: 0.9, blocked: 0.7, cpuPct: 7 }), spawnedCpuPct: 30, cpus: [60, 55] });
  run.machine.cpu = budget({ budget: 1, source: 'quota', capacity: 1 });
  run.samples.throttling = THROTTLED;
  const advice = adviseRun(adviceInput(run));
  assert.equal(advice.reasons[0].id, 'quota-limit');
  assert.ok(advice.size <= 2, `sized for one CPU, not four workers: ${advice.size}`);
  const words = adviceParagraphs(advice, run.plan.target);
  assert.match(words.join('\n'), /The container's CPU quota \(1\.0 CPU\) is the limit: throttled in 87% of periods/);
  assert.match(words.join('\n'), /so 1\.0 CPU \(cgroup quota\) serves at most ~\d+ req\/s|the pool allowed ~\d+ req\/s, 1\.0 CPU \(cgroup quota\) ~\d+/);
  assert.doesNotMatch(words.join('\n'), /the cores|taken out above/);
  // The quota's stops stay in the workers' busy time: the quota is where the server will run.
  assert.match(words.join('\n'), /The workers were the limit: busy 90% each, the quota's stops included/);
});

test('the live window reads the same budget and throttling as the finished run', () => {
  let window = emptyAdviceWindow();
  const sample = { processes: [], spawned: { cpuPct: 30 }, system: { cpus: [90, 10] }, throttling: [{ ...THROTTLED[0], periods: 10, throttledPeriods: 9, throttledMs: 400, fraction: 0.9 }] };
  window = foldSample(foldSample(window, sample), { ...sample, throttling: [{ ...sample.throttling[0], throttledPeriods: 7, fraction: 0.7 }] });
  const input = windowInput(window, { plan: null, machine: { cores: 2, cpu: budget({ budget: 1, source: 'affinity', cpus: [0] }) }, tick: { elapsedMs: 3000, requests: 10 } });
  assert.equal(input.cores, 1);
  assert.equal(input.budgetBusyPct, 90);
  assert.equal(input.throttle.fraction, 0.8);
  assert.equal(input.throttle.throttledMs, 800);
});

test("tune's limit sentence is never 'no limit reached' when throughput fell past the best size", () => {
  // Under a quota the curve falls past 1 worker; at 1 worker nothing sampled is at its limit.
  const quiet = { ...CALM, cores: 1, budgetSource: 'quota', hostCpus: 2, budgetBusyPct: 70 };
  const steps = sweep({ sizes: [1, 2, 3, 4], rps: (n) => (n === 1 ? 378 : 350), signals: () => quiet });
  const rec = wordRecommendation(recommend(steps));
  const last = rec.sentences.at(-1);
  assert.doesNotMatch(last, /no limit reached/);
  assert.match(last, /throughput fell past it \(378 → 350 req\/s at 2 workers\), though no sampled figure reached its limit \(main thread busy 40%/);
  assert.match(last, /CPU budget 70% busy/);
  assert.ok(rec.reasons.includes('limit-not-sampled'));

  // Where the next size shows the quota throttling, the sentence names it.
  const throttled = sweep({ sizes: [1, 2, 3, 4], rps: (n) => (n === 1 ? 378 : 350), signals: (n) => (n === 1 ? quiet : { ...quiet, throttle: { fraction: 0.9, throttledMs: 3000, quotaCpus: 1, roles: ['server', 'spawnbench'], periods: 50 } }) });
  const named = wordRecommendation(recommend(throttled));
  assert.match(named.sentences.at(-1), /throughput fell past it \(378 → 350 req\/s at 2 workers\): at 2 workers, the container's CPU quota \(1\.0 CPU\) is the limit: throttled in 90% of periods/);
  assert.ok(named.reasons.includes('cpu-quota'));

  // Still rising at the largest size: then nothing limited it, and it says so.
  const rising = wordRecommendation(recommend(sweep({ sizes: [1, 2, 4], rps: (n) => 100 * n, signals: () => quiet })));
  assert.match(rising.sentences.at(-1), /no limit reached in the samples .* up to the largest size measured/);
});

test('a budget narrower than the host is named in the recommendation even when it did not throttle', () => {
  const run = syntheticRun({ poolSize: 4, rps: 375, workers: evenWorkers(4, { rps: 375 }), cpus: [60, 55] });
  run.machine.cpu = budget({ budget: 1, source: 'quota', capacity: 1 });
  run.samples.throttling = [{ ...THROTTLED[0], throttledPeriods: 3, fraction: 0.03 }];
  const words = adviceParagraphs(adviceInput(run) && adviseRun(adviceInput(run)), run.plan.target).join('\n');
  assert.match(words, /Sized for 1\.0 CPU \(cgroup quota\), not the host's 2 CPUs; the quota throttled 3% of periods, under the 25% where it is the limit\./);
  const affinity = syntheticRun({ poolSize: 4, rps: 375, workers: evenWorkers(4, { rps: 375 }), cpus: [60, 55] });
  affinity.machine.cpu = budget({ budget: 1, source: 'affinity', cpus: [0], capacity: 1 });
  assert.match(adviceParagraphs(adviseRun(adviceInput(affinity)), affinity.plan.target).join('\n'), /Sized for 1 CPU \(CPU affinity\), not the host's 2 CPUs\./);
  const bare = syntheticRun({ poolSize: 4, rps: 375, workers: evenWorkers(4, { rps: 375 }) });
  assert.ok(!adviseRun(adviceInput(bare)).reasons.some((r) => r.id === 'cpu-budget' || r.id === 'quota-limit'));
});

test('a budget the run did not fill on a full host: the host is named, not "no limit"', () => {
  const signals = { ...CALM, systemCpuPct: 98, cores: 1, budgetSource: 'quota', hostCpus: 2, budgetBusyPct: 48, workersCpuPct: 20, spawnedCpuPct: 20, mainCpuPct: 5, generatorCpuPct: 3 };
  const found = wordBottleneck(findBottleneck(signals));
  assert.deepEqual(found.findings.map((f) => f.kind), ['host']);
  assert.equal(found.text, 'the host is the limit (its 2 CPUs 98% busy, other processes 1.5): the run got 48% of its 1.0 CPU (cgroup quota); measure on a quieter host');
  assert.deepEqual(findBottleneck({ ...signals, systemCpuPct: 60 }).findings, []);
});

test('SMT in the estimate: siblings add a share of a core to the "serve at most" bound, not a core', async () => {
  const { estimatePoolSize } = await import('../../src/analysis/pool-size.js');
  const run = syntheticRun({ poolSize: 4, rps: 700, workers: evenWorkers(4), cpus: [60, 60, 60, 60] });
  const smt = { ...budget({ budget: 4, hostThreads: 4, physicalCores: 2, cpus: [0, 1, 2, 3], capacity: 2 + 2 * 0.25 }), smt: { threadsPerCore: 2, siblingShare: 0.25 } };
  const flat = estimatePoolSize(adviceInput({ ...run, machine: { ...run.machine, cores: 4, cpu: budget({ budget: 4, hostThreads: 4, physicalCores: 4, cpus: [0, 1, 2, 3], capacity: 4 }) } }));
  const shared = estimatePoolSize(adviceInput({ ...run, machine: { ...run.machine, cores: 4, cpu: smt } }));
  assert.ok(Math.abs(shared.bounds.cores / flat.bounds.cores - 2.5 / 4) < 1e-9, `${shared.bounds.cores} vs ${flat.bounds.cores}`);
  assert.equal(shared.availableCores, 2.5);
  const words = adviceParagraphs(adviseRun(adviceInput({ ...run, machine: { ...run.machine, cores: 4, cpu: smt } })), run.plan.target).join('\n');
  assert.match(words, /so 4 CPUs \(2\.5 cores' worth: SMT\) serve at most ~\d+ req\/s/);
});

test('without a limit every figure is as before: the same advice and bottleneck with the host budget as without one', () => {
  const cases = [
    syntheticRun({ poolSize: 4, rps: 700, workers: evenWorkers(4), cpus: [60, 60] }),
    syntheticRun({ poolSize: 2, rps: 900, workers: evenWorkers(2, { rps: 900, elu: 0.95, cpuPct: 45 }), cpus: [97, 95] }),
    syntheticRun({ poolSize: 8, rps: 500, workers: evenWorkers(8, { rps: 500, elu: 0.3, cpuPct: 10, waitPct: 8 }), cpus: [99, 98], generator: { cpuPct: 95, elu: 0.97 } }),
    syntheticRun({ pool: false, rps: 650, main: { elu: 0.97, blocked: 0.4, cpuPct: 90, loopCpuPct: 88, waitPct: 3 }, cpus: [80, 70] }),
  ];
  for (const run of cases) {
    const withBudget = { ...run, machine: { ...run.machine, cpu: budget({ budget: 2, capacity: 2 }) }, samples: { ...run.samples, throttling: [] } };
    assert.deepEqual(adviseRun(adviceInput(withBudget)), adviseRun(adviceInput(run)));
    const signals = (r) => { const s = adviceInput(r); return { ...CALM, systemCpuPct: s.systemCpuPct, cores: s.cores, budgetSource: s.budgetSource, hostCpus: s.hostCpus, budgetBusyPct: s.budgetBusyPct }; };
    assert.deepEqual(findBottleneck(signals(withBudget)).findings.map((f) => f.kind), findBottleneck(signals(run)).findings.map((f) => f.kind));
  }
});

test("run -- <command>: a single process throttled by its quota is told the quota is the limit, not the load offered", () => {
  // Seen inside a 0.3-CPU v1 quota: ELU 0.65, on a CPU 8%, the rest the quota's stops (run-queue wait).
  const run = ownRun({ pool: false, rps: 68, cpus: [98, 98], spawnedCpuPct: 0, main: { elu: 0.65, blocked: 0, cpuPct: 25, loopCpuPct: 8, waitPct: 57 } });
  run.machine.cpu = budget({ budget: 0.3, source: 'quota', capacity: 0.3 });
  run.samples.throttling = [{ ...THROTTLED[0], quotaCpus: 0.3, throttledPeriods: 100, fraction: 1, throttledMs: 3110 }];
  const advice = adviseRun(adviceInput(run));
  const ids = advice.reasons.map((r) => r.id);
  assert.equal(ids[0], 'quota-limit', ids.join(', '));
  const enough = advice.reasons.find((r) => r.id === 'one-process-enough');
  assert.equal(enough.figures.limit, 'quota');
  assert.equal(enough.figures.busy, 0.65, "the quota's stops stay in the main thread's busy time");
  const words = adviceParagraphs(advice, {}).join('\n');
  assert.match(words, /^One process is enough: the limit is its CPU quota \(0\.3 CPU\)\.$/m);
  assert.match(words, /The container's CPU quota \(0\.3 CPU\) is the limit: throttled in 100% of periods/);
  assert.doesNotMatch(words, /load offered|nothing it runs on was saturated|had room/);
  // Under the threshold the quota is a budget, not the limit: the advice is as before.
  run.samples.throttling = [{ ...THROTTLED[0], quotaCpus: 0.3, throttledPeriods: 3, fraction: 0.03 }];
  assert.notEqual(adviseRun(adviceInput(run)).reasons.find((r) => r.id === 'one-process-enough')?.figures.limit, 'quota');
});

test("run -- <command>: a quota on spawnbench only, throttled, sizes nothing: the server ran outside it", () => {
  // spawnbench in a 0.3-CPU v1 cgroup, its server moved out of it: "One process is enough: the limit is its CPU
  // quota (0.3 CPU) … a second process would get no more than the same 0.3 CPU", of a server under no quota.
  const run = ownRun({ pool: false, rps: 12917, cpus: [46, 55], spawnedCpuPct: 0, main: { elu: 0.51, blocked: 0, cpuPct: 49, loopCpuPct: 45, waitPct: 3 } });
  run.samples.throttling = [{ ...THROTTLED[0], roles: ['spawnbench'], quotaCpus: 0.3, throttledPeriods: 21, periods: 22, fraction: 0.95, throttledMs: 1140 }];
  const advice = adviseRun(adviceInput(run));
  assert.equal(advice.size, null);
  assert.deepEqual(advice.reasons.map((r) => r.id), ['quota-limit']);
  const words = adviceParagraphs(advice, {}).join('\n');
  assert.match(words, /^No recommendation: spawnbench's own CPU quota held back the load, not the server's\.$/m);
  assert.match(words, /Spawnbench's own CPU quota \(0\.3 CPU\) is the limit: throttled in 95% of periods, so the load generator is held back; run spawnbench outside that cgroup/);
  assert.doesNotMatch(words, /One process is enough|second process/);
  // The same quota on the server too is the server's limit, as before.
  run.samples.throttling = [{ ...run.samples.throttling[0], roles: ['server', 'spawnbench'] }];
  assert.equal(adviseRun(adviceInput(run)).reasons.find((r) => r.id === 'one-process-enough')?.figures.limit, 'quota');
});

test("other processes, measured host-wide, are a share of the host's CPUs, not of a quota they are not under", () => {
  const run = syntheticRun({ poolSize: 2, rps: 375, workers: evenWorkers(2, { rps: 375 }), cpus: [95, 95] });
  run.machine.cpu = budget({ budget: 0.5, source: 'quota', capacity: 0.5 });
  run.samples.otherUsers = { elapsedMs: 10_000, cores: 1.4, users: [{ name: 'npm install', count: 1, cores: 1.4, pids: [900], parents: [1] }], rest: { names: 0, cores: 0 } };
  const advice = adviseRun(adviceInput(run));
  const others = advice.reasons.find((r) => r.id === 'other-users');
  assert.equal(others?.figures.cores, 2, JSON.stringify(others));
  const words = adviceParagraphs(advice, run.plan.target).join('\n');
  assert.match(words, /npm install ×1 used 1\.4 of the host's 2 CPUs/);
  assert.doesNotMatch(words, /of the 0\.5 CPUs/);
  // The bottleneck finder's budget sentence says the same.
  const found = wordBottleneck(findBottleneck({ ...CALM, cores: 0.5, budgetSource: 'affinity', hostCpus: 2, budgetBusyPct: 98, systemCpuPct: 95, otherUsers: run.samples.otherUsers.users }));
  assert.doesNotMatch(found.text, /of the 0\.5 CPUs/);
  assert.match(found.text, /used 1\.4 of the host's 2 CPUs/);
});

test("a single process's idle room under a quota: other processes take from the host, not from the quota", () => {
  // 1.5-CPU quota on a 2-CPU host; the server used 0.7, other processes 0.5: 0.8 of the quota stayed idle (not 0.3).
  const capped = ownRun({ pool: false, rps: 300, cpus: [60, 60], spawnedCpuPct: 20, main: { elu: 0.95, blocked: 0.6, cpuPct: 45, loopCpuPct: 45, waitPct: 1 } });
  capped.machine.cpu = budget({ budget: 1.5, source: 'quota', capacity: 1.5 });
  const help = adviseRun(adviceInput(capped)).reasons.find((r) => r.id === 'own-pool-would-help');
  assert.ok(Math.abs(help.figures.idleCores - 0.8) < 0.01, `idle ${help.figures.idleCores}`);
  // Where the host itself is full, the host bounds it: 2 − 0.7 − 1.1 others = 0.2.
  const full = ownRun({ pool: false, rps: 300, cpus: [90, 90], spawnedCpuPct: 20, main: { elu: 0.95, blocked: 0.6, cpuPct: 45, loopCpuPct: 45, waitPct: 1 } });
  full.machine.cpu = budget({ budget: 1.5, source: 'quota', capacity: 1.5 });
  const fullHelp = adviseRun(adviceInput(full)).reasons.find((r) => r.id === 'own-pool-would-help' || r.id === 'no-gain-expected');
  assert.ok(Math.abs(fullHelp.figures.idleCores - 0.2) < 0.01, `idle ${fullHelp.figures.idleCores}`);
});

test('under a throttled 1.5-CPU quota one run cannot tell 2 workers from 4: the smaller is advised, the spread said and swept', () => {
  // Workers at ELU 0.9 with the quota's stops in it: the model sizes 4 (the cap for 1.5 CPUs), where tune's best varied 2–4.
  const run = syntheticRun({ poolSize: 4, rps: 340, workers: evenWorkers(4, { rps: 340, elu: 0.9, blocked: 0.6, cpuPct: 20, waitPct: 30 }), spawnedCpuPct: 60, cpus: [75, 75] });
  run.machine.cpu = budget({ budget: 1.5, source: 'quota', capacity: 1.5 });
  run.samples.throttling = [{ ...THROTTLED[0], quotaCpus: 1.5, fraction: 0.6, throttledPeriods: 60 }];
  const advice = adviseRun(adviceInput(run));
  const spread = advice.reasons.find((r) => r.id === 'quota-spread');
  assert.ok(spread, advice.reasons.map((r) => r.id).join(', '));
  assert.equal(spread.figures.low, 2);
  assert.ok(spread.figures.high > 2, `the model's size: ${spread.figures.high}`);
  assert.equal(advice.size, 2, 'the smaller of the sizes the run cannot tell apart');
  assert.notEqual(advice.confidence, 'high');
  for (let n = 2; n <= spread.figures.high; n++) assert.ok(advice.confirmWith.argv.join(' ').match(/--sizes (\S+)/)[1].split(',').includes(String(n)), `the sweep measures ${n}`);
  const words = adviceParagraphs(advice, run.plan.target).join('\n');
  assert.match(words, /Under the 1\.5-CPU quota, throttled in 60% of periods, one run cannot tell 2 workers from \d/);
  // Without throttling, the model's size stands.
  run.samples.throttling = [{ ...THROTTLED[0], quotaCpus: 1.5, fraction: 0.05, throttledPeriods: 5 }];
  assert.ok(!adviseRun(adviceInput(run)).reasons.some((r) => r.id === 'quota-spread'));
});

test("a throttled quota on the server alone bounds the pool model's CPU, not the host's cores", () => {
  // Seen: cluster-env.js with 2 workers inside a 0.5-CPU v1 quota, spawnbench outside it on 2 cores: 161 req/s,
  // "the pool allowed ~183 req/s, the cores ~697" and "at the ~697 req/s the cores allow": the server cannot get past 0.5 CPU.
  const run = syntheticRun({ poolSize: 2, rps: 161, workers: evenWorkers(2, { rps: 161, elu: 0.88, blocked: 0.6, cpuPct: 13, waitPct: 40 }), spawnedCpuPct: 18, cpus: [100, 100], generator: { cpuPct: 1, elu: 0.04 } });
  run.machine.cpu = budget({ budget: 2, capacity: 2 });
  run.samples.throttling = [{ ...THROTTLED[0], roles: ['server'], quotaCpus: 0.5, fraction: 0.69, throttledPeriods: 22, periods: 32, throttledMs: 1160 }];
  const advice = adviseRun(adviceInput(run));
  const cores = advice.estimate.bounds.cores;
  // Server CPU per request: (13 + 13 + 18)% / 161 req/s; 0.5 CPU of it serves ~183 req/s.
  assert.ok(cores < 200, `the quota's bound, not the host's: ${cores}`);
  const words = adviceParagraphs(advice, run.plan.target).join('\n');
  assert.doesNotMatch(words, /the cores ~|the cores allow/);
  assert.match(words, /0\.5 CPU \(cgroup quota\) (allows|~)/);
});

test("the server's quota bounds the pool model even when other processes kept it from throttling", () => {
  // Seen: a 2-worker cluster under a 1.5-CPU v1 quota, spawnbench outside it on 2 cores, other processes on 0.8 of them:
  // throttled in 0% of 30 periods, told "Set WORKERS=3 … 2 cores serve at most ~1,985 req/s".
  const run = syntheticRun({ poolSize: 2, rps: 946, workers: evenWorkers(2, { rps: 946, elu: 0.96, blocked: 0, cpuPct: 45, waitPct: 50 }), spawnedCpuPct: 0, cpus: [100, 100], generator: { cpuPct: 5, elu: 0.09 } });
  run.machine.cpu = budget({ budget: 2, capacity: 2 });
  run.samples.throttling = [{ ...THROTTLED[0], roles: ['server'], quotaCpus: 1.5, fraction: 0, throttledPeriods: 0, periods: 30, throttledMs: 0 }];
  const advice = adviseRun(adviceInput(run));
  const perRequest = (0.45 + 0.45 + 0.1) / 946; // workers and main, the generator outside the quota
  assert.ok(Math.abs(advice.estimate.bounds.cores - 1.5 / perRequest) < 30, `the quota's bound: ${advice.estimate.bounds.cores}`);
  assert.equal(advice.estimate.quotaCpus, 1.5);
  assert.match(adviceParagraphs(advice, run.plan.target).join('\n'), /1\.5 CPUs \(cgroup quota\) serve at most/);
});

test("run -- <command>: a server-only quota it did not reach bounds 'more processes', and the words name the quota, not the budget's idle cores", () => {
  // Seen: a 2 ms route in a 1.5-CPU v1 quota (the server only), 0% throttled: "0.9 cores of the CPU budget's 2 stayed
  // idle … would serve ~712 req/s (the cores then the limit)", where 712 req/s was the quota's bound, 0.4 CPU of it left.
  const run = ownRun({ pool: false, rps: 497, cpus: [85, 32], spawnedCpuPct: 0, generator: { cpuPct: 7, elu: 0.07 }, main: { elu: 1, blocked: 0, cpuPct: 105, loopCpuPct: 100, waitPct: 0 } });
  run.samples.throttling = [{ ...THROTTLED[0], roles: ['server'], quotaCpus: 1.5, throttledPeriods: 0, periods: 30, fraction: 0, throttledMs: 0 }];
  const advice = adviseRun(adviceInput(run));
  const more = advice.reasons.find((r) => r.id === 'more-processes');
  assert.ok(more, advice.reasons.map((r) => r.id).join(', '));
  assert.equal(more.figures.quotaCpus, 1.5);
  assert.ok(more.figures.idleCores < 0.6, `idle ${more.figures.idleCores}`);
  const words = adviceParagraphs(advice, {}).join('\n').replace(/\s+/g, ' ');
  assert.match(words, /while 0\.\d cores of its 1\.5-CPU quota stayed idle/);
  assert.match(words, /\(1\.5 CPUs \(cgroup quota\) then the limit\)/);
  assert.doesNotMatch(words, /CPU budget's 2|the cores then the limit/);
  // A server that spawns: its pool is bounded by the same quota, and named so.
  const spawner = ownRun({ pool: false, rps: 497, cpus: [85, 32], spawnedCpuPct: 20, generator: { cpuPct: 7, elu: 0.07 }, main: { elu: 1, blocked: 0.5, cpuPct: 85, loopCpuPct: 80, waitPct: 0 } });
  spawner.samples.throttling = run.samples.throttling;
  const pooled = adviseRun(adviceInput(spawner));
  const help = pooled.reasons.find((r) => r.id === 'own-pool-would-help' || r.id === 'no-gain-expected');
  assert.ok(help, pooled.reasons.map((r) => r.id).join(', '));
  assert.equal(help.figures.quotaCpus, 1.5);
  assert.ok(help.figures.bounds.cores < 497 * 1.5 / 1.05 + 1, `cores bound ${help.figures.bounds.cores}`);
  const pooledWords = adviceParagraphs(pooled, {}).join('\n').replace(/\s+/g, ' ');
  assert.doesNotMatch(pooledWords, /CPU budget's 2/);
});

test('run -- <command> in a 1.5-CPU quota: a second process has half a CPU to run on, not "room for one main thread, not two"', () => {
  // Seen in a 1.5-CPU v1 quota (spawnbench and the server): "One process is enough … its budget of 1.5 CPUs (cgroup quota)
  // has room for one main thread, not two", where 2 cluster workers served 535-758 req/s against one worker's 410-418.
  const run = ownRun({ command: ['node', 'api.js'], pool: false, rps: 411, cpus: [60, 60], spawnedCpuPct: 0, generator: { cpuPct: 4, elu: 0.08 }, main: { elu: 0.98, blocked: 0, cpuPct: 98, loopCpuPct: 98, waitPct: 0 } });
  run.machine.cpu = budget({ budget: 1.5, source: 'quota', capacity: 1.5 });
  run.samples.throttling = [{ ...THROTTLED[0], quotaCpus: 1.5, throttledPeriods: 0, periods: 30, fraction: 0, throttledMs: 0 }];
  const advice = adviseRun(adviceInput(run));
  assert.equal(advice.size, 2, advice.reasons.map((r) => r.id).join(', '));
  assert.deepEqual(advice.confirmWith?.argv.slice(0, 3), ['tune', '--processes', '1,2']);
  const words = adviceParagraphs(advice, {}).join('\n');
  assert.doesNotMatch(words, /room for one main thread, not two/);
  assert.match(words, /^More processes would help: run 2 processes of it/m);
});
