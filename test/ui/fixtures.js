/**
 * Fixed data in the shapes of src/README.md ("Shapes"), for rendering the
 * dashboard without a run. Deterministic: values come from the index, not a clock.
 */
import { applyRunEvent, initialRunState } from '../../src/ui/run-state.js';

const runtime = (kind) => ({ name: kind, kind, path: `/usr/bin/${kind}` });

/**
 * A plan as the engine's `start` event sends it (src/plan/run-plan.js buildRunPlan, JSON-safe).
 * @param {{ workers?: number, runtime?: string, workerRuntime?: string }} [options] workers: 0 = baseline
 */
export function makePlan({ workers = 0, runtime: main = 'node', workerRuntime = 'node' } = {}) {
  return {
    command: 'run',
    target: {
      kind: 'strategy',
      strategy: workers ? 'fork-pool' : 'baseline',
      pool: workers > 0,
      poolSize: workers || null,
      balance: workers ? 'p2c' : null,
      runtime: runtime(main),
      workerRuntime: runtime(workerRuntime),
      seed: 1,
    },
    workload: { name: 'echo', command: 'echo', args: ['hi'], expectedBytes: 3 },
    load: { connections: 30, durationMs: 10_000, requests: null, warmupMs: 2000, rate: null, timeoutMs: 10_000, threads: 1 },
    probe: { enabled: true, intervalMs: 250 },
  };
}

export const machine = {
  node: 'v20.20.2',
  libuv: '1.46.0',
  v8: '11.3.244.8-node.33',
  platform: 'linux',
  arch: 'x64',
  cpuModel: 'Intel(R) Xeon(R) Platinum 8259CL CPU @ 2.50GHz',
  cores: 2,
  memTotalBytes: 8 * 1024 ** 3,
};

const NO_ERRORS = { total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0 };

/**
 * A LoadTick in the measure phase.
 * @param {{ errors?: boolean, second?: number, phase?: string, generatorPct?: number }} [options]
 */
export function makeTick({ errors = false, second = 4, phase = 'measure', generatorPct = 35 } = {}) {
  return {
    second,
    phase,
    elapsedMs: second * 1000,
    plannedMs: phase === 'warmup' ? 2000 : 10_000,
    requests: second * 680,
    rps: 683,
    meanRps: 672,
    bytes: second * 680 * 3,
    errors: errors ? { total: 12, connect: 0, reset: 1, timeout: 3, parse: 0, mismatch: 0, non2xx: 8 } : NO_ERRORS,
    statuses: errors ? { 200: 2700, 500: 6, 502: 2 } : { 200: 2720 },
    interval: { p50Ms: 41.2, p90Ms: 44.8, p99Ms: 48.1, maxMs: 61.9 },
    overall: { p50Ms: 40.7, p90Ms: 44.1, p99Ms: 52.3, maxMs: 133.4 },
    missed: 0,
    generator: { elu: 0.41, cpuPct: generatorPct },
  };
}

const probe = (i) => ({
  elu: 0.2 + (i % 7) / 10,
  loopDelay: { p50Ms: 1.1, p99Ms: 2 + (i % 5), maxMs: 8 + i },
  spawn: { blockedFraction: 0.02 + (i % 4) / 100, perSec: 21, meanMs: 1.2 },
  gcMs: 0.4,
  heapUsedBytes: 9 * 1024 ** 2,
});

/**
 * A sampler interval with a main process and `workers` worker processes.
 * @param {{ workers?: number, probe?: boolean }} [options] probe: false = no probe data (Bun)
 */
export function makeSample({ workers = 0, probe: withProbe = true } = {}) {
  const main = {
    key: 'main',
    pid: 4242,
    threadId: null,
    role: 'main',
    label: 'main',
    cpuPct: 97,
    rssBytes: 61 * 1024 ** 2,
    probe: withProbe
      ? { elu: 0.97, loopDelay: { p50Ms: 12, p99Ms: 48, maxMs: 120 }, spawn: { blockedFraction: 0.31, perSec: 680, meanMs: 1.3 }, gcMs: 3, heapUsedBytes: 20 * 1024 ** 2 }
      : null,
  };
  const list = Array.from({ length: workers }, (_, i) => ({
    key: `w${i}`,
    pid: 5000 + i,
    threadId: null,
    role: 'worker',
    label: `worker ${i}`,
    cpuPct: i === 17 ? 88 : 5 + ((i * 7) % 30),
    rssBytes: (40 + (i % 3)) * 1024 ** 2,
    probe: withProbe ? probe(i) : null,
  }));
  return {
    t: 4000,
    processes: [main, ...list],
    spawned: { count: 14, cpuPct: 35, rssBytes: 14 * 1024 ** 2 },
    system: { cpus: [96, 88] },
    generator: { cpuPct: 35 },
  };
}

/** The engine's merged worker list matching makeSample's workers. */
export function makeWorkers(count) {
  return Array.from({ length: count }, (_, i) => ({ id: i, pid: 5000 + i, threadId: null, inFlight: i % 3, completed: 100 + i, failed: 0 }));
}

/**
 * A run state after start, warm-up and `seconds` measured ticks.
 * @param {{ workers?: number, errors?: boolean, probe?: boolean, runtime?: string, generatorPct?: number }
 *   runtime: of the main process and the workers} [options]
 */
export function makeState({ workers = 0, errors = false, probe: withProbe = true, runtime = 'node', generatorPct = 35 } = {}) {
  let state = initialRunState();
  state = applyRunEvent(state, 'start', { plan: makePlan({ workers, runtime, workerRuntime: runtime }), machine });
  state = applyRunEvent(state, 'phase', { phase: 'warmup' });
  for (let s = 1; s <= 2; s++) state = applyRunEvent(state, 'tick', { ...makeTick({ second: s, phase: 'warmup' }), rps: 500 + s * 50 });
  state = applyRunEvent(state, 'phase', { phase: 'measure' });
  for (let s = 1; s <= 4; s++) {
    state = applyRunEvent(state, 'tick', { ...makeTick({ second: s, errors, generatorPct }), rps: 640 + ((s * 37) % 60) });
  }
  state = applyRunEvent(state, 'sample', makeSample({ workers, probe: withProbe }));
  state = applyRunEvent(state, 'workers', makeWorkers(workers));
  return state;
}
