// A mix whose median is fast can hold an endpoint that waits: diagnose --mix with GET /slow waiting 80 ms on a timer
// (a fifth of the requests, the loop 11% busy) read "healthy: no stall found". The wait verdict now names that endpoint.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { slowEndpoint, waitingOnDownstream } from '../../src/analysis/verdict-downstream.js';
import { slowUnexplained } from '../../src/analysis/verdict-outside.js';
import { wordFinding } from '../../src/report/diagnose-words.js';
import { SLOW_P50_MS, SLOW_ENDPOINT_MIN_REQUESTS } from '../../src/base/thresholds.js';
import { buildEvidence } from '../../src/diagnose/evidence.js';
import { syntheticResult } from './synthetic.js';

const endpoint = (name, requests, p50Ms, share) => ({ name, requests, share, p50Ms, p99Ms: p50Ms * 1.1 });

/** The figures of `diagnose -d 3s --mix` on a server whose GET /slow waits 80 ms on a timer. */
function evidence(endpoints) {
  return {
    mode: 'command', probe: true, probeReason: null,
    load: {
      mode: 'closed', rps: 1880, requests: 5645, attempts: 5645, connections: 30, errors: 0, errorRate: 0, statuses: { 200: 5645 },
      p50Ms: 0.09, p99Ms: 81.6, maxMs: 85.2, measuredMs: 3000, plannedMs: 3000, endpoints,
    },
    generator: { elu: 0.05, cpuPct: 5, threads: 1 },
    processes: [{ label: 'main', pid: 7, role: 'main', elu: 0.11, loopDelayP50Ms: 1, loopDelayP99Ms: 3, loopDelayMaxMs: 5, cpuPct: 11, blockedFraction: 0, gcFraction: 0.01, gcPeakMsPerSec: 5 }],
    machine: { cores: 2, cpus: [40, 35], busyPct: 38 },
    mainThread: null, pid: 7,
  };
}

const MIX = [endpoint('GET /fast', 3415, 0.07, 0.605), endpoint('GET /slow', 1078, 80.4, 0.191), endpoint('GET /other', 1152, 0.07, 0.204)];

