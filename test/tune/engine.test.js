import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createTune, tuneResult } from '../../src/tune/tune-engine.js';
import { fakeRuns, MACHINE, tuneBase } from './fake-run.js';
import { formatTune } from '../../src/report/tune-text.js';
import { withWords } from '../../src/report/words.js';

const BASE = tuneBase({ connections: 4, durationMs: 1000, warmupMs: 200 });
const POLICIES = ['random', 'round-robin', 'least-requests', 'p2c'];
const plan = (over) => ({ command: 'tune', base: BASE, sizes: [1, 2, 4], policies: ['round-robin'], repeat: 1, search: 'exhaustive', output: BASE.output, ...over });
const peakAt4 = (size) => ({ rps: { 1: 300, 2: 580, 3: 800, 4: 1000, 6: 990, 8: 700, 12: 500, 16: 400 }[size] });
const deps = (createRun) => ({ createRun, readMachine: async () => MACHINE });

test('exhaustive: repeats interleaved (every size once, then again), one fresh run per step', async () => {
  const fake = fakeRuns(peakAt4);
  const tune = createTune(plan({ policies: ['round-robin', 'p2c'], repeat: 2 }), deps(fake.createRun));
  const progress = [];
  const measured = [];
  let dones = 0;
  tune.on('tune-progress', (p) => progress.push(p));
  tune.on('tune-step', (s) => measured.push(s));
  tune.on('done', () => dones++);
  const result = await tune.start();
  const order = fake.plans.map((p) => `${p.target.poolSize}/${p.target.balance}`);
  assert.deepEqual(order, ['1/round-robin', '1/p2c', '2/round-robin', '2/p2c', '4/round-robin', '4/p2c', '1/round-robin', '1/p2c', '2/round-robin', '2/p2c', '4/round-robin', '4/p2c']);
  assert.equal(new Set(fake.runs).size, 12);
  assert.deepEqual(progress[0], { size: 1, policy: 'round-robin', repeat: 1, index: 1, total: 12 });
  assert.equal(progress.at(-1), null);
  assert.deepEqual(Object.keys(measured[0]).slice(0, 6), ['index', 'size', 'policy', 'repeat', 'rps', 'p50Ms']);
  assert.equal(measured.length, 12);
  assert.equal(dones, 1, 'a step\'s own done is not forwarded');
  assert.equal(result.kind, 'tune');
  assert.equal(result.recommendation.size, 4);
  assert.deepEqual(result.search, { mode: 'exhaustive', measuredSteps: 12, exhaustiveSteps: 12, savedSteps: 0 });
  assert.equal(result.exitCode, 0);
  assert.equal(result.plan.base.load.expectedBytes, 3, 'the plan is written as JSON');
  assert.deepEqual(JSON.parse(JSON.stringify(result)), result, 'the result is plain JSON: nothing lost in a round trip');
});

test('adaptive: same size as exhaustive with at least 40% fewer steps', async () => {
  for (const model of [peakAt4, (size) => ({ rps: 700 * Math.min(size, 3) / (1 + 0.01 * size) })]) {
    const sweep = { sizes: [1, 2, 3, 4, 6, 8, 12, 16], policies: POLICIES, repeat: 2 };
    const exhaustive = await createTune(plan({ ...sweep }), deps(fakeRuns(model).createRun)).start();
    const adaptive = await createTune(plan({ ...sweep, search: 'adaptive' }), deps(fakeRuns(model).createRun)).start();
    assert.equal(adaptive.recommendation.size, exhaustive.recommendation.size);
    assert.ok(adaptive.search.measuredSteps <= 0.6 * exhaustive.search.measuredSteps, `${adaptive.search.measuredSteps} vs ${exhaustive.search.measuredSteps}`);
    assert.equal(adaptive.search.savedSteps, exhaustive.search.measuredSteps - adaptive.search.measuredSteps);
    const atSize = adaptive.steps.filter((s) => s.size === adaptive.recommendation.size);
    assert.deepEqual([...new Set(atSize.map((s) => s.policy))].sort(), [...POLICIES].sort(), 'every policy at the chosen size');
  }
});

test('stop during a step: the step ends early, is kept as partial, and the result still comes', async () => {
  const fake = fakeRuns((size) => ({ ...peakAt4(size), hang: size === 2 }));
  const tune = createTune(plan(), deps(fake.createRun));
  tune.on('tune-progress', (p) => p?.size === 2 && setImmediate(() => tune.stop()));
  const result = await tune.start();
  assert.equal(result.stoppedEarly, true);
  assert.deepEqual(result.steps.map((s) => [s.size, s.partial]), [[1, false], [2, true]]);
  assert.equal(result.recommendation.size, 1);
  assert.match(result.notes[0], /stopped early after 2 steps/);
  assert.equal(fake.plans.length, 2, 'no step after the stop');
  assert.match(formatTune(result), /Search: exhaustive, 2 of 3 steps measured; 1 stopped early, not used\n/);
});

