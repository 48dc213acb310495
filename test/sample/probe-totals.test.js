import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProbeTotals } from '../../src/sample/probe-totals.js';

/** A report as the probe sends it, with a loop-delay interval of `count` samples. */
function report({ intervalMs = 250, elu = 0.5, spawns = 0, blockedMs = 0, gcMs = 1, delays }) {
  const sorted = [...delays].sort((a, b) => a - b);
  const at = (pct) => sorted[Math.min(sorted.length - 1, Math.ceil((pct / 100) * sorted.length) - 1)] ?? sorted[0];
  return {
    intervalMs,
    elu,
    spawn: { count: spawns, blockedMs },
    gcMs,
    heapUsedBytes: 1000 * elu,
    loopDelay: {
      count: sorted.length,
      p50Ms: at(50),
      p99Ms: at(99),
      maxMs: sorted.at(-1),
      percentiles: [[0, sorted[0]], [50, at(50)], [75, at(75)], [87.5, at(87.5)], [93.75, at(93.75)], [100, sorted.at(-1)]],
    },
  };
}

test('totals weight ELU and blocked time by interval length and merge loop-delay percentiles', () => {
  const totals = createProbeTotals();
  const quiet = Array(24).fill(0.2);
  totals.add(report({ intervalMs: 250, elu: 0.2, spawns: 100, blockedMs: 125, delays: quiet }));
  totals.add(report({ intervalMs: 750, elu: 1, spawns: 500, blockedMs: 600, gcMs: 3, delays: [...quiet, 100] }));
  const r = totals.result();
  assert.equal(r.wallMs, 1000);
  assert.equal(r.elu, (0.2 * 250 + 750) / 1000);
  assert.equal(r.blockedFraction, 725 / 1000);
  assert.equal(r.msPerSpawn, 725 / 600);
  assert.equal(r.spawnsPerSec, 600);
  assert.equal(r.spawns, 600);
  assert.equal(r.gcMs, 4);
  assert.equal(r.heapUsedBytes, 1000);
  assert.equal(r.loopDelayMaxMs, 100);
  assert.ok(Math.abs(r.loopDelayP50Ms - 0.2) < 0.01, `p50 ${r.loopDelayP50Ms}`);
  // 1 sample in 49 is the 100 ms block: above the 98th percentile, so p99 sees it.
  assert.ok(r.loopDelayP99Ms > 90, `p99 ${r.loopDelayP99Ms}`);
  assert.equal(r.spawnTiming, null, 'reports from a probe without the field');
});

test('spawnTiming is the latest a thread said; a report without it keeps the last; run-wide mixed when threads differ', async () => {
  const { runSpawnTiming } = await import('../../src/sample/recorder.js');
  const totals = createProbeTotals();
  const at = (timing, spawns) => ({ ...report({ spawns, blockedMs: spawns, delays: [1] }), spawn: { count: spawns, blockedMs: spawns, timing } });
  totals.add(at(null, 0));
  assert.equal(totals.result().spawnTiming, null, 'undecided before the first spawn');
  totals.add(at('diagnostics-channel', 3));
  totals.add(at(null, 0));
  assert.equal(totals.result().spawnTiming, 'diagnostics-channel');
  const proc = (spawnTiming) => ({ summary: { spawnTiming } });
  assert.equal(runSpawnTiming([proc('patch'), proc(null), proc('patch')]), 'patch');
  assert.equal(runSpawnTiming([proc('patch'), proc('diagnostics-channel')]), 'mixed');
  assert.equal(runSpawnTiming([proc(null)]), null);
});

test('totals without reports, or with parent-side reports only, say null rather than 0', () => {
  assert.deepEqual(createProbeTotals().result(), {
    wallMs: 0, elu: null, blockedFraction: null, msPerSpawn: null, spawnsPerSec: null, spawns: null,
    loopDelayP50Ms: null, loopDelayP99Ms: null, loopDelayMaxMs: null, gcMs: null, heapUsedBytes: null, spawnTiming: null,
    runtime: null,
  });
  const totals = createProbeTotals();
  totals.add({ intervalMs: 250, elu: 0.4, loopDelay: null, spawn: null, gcMs: null, heapUsedBytes: null });
  const r = totals.result();
  assert.equal(r.elu, 0.4);
  assert.equal(r.blockedFraction, null);
  assert.equal(r.loopDelayP99Ms, null);
});
