/**
 * Deterministic fake diagnose results for the verdict tests: a few knobs describe
 * the server (ELU, loop delay, spawn, GC, CPU, latency), a seeded generator adds
 * noise to per-interval probe reports, and the figures are folded the way the
 * engine folds real ones, so the rules never depend on this machine's speed.
 */
import { createGcWindows } from '../../src/diagnose/gc-windows.js';
import { seededRandom as random } from '../../strategies/lib/random.js';

/**
 * @param {object} knobs
 * @param {number} [knobs.elu] main loop utilisation 0..1
 * @param {number} [knobs.p50Ms] [knobs.p99Ms] [knobs.maxMs] loop delay
 * @param {number} [knobs.blocked] share of time blocked in spawn
 * @param {number} [knobs.gcMsPerSec] GC pause ms in each second
 * @param {number} [knobs.cpuPct]
 * @param {{ p50Ms: number, p99Ms: number, rps: number }} [knobs.latency]
 * @param {number} [knobs.generatorElu]
 * @param {number} [knobs.errors] [knobs.requests]
 * @param {boolean} [knobs.probe] false: a server seen from outside
 * @param {'closed'|'open'} [knobs.mode]
 * @param {number} [knobs.noise] relative noise on per-interval figures (0.05 = ±5%)
 * @param {number} [knobs.seed]
 */
export function syntheticResult({
  elu = 0.3, p50Ms = 0.5, p99Ms = 2, maxMs = 8, blocked = 0, gcMsPerSec = 5, cpuPct = 30,
  latency = { p50Ms: 1, p99Ms: 4, rps: 2000 }, generatorElu = 0.4, errors = 0, requests = 20_000,
  probe = true, mode = 'closed', noise = 0.05, seed = 1,
} = {}) {
  const next = random(seed);
  const jitter = (value) => value * (1 + (next() * 2 - 1) * noise);
  const gc = createGcWindows();
  const intervalMs = 250;
  const pid = 4242;
  for (let i = 0; i < 40; i++) {
    gc.add({ pid, threadId: 0, isMainThread: true, t: 1_000_000 + i * intervalMs, intervalMs, gcMs: jitter(gcMsPerSec / 4) });
  }
  const gcByKey = Object.fromEntries(probe ? gc.result() : []);
  return {
    kind: 'diagnose',
    plan: { target: { kind: probe ? 'command' : 'url' }, load: { threads: 1 } },
    target: { pid },
    load: {
      mode,
      rps: jitter(latency.rps),
      requests,
      threads: 1,
      errors: { total: errors, non2xx: errors, mismatch: 0 },
      statuses: errors ? { 200: requests - errors, 500: errors } : { 200: requests },
      latency: { p50Ms: latency.p50Ms, p99Ms: latency.p99Ms, maxMs: latency.p99Ms * 2 },
      generator: { elu: generatorElu, cpuPct: generatorElu * 100 },
    },
    gc: gcByKey,
    samples: {
      probe: probe ? { available: true, reason: null } : { available: false, reason: 'probe not enabled' },
      generator: { elu: generatorElu, cpuPct: generatorElu * 100 },
      processes: [{
        key: `${pid}`,
        pid,
        label: 'main',
        role: 'main',
        summary: {
          elu: probe ? Math.min(1, jitter(elu)) : null,
          loopDelayP50Ms: probe ? jitter(p50Ms) : null,
          loopDelayP99Ms: probe ? jitter(p99Ms) : null,
          loopDelayMaxMs: probe ? jitter(maxMs) : null,
          blockedFraction: probe ? jitter(blocked) : null,
          spawnsPerSec: probe && blocked > 0 ? (blocked * 1000) / 1.3 : null,
          msPerSpawn: probe && blocked > 0 ? 1.3 : null,
          cpuPct: cpuPct === null ? null : jitter(cpuPct),
        },
      }],
    },
  };
}