test('a step whose server answered nothing for whole seconds mid-step (SIGSTOP, a debugger) is a failed step, not ranked', async () => {
  // Seen: the server of the 2-worker step frozen 2.5 s of a 4 s step (kill -STOP, -CONT): it was ranked, and
  // tune recommended the other size, as run is not sized on such a run ("the server answered nothing for …").
  const paused = [{ second: 1, requests: 900 }, { second: 2, requests: 0 }, { second: 3, requests: 0 }, { second: 4, requests: 950 }];
  const fake = fakeRuns((size) => ({ ...peakAt4(size), ...(size === 4 ? { series: paused } : {}) }));
  const result = await createTune(plan(), deps(fake.createRun)).start();
  const step = result.steps.find((s) => s.size === 4);
  assert.deepEqual(step.failures, ['the server answered nothing for 2 s of the 4 measured (seconds 2–3), where its other seconds answered ~900 each: a pause (SIGSTOP, a debugger, a VM pause) is in its figures']);
  assert.equal(result.recommendation.size, 2);
  assert.match(formatTune(withWords(result)), /4 workers: failed \(the server answered nothing for 2 s/);
  // A step that answered in every second is ranked as before.
  const steady = await createTune(plan(), deps(fakeRuns((size) => ({ ...peakAt4(size), series: [{ second: 1, requests: 900 }, { second: 2, requests: 920 }, { second: 3, requests: 910 }] })).createRun)).start();
  assert.equal(steady.recommendation.size, 4);
});

test('a step during which spawnbench itself was stopped (Ctrl-Z, SIGSTOP) is a failed step, not ranked', async () => {
  // Stopped part of a step, its throughput held the gap, and tune ranked it: the size a stop hit lost.
  const fake = fakeRuns((size) => ({ ...peakAt4(size), ...(size === 4 ? { generatorStopped: { ms: 600, longestMs: 600 } } : {}) }));
  const result = await createTune(plan(), deps(fake.createRun)).start();
  const step = result.steps.find((s) => s.size === 4);
  assert.deepEqual(step.failures, ['spawnbench itself did not run for 0.6 s of the 1.0 s measured (Ctrl-Z, SIGSTOP): its throughput holds that gap']);
  assert.equal(result.recommendation.size, 2);
});

test('a step whose commands failed to start while their requests were answered as though they ran is a failed step, not ranked', async () => {
  // The probe saw every spawn of the 4-worker step fail (EMFILE) and the server answered 200 anyway: its req/s was
  // requests answered without their work, and run gives no recommendation on such a run.
  const swallowed = (n) => ({ total: n, failures: [{ command: 'echo', code: 'EMFILE', count: n, limit: 'openFiles', limitValue: 64 }], swallowed: n });
  const fake = fakeRuns((size) => ({ ...peakAt4(size), ...(size === 4 ? { spawnFailures: swallowed(peakAt4(4).rps) } : {}) }));
  const result = await createTune(plan(), deps(fake.createRun)).start();
  const step = result.steps.find((s) => s.size === 4);
  assert.equal(step.failures.length, 1, JSON.stringify(step));
  assert.match(step.failures[0], /^its commands failed to start \(spawn echo: EMFILE ×[\d,]+\) while [\d,]+ of its [\d,]+ requests were answered as though they ran: its throughput is not its work$/);
  assert.equal(result.recommendation.size, 2);
  // A few failed spawns (under ERROR_RATE of the requests) do not fail the step.
  const few = await createTune(plan(), deps(fakeRuns((size) => ({ ...peakAt4(size), spawnFailures: swallowed(1) })).createRun)).start();
  assert.equal(few.recommendation.size, 4);
});

test('a size that fails to start after others worked is recorded; a first step that fails fails the sweep', async () => {
  const failsAt4 = fakeRuns((size) => (size === 4 ? { fail: 'strategy exited with code 1 before it was ready' } : peakAt4(size)));
  const result = await createTune(plan(), deps(failsAt4.createRun)).start();
  assert.equal(result.steps.at(-1).failed, 'strategy exited with code 1 before it was ready');
  assert.equal(result.recommendation.size, 2);
  const failsAll = fakeRuns(() => ({ fail: 'cannot boot' }));
  await assert.rejects(createTune(plan(), deps(failsAll.createRun)).start(), /cannot boot/);
});

test('errors everywhere: no recommendation and exit code 1; a USL fit over three sizes', async () => {
  const fake = fakeRuns((size) => ({ ...peakAt4(size), errors: 3 }));
  const result = await createTune(plan(), deps(fake.createRun)).start();
  assert.equal(result.recommendation.size, null);
  assert.equal(result.exitCode, 1);
  const fitted = await createTune(plan({ sizes: [1, 2, 3, 4, 6, 8] }), deps(fakeRuns(peakAt4).createRun)).start();
  assert.equal(fitted.usl.policy, 'round-robin');
  assert.ok(fitted.usl.peak > 3 && fitted.usl.peak < 8, `peak ${fitted.usl.peak}`);
});

test('a USL fit that peaks below the sizes measured is kept in the result, marked, and not printed', async () => {
  // The curve seen on a 16-core machine: its fit is σ 2.08, κ 0.0111, "peak ≈ 0.0 workers".
  const x = { 1: 11040, 2: 7881, 3: 5912, 4: 6530, 6: 5222, 8: 5916, 12: 4818, 16: 5478, 24: 4437, 32: 4990 };
  const sizes = Object.keys(x).map(Number);
  const result = await createTune(plan({ sizes }), deps(fakeRuns((size) => ({ rps: x[size] })).createRun)).start();
  assert.equal(result.usl.peak, 0);
  assert.equal(result.usl.shown, false);
  assert.equal(result.usl.notShown, 'peak-below-sizes');
  assert.doesNotMatch(formatTune(result), /USL fit/);
  const good = await createTune(plan({ sizes: [1, 2, 3, 4, 6, 8] }), deps(fakeRuns(peakAt4).createRun)).start();
  assert.equal(good.usl.shown, true);
  assert.equal(good.usl.notShown, null);
  assert.match(formatTune(good), /^USL fit \(round-robin\): .*peak ≈ [\d.]+ workers/m);
});

test('stopped early: the note and the sentences agree, with a recommendation and without one', () => {
  const search = { mode: 'exhaustive', exhaustiveSteps: 3 };
  const step = (size, partial) => ({ index: size, size, policy: 'round-robin', repeat: 1, rps: 300 * size, p50Ms: 1, p99Ms: 5, errors: 0, requests: 3000, durationMs: 1000, partial, failures: [], signals: {} });
  const none = tuneResult(plan(), { machine: MACHINE, steps: [step(1, true)], search, stoppedEarly: true });
  assert.equal(none.recommendation.size, null);
  assert.match(none.notes[0], /^stopped early after 1 step: no recommendation from what was measured until then$/);
  const some = tuneResult(plan(), { machine: MACHINE, steps: [step(1, false), step(2, true)], search, stoppedEarly: true });
  assert.equal(some.recommendation.size, 1);
  assert.match(some.notes[0], /^stopped early after 2 steps: the recommendation covers what was measured until then$/);
});

test('stopped before a second repeat: no advice to pass --repeat 3, which was given (the note says why each step ran once)', () => {
  const search = { mode: 'exhaustive', exhaustiveSteps: 9 };
  const step = (size) => ({ index: size, size, policy: 'round-robin', repeat: 1, rps: 300 * size, p50Ms: 1, p99Ms: 5, errors: 0, requests: 3000, durationMs: 1000, partial: false, failures: [], signals: {} });
  const stopped = withWords(tuneResult(plan({ repeat: 3 }), { machine: MACHINE, steps: [step(1), step(2)], search, stoppedEarly: true }));
  assert.ok(!stopped.recommendation.reasons.includes('single-repeat'), stopped.recommendation.reasons.join(' '));
  assert.doesNotMatch(formatTune(stopped), /use --repeat 3/);
  const once = withWords(tuneResult(plan({ repeat: 1 }), { machine: MACHINE, steps: [step(1), step(2)], search, stoppedEarly: false }));
  assert.match(formatTune(once), /Each step was measured once: use --repeat 3/);
});

test('one size measured (a stop after the first step): not called the highest throughput measured, but the only size', () => {
  // Seen: tune --sizes 1,2 stopped by SIGTERM during the second step's boot: "1 worker gave the highest throughput measured (197 req/s)".
  const search = { mode: 'exhaustive', exhaustiveSteps: 6 };
  const step = (size) => ({ index: size, size, policy: 'round-robin', repeat: 1, rps: 300 * size, p50Ms: 1, p99Ms: 5, errors: 0, requests: 3000, durationMs: 1000, partial: false, failures: [], signals: {} });
  const text = formatTune(withWords(tuneResult(plan(), { machine: MACHINE, steps: [step(1)], search, stoppedEarly: true })));
  assert.doesNotMatch(text, /highest throughput measured/);
  assert.match(text, /1 worker was the only size measured \(300 req\/s\): there was no other size to compare it with\./);
  // Two sizes: as before.
  assert.match(formatTune(withWords(tuneResult(plan(), { machine: MACHINE, steps: [step(1), step(2)], search, stoppedEarly: true }))), /2 workers gave the highest throughput measured/);
});

test('a step whose measurement failed (its server stopped answering or crashed) is not recommended', () => {
  // Seen: tune --sizes 1,2 of a server that froze mid-step: both steps 'step failed: … stopped answering', and 'Use 2 workers', exit 0.
  const search = { mode: 'exhaustive', exhaustiveSteps: 2 };
  const stopped = "'node stopself.js' stopped answering: 4 requests were still unanswered when the run ended, the oldest after 1.6 s";
  const step = (size, failures) => ({ index: size, size, policy: 'round-robin', repeat: 1, rps: 9000 * size, p50Ms: 0.1, p99Ms: 1, errors: 0, requests: 30000, durationMs: 3000, partial: false, failures, signals: {} });
  const none = withWords(tuneResult(plan(), { machine: MACHINE, steps: [step(1, [stopped]), step(2, [stopped])], search, stoppedEarly: false }));
  assert.equal(none.recommendation.size, null);
  assert.equal(none.exitCode, 1);
  assert.match(formatTune(none), /^ {2}1 worker: failed \('node stopself\.js' stopped answering/m);
  // One clean size: it is the one recommended, the failed one is not.
  const one = tuneResult(plan(), { machine: MACHINE, steps: [step(1, []), step(2, [stopped])], search, stoppedEarly: false });
  assert.equal(one.recommendation.size, 1);
});

test('a size knob the server did not follow (the same worker processes at every size) gets no recommendation, not the size the noise favoured', () => {
  // Seen: tune --sizes 1,3 --size-env WORKERS of a node:cluster server that forks 2 workers whatever WORKERS says:
  // "2 × 98%" workers busy at both sizes, and "Use 3 workers: 1,802 req/s".
  const search = { mode: 'exhaustive', exhaustiveSteps: 2 };
  const knobs = { sizeEnv: 'WORKERS', sizeArg: false, policyEnv: null, policyArg: false };
  const worker = (pid) => ({ label: `pid ${pid}`, role: 'worker', pid, threadId: null, cpuPct: 95, elu: 0.98, busy: 0.98, busyFrom: 'elu' });
  const main = { label: 'main', role: 'main', pid: 7, threadId: null, cpuPct: 1, elu: 0.01, busy: 0.01, busyFrom: 'elu' };
  const step = (size, rps, workers) => ({
    index: size, size, policy: null, repeat: 1, rps, p50Ms: 5, p99Ms: 12, errors: 0, requests: rps * 3, durationMs: 3000, partial: false, failures: [], signals: {},
    processes: [main, ...Array.from({ length: workers }, (_, i) => worker(100 + i))],
  });
  const ignored = withWords(tuneResult(plan({ sizes: [1, 3], policies: [null], knobs }), { machine: MACHINE, steps: [step(1, 1698, 2), step(3, 1802, 2)], search, stoppedEarly: false }));
  assert.equal(ignored.recommendation.size, null);
  assert.deepEqual(ignored.recommendation.reasons, ['knob-ignored']);
  assert.equal(ignored.exitCode, 1);
  const text = formatTune(ignored);
  assert.match(text, /^No recommendation$/m);
  assert.match(text, /The server did not follow WORKERS: 2 worker processes ran at every size measured \(1, 3\), so the sizes differ only by noise\. Check that the server takes its size from WORKERS/);
  assert.doesNotMatch(text, /Use 3 workers|Policy not tuned/);
  // Workers that follow the size: sized as before.
  const followed = tuneResult(plan({ sizes: [1, 3], policies: [null], knobs }), { machine: MACHINE, steps: [step(1, 1000, 1), step(3, 1802, 3)], search, stoppedEarly: false });
  assert.equal(followed.recommendation.size, 3);
  // A thread knob sizes threads beside a fixed number of processes.
  assert.equal(tuneResult(plan({ sizes: [1, 3], policies: [null], knobs: { ...knobs, sizeEnv: 'UV_THREADPOOL_SIZE' } }), { machine: MACHINE, steps: [step(1, 1698, 2), step(3, 1802, 2)], search, stoppedEarly: false }).recommendation.size, 3);
  // --processes sets the count itself; a thread pool may start its threads as work comes.
  assert.equal(tuneResult(plan({ sizes: [1, 3], policies: [null], knobs: { ...knobs, processes: true } }), { machine: MACHINE, steps: [step(1, 1698, 2), step(3, 1802, 2)], search, stoppedEarly: false }).recommendation.size, 3);
});
