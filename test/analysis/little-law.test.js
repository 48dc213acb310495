/**
 * When the connection count, not the server, bounds the throughput (Little's law),
 * on synthetic figures: the 16-core case of #36 (4 workers, 30 connections, p50 2.4 ms,
 * 12,498 req/s) and its opposites (a generator gap, a saturated machine, an open loop).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { littleLaw } from '../../src/analysis/little-law.js';
import { hasEnoughResponses } from '../../src/analysis/step-enough.js';
import { findBottleneck } from '../../src/analysis/bottleneck.js';
import { recommend } from '../../src/analysis/recommend.js';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { wordBottleneck, wordRecommendation } from '../../src/report/tune-words.js';
import { wordDiagnosis } from '../../src/report/diagnose-words.js';
import { sweep, CALM } from './sweeps.js';

const SEEN = { loadMode: 'closed', connections: 30, p50Ms: 2.4, meanMs: null, loadRps: 12498 };

test('Little\'s law: 30 connections / 2.4 ms ≈ 12,500 req/s holds; a generator gap or an open loop does not', () => {
  const seen = littleLaw({ mode: 'closed', connections: 30, rps: 12498, p50Ms: 2.4 });
  assert.equal(seen.latencyFrom, 'p50');
  assert.equal(Math.round(seen.predictedRps), 12500);
  assert.equal(seen.holds, true);
  assert.equal(littleLaw({ mode: 'closed', connections: 30, rps: 12498, meanMs: 2.5, p50Ms: 2.4 }).latencyFrom, 'mean');
  // Half the throughput the connections could carry: they waited on the generator, not on the server.
  assert.equal(littleLaw({ mode: 'closed', connections: 30, rps: 6000, p50Ms: 2.4 }).holds, false);
  assert.equal(littleLaw({ mode: 'open', connections: 30, rps: 12498, p50Ms: 2.4 }), null);
  assert.equal(littleLaw({ mode: 'closed', connections: 30, rps: 12498 }), null);
});

test('tune\'s bottleneck names the connection count when the server had room, and only then', () => {
  const roomy = { ...CALM, cores: 16, systemCpuPct: 35, ...SEEN };
  const found = wordBottleneck(findBottleneck(roomy));
  assert.deepEqual(found.findings.map((f) => f.kind), ['connections']);
  assert.match(found.text, /^the connection count is the limit, not the server: 30 connections \/ 2\.40 ms \(median latency\) ≈ 12,500 req\/s, the throughput measured \(12,498 req\/s\), while the server had room \(cores 35% busy, main thread 40%\); measure with more connections, e\.g\. --connections 60/);
  // The cores full: the machine is the limit, not the connections.
  assert.deepEqual(findBottleneck({ ...roomy, systemCpuPct: 97 }).findings.map((f) => f.kind), ['machine']);
  // A generator gap: throughput far below what the connections carry.
  assert.deepEqual(findBottleneck({ ...roomy, loadRps: 6000 }).findings, []);
  // No sampler figures: the server's room is not known, so nothing is claimed.
  assert.deepEqual(findBottleneck({ ...SEEN }).findings, []);
  // A main thread or a pool near its limit: not waiting for connections, though the law holds.
  assert.deepEqual(findBottleneck({ ...roomy, mainElu: 0.83 }).findings, []);
  assert.deepEqual(findBottleneck({ ...roomy, workers: 4, workersBusy: 0.8 }).findings, []);
});

test('a sweep whose best size was bounded by its 30 connections says so', () => {
  const rps = { 1: 4200, 2: 8100, 4: 12498, 8: 11762, 16: 11046 };
  const steps = sweep({ sizes: [1, 2, 4, 8, 16], rps: (size) => rps[size], noise: 0.005, signals: (size) => ({ cores: 16, systemCpuPct: 20 + size, ...SEEN, loadRps: rps[size], p50Ms: 30000 / rps[size] }) });
  const rec = wordRecommendation(recommend(steps));
  assert.equal(rec.best.size, 4);
  assert.ok(rec.reasons.includes('connections'));
  assert.ok(!rec.reasons.includes('limit-not-sampled'));
  assert.match(rec.sentences.at(-1), /^At the best size \(4 workers\), the connection count is the limit, not the server: 30 connections/);
});

test('an open loop served in full: the rate offered is the limit, not "one spawnbench does not sample"', () => {
  // tune --processes 1,2 --rate 50: 50 req/s at both sizes read "throughput stopped rising past it (50 req/s at 2
  // workers) … the limit is one spawnbench does not sample; look at what the workers wait on (memory and swap, disk …)".
  const open = { ...CALM, cores: 2, systemCpuPct: 30, loadMode: 'open', rate: 50, connections: 10, p50Ms: 1, meanMs: 1.2 };
  const steps = sweep({ sizes: [1, 2], rps: () => 50, noise: 0.002, signals: (size) => ({ ...open, loadRps: 50 - size * 0.1 }) });
  const rec = wordRecommendation(recommend(steps));
  assert.ok(rec.reasons.includes('rate') && !rec.reasons.includes('limit-not-sampled'), rec.reasons.join(','));
  const last = rec.sentences.at(-1);
  assert.match(last, /the rate offered is the limit, not the server: the open loop sent 50 req\/s and 50 req\/s were served/);
  assert.doesNotMatch(last, /does not sample|memory and swap/);
  // Served well below its rate: the server (or what limits it) set the throughput, as before.
  assert.deepEqual(findBottleneck({ ...open, rate: 1000, loadRps: 480 }).findings.map((f) => f.kind), []);
  // A closed loop has no rate.
  assert.ok(!findBottleneck({ ...open, loadMode: 'closed', rate: null, loadRps: 50 }).findings.some((f) => f.kind === 'rate'));
});

/** Diagnose's evidence of a server with room: a main thread at 30%, 16 cores a third busy. */
function evidence(load) {
  return {
    mode: 'command', probe: true, probeReason: null,
    load: { mode: 'closed', rps: 12498, requests: 124980, attempts: 124980, errors: 0, errorRate: 0, statuses: {}, connections: 30, p50Ms: 2.4, p99Ms: 9, maxMs: 20, ...load },
    generator: { elu: 0.3, cpuPct: 30, threads: 1 },
    processes: [{
      label: 'main', pid: 7, role: 'main', elu: 0.3, busy: 0.3, busyFrom: 'elu', cpuPct: 30, loopDelayP50Ms: 0.2, loopDelayP99Ms: 2, loopDelayMaxMs: 5,
      blockedFraction: 0, spawnsPerSec: 0, msPerSpawn: null, gcFraction: 0.01, gcPeakMsPerSec: 5,
    }],
    machine: { cores: 16, cpus: new Array(16).fill(30) },
    spawnedCpuPct: null, mainThread: null, pid: 7,
  };
}

