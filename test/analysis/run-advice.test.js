// The end-of-run recommendation on made-up runs: each case's figures are worked
// by hand in its comment, so a change in the model shows up as a changed number.
import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { busyShare } from '../../src/analysis/busy-time.js';
import { poolBalance } from '../../src/analysis/pool-balance.js';
import { estimatePoolSize } from '../../src/analysis/pool-size.js';
import { sweepCost } from '../../src/analysis/confirm-command.js';
import { buildTunePlan } from '../../src/tune/tune-plan.js';
import { TUNE_STEP_OVERHEAD_MS, TUNE_DEFAULTS } from '../../src/base/thresholds.js';
import { syntheticRun, evenWorkers } from './synthetic-runs.js';

const advise = (run) => adviseRun(adviceInput(run));
const ids = (advice) => advice.reasons.map((r) => r.id);

/** The JSON contract: every field present (null where it does not apply), never undefined. */
function assertShape(advice) {
  for (const key of ['size', 'policy', 'basis', 'confidence', 'reasons', 'confirmWith']) {
    assert.ok(key in advice && advice[key] !== undefined, `${key} missing`);
  }
  assert.ok(Array.isArray(advice.reasons) && advice.reasons.length > 0);
  for (const r of advice.reasons) {
    assert.equal(typeof r.id, 'string');
    assert.equal(typeof r.figures, 'object');
  }
  assert.ok(advice.size === null || Number.isInteger(advice.size));
  assert.ok([null, 'high', 'medium', 'low'].includes(advice.confidence));
  if (advice.confirmWith) {
    assert.match(advice.confirmWith.command, /^spawnbench tune --strategy \S+ --sizes [\d,]+/);
    assert.ok(advice.confirmWith.steps > 0 && advice.confirmWith.expectedMs > 0);
  }
  // Plain JSON: survives a round trip unchanged.
  assert.deepEqual(JSON.parse(JSON.stringify(advice)), advice);
}