test('an endpoint of a mix waiting 80 ms while the loop idles is the verdict, named, not "healthy"', () => {
  const { verdict } = diagnoseEvidence(evidence(MIX));
  assert.equal(verdict.id, 'downstream-wait', JSON.stringify(verdict));
  assert.equal(verdict.figures.endpoint.name, 'GET /slow');
  const words = wordFinding(verdict);
  assert.match(words.title, /^requests to GET \/slow wait on I\/O, a downstream or a timer/);
  assert.match(words.evidence[0], /GET \/slow \(19% of the requests\): p50 80\.4 ms.*where the whole mix's p50 is 0\.09 ms/);
  assert.match(words.next[0], /GET \/slow waits on/);
});

test('the slow endpoint needs its median at the threshold and enough requests to read it', () => {
  assert.equal(slowEndpoint([endpoint('GET /a', SLOW_ENDPOINT_MIN_REQUESTS, SLOW_P50_MS, 0.1)])?.name, 'GET /a');
  assert.equal(slowEndpoint([endpoint('GET /a', SLOW_ENDPOINT_MIN_REQUESTS - 1, 80, 0.01)]), null);
  assert.equal(slowEndpoint([endpoint('GET /a', 500, SLOW_P50_MS - 0.1, 0.1)]), null);
  assert.equal(slowEndpoint([endpoint('GET /a', 500, 30, 0.1), endpoint('GET /b', 500, 90, 0.1)])?.name, 'GET /b');
  assert.equal(slowEndpoint(undefined), null);
  // A mix of fast endpoints stays healthy.
  assert.equal(diagnoseEvidence(evidence([endpoint('GET /fast', 5000, 0.07, 1)])).verdict.id, 'healthy');
});

test("the evidence carries each endpoint's own median from the load result", () => {
  const result = syntheticResult();
  result.load.endpoints = [{ name: 'GET /slow', method: 'GET', path: '/slow', requests: 1078, share: 0.191, p50Ms: 80.4, p99Ms: 83.3 }];
  assert.deepEqual(buildEvidence(result).load.endpoints, [{ name: 'GET /slow', requests: 1078, share: 0.191, p50Ms: 80.4, p99Ms: 83.3 }]);
});

test('a median the server\'s own loop time explains is work, not a wait: no downstream-wait, whole load or endpoint', () => {
  // A handler burning 30 ms a request at --rate 5 (loop 16% busy, its route 30.6 ms each) read "requests wait on I/O
  // or a downstream, not on this process".
  const spin = evidence(null);
  spin.load = { ...spin.load, rps: 5, requests: 15, attempts: 15, p50Ms: 32, p99Ms: 41.9, maxMs: 42 };
  spin.processes[0] = { ...spin.processes[0], elu: 0.16, routes: [{ route: 'GET /slow', requests: 15, loopMs: 459, loopMsPerRequest: 30.6, spawnsPerRequest: 0, blockedMsPerRequest: 0, busyShare: 0.95 }] };
  assert.notEqual(diagnoseEvidence(spin).verdict.id, 'downstream-wait');
  // The same latency over a route of 0.07 ms a request, the loop as busy at 1,880 req/s, is a wait.
  spin.processes[0].routes = [{ ...spin.processes[0].routes[0], loopMs: 1, loopMsPerRequest: 0.07 }];
  spin.load = { ...spin.load, rps: 1880, requests: 5645, attempts: 5645 };
  assert.equal(diagnoseEvidence(spin).verdict.id, 'downstream-wait');
  // A mix endpoint whose own route burns 30 ms: not named as waiting; one whose route takes 0.07 ms: named.
  const routes = [{ route: 'GET /slow', requests: 1078, loopMs: 33_000, loopMsPerRequest: 30.6, spawnsPerRequest: 0, blockedMsPerRequest: 0, busyShare: 0.8 }];
  assert.equal(slowEndpoint(MIX, routes), null);
  assert.equal(slowEndpoint(MIX, [{ ...routes[0], loopMsPerRequest: 0.07 }])?.name, 'GET /slow');
});

test('seen from outside (--url --pid, no routes): a median the main thread\'s busy time per request explains is not a wait', () => {
  // The 30 ms handler at --rate 5, its main thread runnable 16% (32 ms a request): "requests wait on I/O or a downstream".
  const outside = evidence(null);
  outside.probe = false;
  outside.mode = 'url';
  outside.load = { ...outside.load, rps: 5, requests: 15, attempts: 15, p50Ms: 31.2, p99Ms: 35.6, maxMs: 36 };
  outside.processes = [{ label: null, pid: 7, role: 'main', elu: null, cpuPct: 14 }];
  outside.mainThread = { pid: 7, onCpu: 0.14, waitingForCpu: 0.02, runnable: 0.16 };
  assert.equal(waitingOnDownstream(outside), null);
  // At 178 req/s the same 16% is 0.9 ms a request: a 162 ms median is a wait.
  outside.load = { ...outside.load, rps: 178, requests: 535, attempts: 535, p50Ms: 162, p99Ms: 185 };
  assert.equal(waitingOnDownstream(outside)?.id, 'downstream-wait');
});

test('an open loop far beyond what its connections carried: the latency is the schedule\'s wait, not a wait on a downstream', () => {
  // Hello-world at --rate 30000 on 1 connection: 10,435 req/s at ELU 0.49, p50 585 ms timed from when each request was
  // due. It read "requests wait on I/O or a downstream, not on this process … time the calls each request waits on".
  const queued = evidence(null);
  queued.load = { ...queued.load, mode: 'open', rate: 30000, connections: 1, rps: 10435, requests: 20919, attempts: 20919, p50Ms: 585, p99Ms: 1297, maxMs: 1315 };
  queued.processes[0] = { ...queued.processes[0], elu: 0.49, cpuPct: 58, otherThreads: { cpuPct: 5 }, routes: [{ route: 'GET /', requests: 20919, loopMs: 1000, loopMsPerRequest: 0.05, spawnsPerRequest: 0, blockedMsPerRequest: 0, busyShare: 1 }] };
  assert.equal(waitingOnDownstream(queued), null);
  assert.notEqual(diagnoseEvidence(queued).verdict.id, 'downstream-wait');
  // A server waiting 20 ms a request at --rate 200 on 2 connections: 94 req/s, 21 ms on its connection each: a wait.
  const waiting = evidence(null);
  waiting.load = { ...waiting.load, mode: 'open', rate: 200, connections: 2, rps: 94, requests: 188, attempts: 188, p50Ms: 551, p99Ms: 1064, maxMs: 1070 };
  waiting.processes[0] = { ...waiting.processes[0], elu: 0.05, cpuPct: 5, routes: [{ route: 'GET /', requests: 188, loopMs: 62, loopMsPerRequest: 0.33, spawnsPerRequest: 0, blockedMsPerRequest: 0, busyShare: 0.6 }] };
  assert.equal(waitingOnDownstream(waiting)?.id, 'downstream-wait');
  // More than half the rate answered: the latency is read as before (1 connection / 94 req/s, 10.6 ms, would not be slow).
  const within = structuredClone(waiting);
  within.load = { ...within.load, connections: 1, rate: 150 };
  assert.equal(waitingOnDownstream(within)?.id, 'downstream-wait');
});

test('seen from outside (--url, no --pid), an open loop far beyond what its connections carried is not "responses are slow"', () => {
  // Hello-world at --rate 30000 on 1 connection: p50 259 ms, p99 839 ms timed from when each request was due, each on its
  // connection ~0.1 ms. It read "responses are slow, and the cause cannot be seen from outside … pass --pid".
  const outside = evidence(null);
  outside.probe = false;
  outside.mode = 'url';
  outside.processes = [];
  outside.load = { ...outside.load, mode: 'open', rate: 30000, connections: 1, rps: 9800, requests: 19600, attempts: 19600, p50Ms: 259, p99Ms: 839, maxMs: 850 };
  assert.equal(slowUnexplained(outside), null);
  // A server waiting 20 ms on 2 connections at --rate 500 (94 req/s, 21 ms each): slow, as before.
  outside.load = { ...outside.load, rate: 500, connections: 2, rps: 94, requests: 188, attempts: 188, p50Ms: 841, p99Ms: 1633 };
  assert.equal(slowUnexplained(outside)?.id, 'slow-unexplained');
  // The rate answered: read as before.
  outside.load = { ...outside.load, rate: 100, connections: 1, rps: 94, p50Ms: 25, p99Ms: 60 };
  assert.equal(slowUnexplained(outside)?.id, 'slow-unexplained');
});