test('diagnose\'s "raise --connections" holds on the 16-core case, and says why with Little\'s law', () => {
  const d = wordDiagnosis(diagnoseEvidence(evidence({})));
  assert.equal(d.verdict.id, 'healthy');
  assert.equal(d.verdict.figures.next, 'raise-connections');
  assert.equal(d.verdict.figures.connectionBound.holds, true);
  assert.match(d.verdict.next[0], /^the connection count, not the server, bounded the throughput \(30 connections \/ 2\.40 ms \(median latency\) ≈ 12,500 req\/s, the throughput measured \(12,498 req\/s\)\) while the server had idle time: raise --connections \(e\.g\. 60\)/);
  // Half that throughput at the same latency: the connections were not all waiting on the server.
  const gap = wordDiagnosis(diagnoseEvidence(evidence({ rps: 6000, requests: 60000, attempts: 60000 })));
  assert.equal(gap.verdict.figures.connectionBound, null);
  assert.doesNotMatch(gap.verdict.next.join(' '), /connection count/);
  // The main thread 83% busy (a CPU-burning server on a crowded machine): not the connection count.
  const near = wordDiagnosis(diagnoseEvidence({ ...evidence({}), processes: [{ ...evidence({}).processes[0], elu: 0.83, busy: 0.83, cpuPct: 83 }] }));
  assert.equal(near.verdict.figures.connectionBound, null);
  assert.doesNotMatch(near.verdict.next.join(' '), /connection count/);
  // Nor "the server had idle time: raise --connections" (a single-threaded server read 88% busy with p50 585 ms was told so).
  assert.equal(near.verdict.figures.next, 'near-limit');
  assert.match(near.verdict.next[0], /^the busiest thread was 83% busy, near its own limit: more connections would mostly queue at it/);
  assert.doesNotMatch(near.verdict.next.join(' '), /idle time|raise --connections/);
});

test('an open loop far beyond what its connections carried: the connection count is the limit; its steps are not extended to chase a p99', () => {
  // tune --processes 1,2 --rate 200 -c 2 on a server waiting 20 ms a request: 94 req/s at both sizes. Each step ran to the
  // 60 s cap (its p99, the schedule's wait, grew with the step) and 5,799 responses were "too few to rank"; then "the
  // limit is one spawnbench does not sample".
  const beyond = { ...CALM, cores: 2, systemCpuPct: 30, loadMode: 'open', rate: 200, connections: 2, p50Ms: 800, meanMs: 790, loadRps: 94 };
  const found = wordBottleneck(findBottleneck(beyond));
  assert.deepEqual(found.findings.map((f) => f.kind), ['connections']);
  assert.match(found.text, /^the connection count is the limit, not the server: the open loop asked 200 req\/s and 2 connections carried 94, while the server had room .*--connections 4/);
  // More than half the rate answered, or latencies shorter than a request's time on its connection (the connections were
  // not all busy): not the connections.
  assert.deepEqual(findBottleneck({ ...beyond, loadRps: 150 }).findings, []);
  assert.deepEqual(findBottleneck({ ...beyond, p50Ms: 1, meanMs: 1.2 }).findings, []);
  assert.equal(hasEnoughResponses({ requests: 5799, durationMs: 60_000, p99Ms: 31_000, rate: 200 }), true);
  assert.equal(hasEnoughResponses({ requests: 5799, durationMs: 60_000, p99Ms: 31_000 }), false, 'a closed loop still needs 5 × its p99');
  assert.equal(hasEnoughResponses({ requests: 150, durationMs: 1600, p99Ms: 1500, rate: 200 }), false, 'still TUNE_MIN_RESPONSES');
});