describe('pool size', () => {
  test('saturated machine: 4 workers on 2 busy cores → 2', () => {
    // Workers: ELU 0.95, on a CPU 20%, waiting 40% → stretch 3, asleep 0.35 / 3 → busy 0.317 each;
    // D_w = 4 × 0.317 / 700 = 1.81 ms. CPU: 10 + 4 × 22 + 90 + 5 = 193% → 2.76 ms a request,
    // 2 cores → 725 req/s. Knee 1.81 ms × 725 = 1.31 workers, at 80% busy → 2.
    const run = syntheticRun({
      poolSize: 4, rps: 700, cpus: [98, 99], spawnedCpuPct: 90,
      workers: evenWorkers(4, { rps: 700, elu: 0.95, cpuPct: 22, waitPct: 40 }).map((w) => ({ ...w, loopCpuPct: 20 })),
    });
    const advice = advise(run);
    assertShape(advice);
    assert.equal(advice.size, 2);
    assert.equal(advice.estimate.limit, 'cores');
    assert.ok(Math.abs(advice.estimate.knee - 1.31) < 0.02, `knee ${advice.estimate.knee}`);
    assert.deepEqual(ids(advice).slice(0, 2), ['cores-limit', 'size-down']);
    assert.ok(ids(advice).includes('contended'), 'a loop waiting 67% of its busy time for a core is contention');
  });

  test('idle cores, saturated worker: 1 worker → 3', () => {
    // Worker: ELU 0.98, on a CPU 40%, waiting 2% → busy 0.40 + 0.56 / 1.05 = 0.933; D_w = 3.11 ms.
    // CPU 5 + 42 + 40 + 5 = 92% → 3.07 ms, 2 cores → 651 req/s; the pool alone 321 req/s.
    // Knee 3.11 ms × 651 = 2.03 workers, at 80% busy → 3.
    const run = syntheticRun({
      poolSize: 1, rps: 300, cpus: [40, 35], spawnedCpuPct: 40,
      main: { elu: 0.1, blocked: 0, cpuPct: 5, loopCpuPct: 5, waitPct: 0 },
      workers: [{ elu: 0.98, blocked: 0.8, cpuPct: 42, loopCpuPct: 40, waitPct: 2, requests: 3000, inFlight: 30 }],
    });
    const advice = advise(run);
    assertShape(advice);
    assert.equal(advice.size, 3);
    assert.deepEqual(ids(advice).slice(0, 3), ['workers-limit', 'size-up', 'one-worker']);
    assert.equal(advice.policy, 'round-robin');
    assert.equal(advice.confidence, 'high');
    assert.ok(advice.estimate.bounds.pool < advice.estimate.bounds.cores);
  });

  test('saturated main thread: the pool stops helping at the main thread\'s bound', () => {
    // Main: busy 0.95 → 0.95 ms a request → at most 1,053 req/s. Cores (4): 2.6 ms → 1,538.
    // Workers: 4 × 0.3 / 1000 = 1.2 ms. Knee 1.2 ms × 1,053 = 1.26, at 80% → 2.
    const run = syntheticRun({
      cores: 4, poolSize: 4, rps: 1000, cpus: [70, 70, 70, 70], spawnedCpuPct: 60,
      main: { elu: 0.97, blocked: 0, cpuPct: 95, loopCpuPct: 95, waitPct: 2 },
      workers: evenWorkers(4, { rps: 1000, elu: 0.3, cpuPct: 25, blocked: 0.2 }),
    });
    const advice = advise(run);
    assert.equal(advice.estimate.limit, 'main-thread');
    assert.equal(advice.size, 2);
    assert.equal(ids(advice)[0], 'main-thread-limit');
  });

  test('saturated generator: sized at what it could send, with low confidence', () => {
    // Generator ELU 0.98 at 500 req/s → 510; cores 1.88 cores / 500 → 3.76 ms → 532.
    // Workers 2 × 0.5 / 500 = 2 ms; knee 2 ms × 510 = 1.02 → 2.
    const run = syntheticRun({
      poolSize: 2, rps: 500, cpus: [80, 80], spawnedCpuPct: 20, generator: { cpuPct: 98, elu: 0.98 },
      workers: evenWorkers(2, { rps: 500, elu: 0.5, cpuPct: 30, blocked: 0.4 }),
    });
    const advice = advise(run);
    assert.equal(advice.estimate.limit, 'generator');
    assert.equal(advice.size, 2);
    assert.equal(advice.confidence, 'low');
    assert.ok(ids(advice).includes('generator-bound'));
  });

  test('run-queue wait comes out of ELU: the same ELU on a crowded machine asks for fewer workers', () => {
    const workers = (waitPct, loopCpuPct) => evenWorkers(2, { rps: 600, elu: 0.9, cpuPct: 30 }).map((w) => ({ ...w, waitPct, loopCpuPct }));
    const calm = estimatePoolSize(adviceInput(syntheticRun({ rps: 600, workers: workers(0, 30) })));
    const crowded = estimatePoolSize(adviceInput(syntheticRun({ rps: 600, workers: workers(50, 30) })));
    assert.ok(crowded.knee < calm.knee, `${crowded.knee} < ${calm.knee}`);
    const share = busyShare({ elu: 0.9, loopCpuPct: 30, waitPct: 50 });
    // on 0.3 + asleep (0.9 − 0.3 − 0.5) / stretch (0.8 / 0.3) = 0.3375
    assert.ok(Math.abs(share.busy - 0.3375) < 1e-9, `${share.busy}`);
    assert.deepEqual(busyShare({ elu: 0.9, loopCpuPct: null, waitPct: null }), { busy: 0.9, measured: 0.9, stretch: 1, source: 'elu' });
    // A stretch of 17 would leave 0.003 of the 0.05 asleep inside spawn; the children's CPU before exec
    // (0.34 × 0.3 = 0.10, more than was asleep) keeps all 0.05 of it.
    const crowdedShare = busyShare({ elu: 0.9, loopCpuPct: 5, waitPct: 80 }, 0.3);
    assert.ok(Math.abs(crowdedShare.busy - 0.1) < 1e-9, `${crowdedShare.busy}`);
    assert.ok(Math.abs(busyShare({ elu: 0.9, loopCpuPct: 5, waitPct: 80 }, 0.1).busy - (0.05 + 0.034)) < 1e-9);
  });

  test('a worker that spawns with posix_spawn sleeps through more of each command before its exec', () => {
    // ELU 0.97, on a CPU 19%, waiting 30% → stretch 2.58, asleep 0.48, / 2.58 = 0.186. The floor is a share
    // of the commands' CPU (0.89 of a core): fork 0.34 × 0.89 = 0.303 → busy 0.19 + 0.303 = 0.493;
    // posix_spawn 0.53 × 0.89 = 0.472 → busy 0.19 + 0.472 = 0.662 (a single fork-pool worker of Node 20
    // with koffi, where 2 workers served 37% more than 1).
    const worker = { elu: 0.97, loopCpuPct: 19, waitPct: 30 };
    assert.ok(Math.abs(busyShare(worker, 0.89).busy - 0.4926) < 1e-3);
    assert.ok(Math.abs(busyShare({ ...worker, spawnTiming: 'patch' }, 0.89).busy - 0.4926) < 1e-3);
    assert.ok(Math.abs(busyShare({ ...worker, spawnTiming: 'posix_spawn' }, 0.89).busy - 0.6617) < 1e-3);
  });

  test('without the probe, worker CPU stands in for busy time, and says the size may be low', () => {
    const workers = evenWorkers(2, { rps: 600, cpuPct: 30 }).map((w) => ({ ...w, elu: null, blocked: null, loopCpuPct: null, waitPct: null }));
    const advice = advise(syntheticRun({ rps: 600, workers }));
    assert.equal(advice.estimate.source, 'cpu');
    assert.ok(ids(advice).includes('no-probe'));
    assert.equal(advice.confidence, 'low');
  });

  test('worker threads: their CPU is in the main process\'s already and is not counted twice', () => {
    const threads = evenWorkers(2, { rps: 600, cpuPct: 40 }).map((w) => ({ ...w, thread: true }));
    const asThreads = estimatePoolSize(adviceInput(syntheticRun({ strategy: 'worker-threads', rps: 600, workers: threads })));
    const asProcesses = estimatePoolSize(adviceInput(syntheticRun({ rps: 600, workers: threads.map(({ thread, ...w }) => w) })));
    assert.ok(Math.abs(asProcesses.demands.cpuMs - asThreads.demands.cpuMs - (80 / 100 / 600) * 1000) < 1e-9);
  });
});

