/**
 * Made-up RunResults for the recommendation's tests: the shape the run engine
 * writes, with figures chosen per case, so verdicts never depend on the machine.
 * Figures are % of one core for CPU, 0..1 for ELU and blocked shares.
 */

/**
 * @param {object} o
 * @param {string} [o.strategy]
 * @param {boolean} [o.pool]
 * @param {number} [o.poolSize]
 * @param {string} [o.balance]
 * @param {string[]} [o.balancers]
 * @param {string} [o.workload]
 * @param {number} [o.cores]
 * @param {number} [o.durationMs]
 * @param {number} [o.rps]
 * @param {number} [o.errors]
 * @param {object} [o.main]   { elu, blocked, cpuPct, loopCpuPct, waitPct }
 * @param {object[]} [o.workers] each { elu, blocked, cpuPct, loopCpuPct, waitPct, requests, inFlight }
 * @param {number} [o.spawnedCpuPct]
 * @param {number[]} [o.cpus]  per-core busy %
 * @param {{ cpuPct: number, elu: number }} [o.generator]
 * @param {number} [o.connections]
 * @param {number} [o.threads]
 */
export function syntheticRun(o = {}) {
  const pool = o.pool ?? true;
  const durationMs = o.durationMs ?? 10_000;
  const rps = o.rps ?? 700;
  const requests = Math.round((rps * durationMs) / 1000);
  const workers = pool ? (o.workers ?? []) : [];
  const processes = [
    proc({ pid: 100, role: 'main', label: 'main' }, o.main ?? { elu: 0.15, blocked: 0, cpuPct: 10, loopCpuPct: 9, waitPct: 1 }),
    ...workers.map((w, i) => proc({ pid: 200 + i, role: w.thread ? 'thread' : 'worker', label: `pid ${200 + i}`, requests: w.requests ?? null }, w)),
  ];
  return {
    tool: 'spawnbench',
    format: 1,
    kind: 'run',
    createdAt: '2026-11-23T09:00:00.000Z',
    plan: {
      command: 'run',
      target: {
        kind: 'strategy',
        strategy: o.strategy ?? (pool ? 'fork-pool' : 'baseline'),
        pool,
        poolSize: pool ? (o.poolSize ?? workers.length) : null,
        balance: pool ? (o.balance ?? 'round-robin') : null,
        balancers: pool ? (o.balancers ?? ['random', 'round-robin', 'least-requests', 'p2c']) : null,
        runtime: { name: 'node', kind: 'node', path: '/usr/bin/node' },
        workerRuntime: { name: 'node', kind: 'node', path: '/usr/bin/node' },
        seed: 1,
        readyTimeoutMs: 15000,
      },
      probe: { enabled: true, intervalMs: 250 },
      output: { json: false, dashboard: false, logFile: null, out: null, debug: false },
      workload: o.workload === 'large'
        ? { name: 'large', command: 'cat', args: ['fixtures/large.txt'], expectedBytes: 163_000 }
        : { name: 'echo', command: 'echo', args: ['hi'], expectedBytes: 3 },
      load: {
        connections: o.connections ?? 30, durationMs, requests: null, warmupMs: 2000, rate: null, timeoutMs: 10000,
        method: 'GET', headers: {}, body: null, verify: true, threads: o.threads ?? 1, expectedBytes: 3,
      },
    },
    machine: { node: '20.20.2', libuv: '1.46.0', v8: '11.3', platform: 'linux', arch: 'x64', cpuModel: 'Test CPU', cores: o.cores ?? 2, memTotalBytes: 8e9 },
    strategy: {
      name: o.strategy ?? (pool ? 'fork-pool' : 'baseline'),
      pid: 100,
      port: 40000,
      workers: workers.map((w, i) => ({ id: i, pid: 200 + i, threadId: null, inFlight: 1, completed: w.requests ?? 0, failed: 0 })),
    },
    load: {
      mode: 'closed', connections: o.connections ?? 30, threads: o.threads ?? 1, rate: null, durationMs, requests, rps, bytes: requests * 3,
      latency: { minMs: 1, meanMs: 40, p50Ms: 38, p75Ms: 45, p90Ms: 55, p99Ms: 80, p999Ms: 100, maxMs: 120 },
      errors: { total: o.errors ?? 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: o.errors ?? 0 },
      statuses: { 200: requests }, bodySamples: {}, missed: 0, series: [],
      generator: o.generator ?? { cpuPct: 5, elu: 0.05 }, notes: [],
    },
    samples: {
      processes,
      spawned: { seen: 10, spawns: requests, cpuPct: o.spawnedCpuPct ?? 80, rssBytes: null },
      system: { cpus: o.cpus ?? [60, 60] },
      generator: o.generator ?? { cpuPct: 5, elu: 0.05 },
      probe: { available: true, reason: null },
      notes: [],
    },
    notes: [],
    failures: [],
    stoppedEarly: false,
    exitCode: 0,
  };
}

function proc(base, f) {
  return {
    key: `${base.pid}`,
    pid: base.pid,
    threadId: null,
    role: base.role,
    label: base.label,
    requests: base.requests ?? null,
    series: [],
    summary: {
      elu: f.elu ?? null, blockedFraction: f.blocked ?? null, msPerSpawn: f.blocked ? 1.3 : null, spawnsPerSec: null,
      loopDelayP50Ms: 2, loopDelayP99Ms: 20, loopDelayMaxMs: 40, gcMs: 5, cpuPct: f.cpuPct ?? null, rssBytes: 60e6,
      heapUsedBytes: 8e6, loopCpuPct: f.loopCpuPct ?? null, waitPct: f.waitPct ?? null, inFlight: f.inFlight ?? null,
    },
  };
}

/** N identical fork-pool workers sharing `rps`, each `busy` of the time on a CPU, without run-queue wait. */
export function evenWorkers(n, { rps = 700, durationMs = 10_000, elu = 0.6, blocked = 0.5, cpuPct = 30, waitPct = 0, inFlight } = {}) {
  const requests = Math.round((rps * durationMs) / 1000 / n);
  return Array.from({ length: n }, () => ({ elu, blocked, cpuPct, loopCpuPct: cpuPct, waitPct, requests, inFlight: inFlight ?? 30 / n }));
}
