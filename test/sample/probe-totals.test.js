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

test('failed spawns are summed per thread by command and errno, and over the threads of a run (issue #36)', async () => {
  const { createRecorder } = await import('../../src/sample/recorder.js');
  const failed = (failures) => ({ ...report({ spawns: 5, blockedMs: 1, delays: [1] }), spawn: { count: 5, blockedMs: 1, timing: 'patch', failures } });
  const totals = createProbeTotals();
  assert.equal(totals.result().spawnFailures, null, 'none reported');
  totals.add(failed([{ command: 'echo', code: 'EMFILE', count: 3 }]));
  totals.add(failed(null));
  totals.add(failed([{ command: 'echo', code: 'EMFILE', count: 2 }, { command: 'convert', code: 'ENOENT', count: 1 }]));
  assert.deepEqual(totals.result().spawnFailures, [{ command: 'echo', code: 'EMFILE', count: 5 }, { command: 'convert', code: 'ENOENT', count: 1 }]);

  const recorder = createRecorder();
  recorder.addReport('1', failed([{ command: 'echo', code: 'EMFILE', count: 3 }]));
  recorder.addReport('2', failed([{ command: 'echo', code: 'EMFILE', count: 4 }, { command: 'convert', code: 'ENOENT', count: 9 }]));
  recorder.addReport('3', failed(null));
  assert.deepEqual(recorder.summary({}).spawned.failures, [{ command: 'convert', code: 'ENOENT', count: 9 }, { command: 'echo', code: 'EMFILE', count: 7 }]);
  recorder.reset();
  recorder.addReport('1', failed(null));
  assert.equal(recorder.summary({}).spawned.failures, null, 'none since the reset: null, not []');
});

test('totals without reports, or with parent-side reports only, say null rather than 0', () => {
  assert.deepEqual(createProbeTotals().result(), {
    wallMs: 0, elu: null, blockedFraction: null, msPerSpawn: null, spawnsPerSec: null, spawns: null,
    loopDelayP50Ms: null, loopDelayP99Ms: null, loopDelayMaxMs: null, gcMs: null, heapUsedBytes: null, spawnTiming: null,
    runtime: null, routes: null, spawnFailures: null,
  });
  const totals = createProbeTotals();
  totals.add({ intervalMs: 250, elu: 0.4, loopDelay: null, spawn: null, gcMs: null, heapUsedBytes: null });
  const r = totals.result();
  assert.equal(r.elu, 0.4);
  assert.equal(r.blockedFraction, null);
  assert.equal(r.loopDelayP99Ms, null);
});

test("a thread's routes are summed over its reports, per request and as a share of its busy time, the costliest first", () => {
  const totals = createProbeTotals();
  const routes = (report) => totals.add({ intervalMs: 1000, elu: 0.5, loopDelay: null, spawn: null, gcMs: null, heapUsedBytes: null, routes: report, routeSampling: { seen: 124, sampled: 124 } });
  routes([
    { route: 'GET /health', requests: 100, loopMs: 20, spawns: 0, blockedMs: 0 },
    { route: 'GET /report', requests: 10, loopMs: 150, spawns: 0, blockedMs: 0 },
  ]);
  routes([
    { route: 'GET /report', requests: 10, loopMs: 150, spawns: 0, blockedMs: 0 },
    { route: 'POST /convert', requests: 4, loopMs: 8, spawns: 4, blockedMs: 6 },
    // Work left over from a request before the window: time, no request, not a route of the window.
    { route: 'GET /old', requests: 0, loopMs: 3, spawns: 0, blockedMs: 0 },
  ]);
  // 2 s at ELU 0.5: 1,000 ms busy.
  assert.deepEqual(totals.result().routes, [
    { route: 'GET /report', requests: 20, sampledRequests: 20, loopMs: 300, loopMsPerRequest: 15, spawnsPerRequest: 0, blockedMsPerRequest: 0, busyShare: 0.3 },
    { route: 'GET /health', requests: 100, sampledRequests: 100, loopMs: 20, loopMsPerRequest: 0.2, spawnsPerRequest: 0, blockedMsPerRequest: 0, busyShare: 0.02 },
    { route: 'POST /convert', requests: 4, sampledRequests: 4, loopMs: 8, loopMsPerRequest: 2, spawnsPerRequest: 1, blockedMsPerRequest: 1.5, busyShare: 0.008 },
  ]);
});

test('a sample of the requests: per request as timed, requests, loop time and busy share scaled to all', () => {
  const totals = createProbeTotals();
  // 1,000 requests started, 100 timed: each timed one stands for 10.
  totals.add({ intervalMs: 1000, elu: 0.8, loopDelay: null, spawn: null, gcMs: null, heapUsedBytes: null,
    routes: [{ route: 'GET /a', requests: 100, loopMs: 40, spawns: 0, blockedMs: 0 }], routeSampling: { seen: 1000, sampled: 100 } });
  const [a] = totals.result().routes;
  assert.equal(a.requests, 1000);
  assert.equal(a.sampledRequests, 100);
  assert.equal(a.loopMsPerRequest, 0.4);
  assert.equal(a.loopMs, 400);
  assert.equal(a.busyShare, 0.5);
});

test('a sample that scales to more loop time than the thread was busy is fitted to the busy time: per-request figures shrink, ratios kept, shares add to at most 100%', () => {
  const totals = createProbeTotals();
  // Seen: HEAD / and GET /x each read "100% of busy", 0.64 and 0.36 ms per request at 9,000 req/s each.
  // Here: 1,000 requests a route started, 100 of each timed, 4 ms and 2 ms each scaled: 6,000 ms in a thread busy 800 ms.
  totals.add({ intervalMs: 1000, elu: 0.8, loopDelay: null, spawn: null, gcMs: null, heapUsedBytes: null,
    routes: [
      { route: 'HEAD /', requests: 100, loopMs: 400, spawns: 0, blockedMs: 0 },
      { route: 'GET /x', requests: 100, loopMs: 200, spawns: 1, blockedMs: 5 },
    ],
    routeSampling: { seen: 2000, sampled: 200 } });
  const [head, get] = totals.result().routes;
  assert.equal(head.route, 'HEAD /');
  assert.ok(Math.abs(head.busyShare + get.busyShare - 1) < 1e-9, `${head.busyShare} + ${get.busyShare}`);
  assert.ok(Math.abs(head.busyShare - 2 / 3) < 1e-9, String(head.busyShare));
  // 800 ms over 2,000 requests: 0.4 ms each on average, in the ratio 2 to 1.
  assert.ok(Math.abs(head.loopMsPerRequest - 0.8 * 2 / 3) < 1e-9, String(head.loopMsPerRequest));
  assert.ok(Math.abs(get.loopMsPerRequest - 0.8 / 3) < 1e-9, String(get.loopMsPerRequest));
  assert.ok(Math.abs(head.loopMs + get.loopMs - 800) < 1e-9);
  // What is counted, not timed, stays: spawns and the time blocked in them.
  assert.equal(get.spawnsPerRequest, 0.01);
  assert.equal(get.blockedMsPerRequest, 0.05);
});