describe('balancing policy', () => {
  const pool = (requests, inFlight, balance = 'round-robin', extra = {}) =>
    syntheticRun({
      poolSize: requests.length, balance, rps: 700,
      workers: requests.map((r, i) => ({ elu: 0.6, blocked: 0.5, cpuPct: 30, loopCpuPct: 30, waitPct: 0, requests: r, inFlight: inFlight[i] })),
      ...extra,
    });

  test('lopsided pool: requests outside the binomial band → least-requests', () => {
    // 7,000 requests over 3 workers: 2,333 ± 3σ = ± 118; 1,000 is far outside.
    const advice = advise(pool([3000, 3000, 1000], [10, 10, 10]));
    assert.equal(advice.policy, 'least-requests');
    const reason = advice.reasons.find((r) => r.id === 'lopsided');
    assert.equal(reason.figures.from, 'round-robin');
    assert.equal(reason.figures.spread.measure, 'requests');
    assert.ok(Math.abs(reason.figures.spread.band - 3 * Math.sqrt(7000 / 3 * (2 / 3))) < 1e-9);
    assert.deepEqual(advice.confirmWith.argv.slice(-4, -2), ['--balance-policies', 'round-robin,least-requests']);
  });

  test('lopsided in flight with even request counts (one slow worker under round-robin) → least-requests', () => {
    const advice = advise(pool([2333, 2333, 2334], [4, 4, 22]));
    assert.equal(advice.policy, 'least-requests');
    const { spread, latency } = advice.reasons.find((r) => r.id === 'lopsided').figures;
    assert.equal(spread.measure, 'in-flight');
    // Little's law per worker: 22 in flight ÷ 233.4 req/s = 94 ms; 4 ÷ 233.3 = 17 ms.
    assert.equal(latency.maxLabel, 'worker 2');
    assert.ok(Math.abs(latency.maxMs - (22 / 233.4) * 1000) < 0.01 && Math.abs(latency.minMs - (4 / 233.3) * 1000) < 0.01);
  });

  test('even pool → round-robin is fine, no change', () => {
    const advice = advise(pool([2330, 2340, 2330], [10, 10.5, 9.5]));
    assert.equal(advice.policy, 'round-robin');
    assert.ok(ids(advice).includes('even'));
    assert.deepEqual(advice.confirmWith.argv.slice(-4, -2), ['--balance-policies', 'round-robin']);
  });

  test('random spread within chance is not a reason to change', () => {
    // 2,333 ± 39 (1σ): +70 is 1.8σ.
    const advice = advise(pool([2403, 2293, 2304], [11, 9, 10], 'random'));
    assert.equal(advice.policy, 'random');
    assert.ok(ids(advice).includes('even'));
  });

  test('the same relative spread is noise on few requests and lopsided on many', () => {
    const few = poolBalance([{ label: 'a', requests: 60 }, { label: 'b', requests: 40 }]);
    const many = poolBalance([{ label: 'a', requests: 6000 }, { label: 'b', requests: 4000 }]);
    assert.equal(few.lopsided, false);
    assert.equal(many.lopsided, true);
  });

  test('least-requests already on a lopsided pool is kept; p2c is named past 8 workers', () => {
    assert.equal(advise(pool([3000, 3000, 1000], [10, 10, 10], 'least-requests')).policy, 'least-requests');
    const big = Array.from({ length: 10 }, (_, i) => (i === 0 ? 100 : 770));
    const advice = advise(syntheticRun({
      cores: 8, poolSize: 10, rps: 700, cpus: Array(8).fill(30),
      workers: big.map((r) => ({ elu: 0.9, blocked: 0.8, cpuPct: 60, loopCpuPct: 60, waitPct: 0, requests: r, inFlight: 3 })),
    }));
    assert.ok(advice.size > 8, `size ${advice.size}`);
    assert.equal(advice.policy, 'p2c');
  });

  test('a lopsided pool whose advice is one worker keeps its policy: one worker has nothing to balance', () => {
    // Demand for a fifth of a worker: 3 × 0.05 busy at 700 req/s on idle cores.
    const advice = advise(pool([3000, 3000, 1000], [10, 10, 10], 'round-robin', {
      workers: [3000, 3000, 1000].map((r) => ({ elu: 0.05, blocked: 0.04, cpuPct: 5, loopCpuPct: 5, waitPct: 0, requests: r, inFlight: 10 })),
    }));
    assert.equal(advice.size, 1);
    assert.equal(advice.policy, 'round-robin');
    assert.ok(ids(advice).includes('one-worker'));
  });

  test('a strategy that balances one way only keeps it', () => {
    const advice = advise(pool([3000, 3000, 1000], [10, 10, 10], 'round-robin', { strategy: 'cluster', balancers: ['round-robin'] }));
    assert.equal(advice.policy, 'round-robin');
    assert.ok(ids(advice).includes('policy-fixed'));
  });
});

describe('runs without a pool, short runs, other targets', () => {
  test('baseline blocked in spawn → move to fork-pool, with the expected gain', () => {
    const run = syntheticRun({
      pool: false, rps: 450, cpus: [85, 80], spawnedCpuPct: 80,
      main: { elu: 0.99, blocked: 0.75, cpuPct: 85, loopCpuPct: 85, waitPct: 3 },
    });
    const advice = advise(run);
    assertShape(advice);
    assert.equal(advice.strategy, 'fork-pool');
    assert.equal(advice.policy, null);
    assert.ok(advice.size >= 1);
    const move = advice.reasons.find((r) => r.id === 'move-to-pool').figures;
    assert.ok(move.gain > 1.05, `gain ${move.gain}`);
    assert.equal(ids(advice)[0], 'main-blocked-in-spawn');
    assert.ok(ids(advice).includes('not-measured'));
    assert.match(advice.confirmWith.command, /^spawnbench tune --strategy fork-pool --sizes [\d,]+ --balance-policies round-robin -c 30$/);
  });

  test('baseline blocked in spawn on cores full with other programs\' work: cannot tell, with the sweep that can, not "a pool would not be faster"', async () => {
    // Seen: other processes at 1.0 of 2 cores, the cores 100% busy: "Keep baseline: a pool would not be faster here",
    // while compare measured fork-pool at 1.86× baseline in the same minutes (a pool's processes win cores from the others).
    const { adviceParagraphs } = await import('../../src/report/run-advice-text.js');
    const shared = (otherCores) => {
      const run = syntheticRun({ pool: false, rps: 412, cpus: [99, 100], spawnedCpuPct: 48, main: { elu: 0.99, blocked: 0.78, cpuPct: 43, loopCpuPct: 43, waitPct: 30 } });
      run.samples.otherUsers = { elapsedMs: 3000, cores: otherCores, users: otherCores > 0 ? [{ name: 'node', count: 3, cores: otherCores, pids: [1], parents: [] }] : [], rest: { names: 0, cores: 0 } };
      return advise(run);
    };
    const advice = shared(1);
    const gain = advice.reasons.find((r) => r.id === 'no-gain-expected');
    assert.ok(gain, ids(advice).join(','));
    assert.equal(gain.figures.sharedCores, 1);
    assert.match(advice.confirmWith.command, /^spawnbench tune --strategy fork-pool --sizes [\d,]+ --balance-policies round-robin -c 30$/);
    const words = adviceParagraphs(advice, syntheticRun({ pool: false }).plan.target).join(' ').replace(/\s+/g, ' ');
    assert.match(words, /^Cannot tell whether a pool would be faster: the cores were full, and other processes used 1\.0 of them\./);
    assert.match(words, /a pool's processes would compete with them for the cores, which one run cannot price: the sweep below measures it/);
    assert.doesNotMatch(words, /a pool would not be faster here/);
    // The cores full with the run's own work alone: the model's answer stands.
    const alone = shared(0);
    assert.equal(alone.reasons.find((r) => r.id === 'no-gain-expected').figures.sharedCores, undefined);
    assert.equal(alone.confirmWith, null);
  });

  test('baseline with large outputs → comm-channel', () => {
    const run = syntheticRun({ pool: false, workload: 'large', rps: 300, main: { elu: 0.98, blocked: 0.5, cpuPct: 70, loopCpuPct: 70, waitPct: 0 } });
    const advice = advise(run);
    assert.equal(advice.strategy, 'comm-channel');
    assert.match(advice.confirmWith.command, /--workload large/);
  });

  test('baseline whose main thread has room: no move, never a change for no measured reason', () => {
    const advice = advise(syntheticRun({ pool: false, rps: 100, main: { elu: 0.3, blocked: 0.1, cpuPct: 25, loopCpuPct: 25, waitPct: 0 } }));
    assertShape(advice);
    assert.deepEqual([advice.size, advice.policy, advice.strategy, advice.confirmWith], [null, null, null, null]);
    assert.deepEqual(ids(advice), ['main-has-room']);
  });

  test('too-short run: cannot tell, and names the sweep that can', () => {
    // At 10 req/s, a tune step needs 20 s for its 200 responses: the command says so.
    for (const [run, duration] of [[syntheticRun({ durationMs: 1500, workers: evenWorkers(2, { durationMs: 1500 }) }), ''], [syntheticRun({ rps: 10, workers: evenWorkers(2, { rps: 10 }) }), ' -d 20s']]) {
      const advice = advise(run);
      assertShape(advice);
      assert.deepEqual([advice.size, advice.policy, advice.confidence, advice.basis], [null, null, null, null]);
      assert.deepEqual(ids(advice), ['too-short']);
      assert.equal(advice.confirmWith.command, `spawnbench tune --strategy fork-pool --sizes 1,2,3,4 -c 30${duration}`);
      // No --balance-policies: tune measures all four.
      assert.equal(advice.confirmWith.steps, 4 * 4 * TUNE_DEFAULTS.repeat);
    }
  });

  test('a run stopped (Ctrl-C) before 2 s: says it was stopped and to let it finish, not to give a longer -d', () => {
    // Ctrl-C 1.0 s into a -d 4s run: "Cannot tell from this run: it was too short … at least 2.0 s and 200 requests (-d, -n)".
    const run = syntheticRun({ durationMs: 1000, workers: evenWorkers(2, { durationMs: 1000 }) });
    run.stoppedEarly = true;
    const words = adviceParagraphs(advise(run));
    assert.equal(words[0], 'Cannot tell from this run: it was stopped before its end.');
    assert.match(words[1], /^- It measured 1\.0 s and [\d,]+ requests; a recommendation needs at least 2\.0 s and 200 requests: it was stopped \(Ctrl-C or a signal\) before then; run it again and let it finish\.$/);
    const short = adviceParagraphs(advise(syntheticRun({ durationMs: 1000, workers: evenWorkers(2, { durationMs: 1000 }) })));
    assert.equal(short[0], 'Cannot tell from this run: it was too short.');
    assert.match(short[1], /\(-d, -n\)\.$/);
  });

  test('a server spawnbench did not start (--url) gets no advice, every field still there', () => {
    const run = syntheticRun();
    run.plan.target = { kind: 'url', url: 'http://127.0.0.1:3000/' };
    const advice = advise(run);
    assertShape(advice);
    assert.deepEqual(ids(advice), ['not-a-strategy']);
    assert.equal(advice.confirmWith, null);
  });
});

describe('confidence and the confirming command', () => {
  test('errors and a short run lower the confidence; a clean 10 s run on a quiet machine is high', () => {
    const workers = evenWorkers(2, { rps: 600 });
    assert.equal(advise(syntheticRun({ rps: 600, workers })).confidence, 'high');
    assert.equal(advise(syntheticRun({ rps: 600, workers, durationMs: 5000 })).confidence, 'medium');
    assert.equal(advise(syntheticRun({ rps: 600, workers, errors: 200 })).confidence, 'low');
  });

  test('confirmWith: the run\'s own options, sizes around the advice and the run\'s, duration from the step count', () => {
    const run = syntheticRun({ poolSize: 4, rps: 700, connections: 50, threads: 2, cpus: [98, 99], spawnedCpuPct: 90,
      workers: evenWorkers(4, { rps: 700, elu: 0.95, cpuPct: 22, waitPct: 40 }).map((w) => ({ ...w, loopCpuPct: 20 })) });
    run.plan.target.workerRuntime = { name: 'bun', kind: 'bun', path: '/usr/bin/bun' };
    const { confirmWith, size } = advise(run);
    assert.equal(size, 2);
    assert.equal(confirmWith.command, 'spawnbench tune --strategy fork-pool --sizes 1,2,3,4 --balance-policies round-robin -c 50 --generator-threads 2 --worker-runtime bun');
    assert.equal(confirmWith.steps, 4 * 1 * 3);
    assert.equal(confirmWith.expectedMs, 12 * (3000 + 1000 + TUNE_STEP_OVERHEAD_MS));
  });

  test('a custom workload command is passed on quoted for the shell', () => {
    const run = syntheticRun({ workers: evenWorkers(2) });
    run.plan.workload = { name: 'custom', command: 'printf', args: ["it's"] };
    assert.match(advise(run).confirmWith.command, / --workload-cmd 'printf it'\\''s' /);
  });

  test('the step times assumed are those of the tune it suggests', () => {
    const plan = buildTunePlan({ strategy: 'fork-pool' });
    const { durationMs, warmupMs } = plan.base.load;
    assert.deepEqual(sweepCost(1), { steps: plan.repeat, expectedMs: plan.repeat * (durationMs + warmupMs + TUNE_STEP_OVERHEAD_MS) });
  });
});
