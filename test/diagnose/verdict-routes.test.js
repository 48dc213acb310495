// The verdicts by route on synthetic figures: the JavaScript verdict names the route that
// holds the loop with its time per request and share of the busy time; spawn-blocked names
// the routes that spawn; without the probe's routes both read as before.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { jsBlocking } from '../../src/analysis/verdict-js.js';
import { spawnBlocked } from '../../src/analysis/verdict-spawn.js';
import { heaviestRoute, spawningRoutes } from '../../src/analysis/route-costs.js';
import { wordFinding } from '../../src/report/diagnose-words.js';
import { formatCpuProfile } from '../../src/report/diagnose-text.js';

const route = (name, requests, loopMsPerRequest, busyShare, spawnsPerRequest = 0, blockedMsPerRequest = 0) =>
  ({ route: name, requests, loopMs: requests * loopMsPerRequest, loopMsPerRequest, spawnsPerRequest, blockedMsPerRequest, busyShare });

const ROUTES = [
  route('GET /report', 200, 15.2, 0.71),
  route('GET /health', 1200, 0.25, 0.07),
  route('POST /convert', 100, 5.4, 0.12, 1, 4.6),
  route('PUT /files/:id', 40, 3, 0.03, 2, 2.5),
];

/** Evidence with one process, every figure given. */
function evidence(process) {
  return {
    mode: 'command', probe: true, probeReason: null,
    load: { mode: 'closed', rps: 400, requests: 4000, attempts: 4000, errors: 0, errorRate: 0, statuses: {}, p50Ms: 20, p99Ms: 90, maxMs: 120 },
    generator: { elu: 0.3, cpuPct: 30, threads: 1 },
    processes: [{
      label: 'main', pid: 7, elu: 0.95, loopDelayP50Ms: 12, loopDelayP99Ms: 60, loopDelayMaxMs: 80, cpuPct: 95,
      blockedFraction: 0.02, spawnsPerSec: 100, msPerSpawn: 4.6, gcFraction: 0.01, gcPeakMsPerSec: 10, ...process,
    }],
    mainThread: null, pid: 7,
  };
}

test('the heaviest route is the one with the most loop time in all, not per request', () => {
  // 2,000 requests of 1 ms outweigh 10 of 15 ms.
  const top = heaviestRoute({ routes: [route('GET /report', 10, 15, 0.05), route('GET /list', 2000, 1, 0.6)] });
  assert.deepEqual(top, { route: 'GET /list', requests: 2000, loopMsPerRequest: 1, busyShare: 0.6 });
  assert.equal(heaviestRoute({ routes: null }), null);
  assert.equal(heaviestRoute({ routes: [] }), null);
  assert.deepEqual(spawningRoutes({ routes: ROUTES }).map((r) => r.route), ['POST /convert', 'PUT /files/:id']);
});

test('js-blocking names the route that holds the main thread, with its figures', () => {
  const finding = jsBlocking(evidence({ routes: ROUTES }));
  assert.equal(finding.figures.route.route, 'GET /report');
  assert.equal(wordFinding(finding).title, 'the event loop is blocked by JavaScript: GET /report takes 15.2 ms of the main thread per request, 71% of its busy time');
  // Without the probe's routes (an older probe, Bun): the title as before.
  assert.equal(wordFinding(jsBlocking(evidence({ routes: null }))).title, 'the event loop is blocked by JavaScript');
});

test('a loop late from many short requests (hello-world at 1,000 connections) is saturated, not blocked by long work to move', () => {
  // 0.04 ms a request, loop delay p50 21 ms: it read "blocked by JavaScript … move long synchronous work (parsing,
  // hashing, big loops) to a worker thread", of a handler with no such work.
  const finding = jsBlocking(evidence({ elu: 0.95, loopDelayP50Ms: 20.9, loopDelayP99Ms: 91.7, loopDelayMaxMs: 124, blockedFraction: 0, gcFraction: 0.01, routes: [route('GET /', 52000, 0.04, 1)] }));
  assert.equal(finding.id, 'js-blocking', 'the same id for --json readers');
  assert.equal(finding.figures.shortRequests, true);
  const words = wordFinding(finding);
  assert.equal(words.title, 'the event loop is saturated by many short requests, not blocked by a long one: GET / takes 0.04 ms of the main thread per request, 100% of its busy time');
  assert.ok(!words.next.some((l) => /long synchronous work/.test(l)), words.next.join('\n'));
  assert.match(words.next[0], /^run more processes of it/);
  // One slow route among them, or routes that leave most of the busy time to something else (a timer): as before.
  assert.equal(jsBlocking(evidence({ routes: [route('GET /', 52000, 0.04, 0.5), route('GET /report', 10, 15, 0.45)] })).figures.shortRequests, false);
  assert.equal(jsBlocking(evidence({ routes: [route('GET /', 52000, 0.04, 0.3)] })).figures.shortRequests, false);
  assert.equal(wordFinding(jsBlocking(evidence({ routes: ROUTES }))).title.startsWith('the event loop is blocked by JavaScript'), true);
});

test('spawn-blocked names the routes that spawn, each with its spawns and blocked time per request', () => {
  const words = wordFinding(spawnBlocked(evidence({ blockedFraction: 0.3, routes: ROUTES })));
  assert.equal(words.title, 'the event loop is blocked inside spawn 30% of the time; POST /convert and PUT /files/:id spawn');
  assert.ok(words.evidence.includes('POST /convert: 1 spawn per request, blocked 4.60 ms per request'), words.evidence.join('\n'));
  assert.ok(words.evidence.includes('PUT /files/:id: 2 spawns per request, blocked 2.50 ms per request'), words.evidence.join('\n'));
  const one = wordFinding(spawnBlocked(evidence({ blockedFraction: 0.3, routes: ROUTES.slice(0, 3) })));
  assert.equal(one.title, 'the event loop is blocked inside spawn 30% of the time; POST /convert spawns');
  assert.equal(wordFinding(spawnBlocked(evidence({ blockedFraction: 0.3 }))).title, 'the event loop is blocked inside spawn 30% of the time');
});

test('a route name is the server\'s text: cleaned of escapes before it is shown', () => {
  const finding = jsBlocking(evidence({ routes: [route('GET /\u001b[31mred', 10, 20, 0.9)] }));
  assert.match(wordFinding(finding).title, /: GET \/red takes 20\.0 ms/);
});

test('--cpu-prof with a route named: the listing says its functions are every route\'s', () => {
  const profile = { dir: '/tmp/p', files: ['a.cpuprofile'], top: { file: 'a.cpuprofile', busyMs: 100, functions: [{ name: 'burn', url: '', line: null, selfMs: 80, share: 0.8 }] } };
  const lines = formatCpuProfile(profile, { route: 'GET /report', loopMsPerRequest: 15, busyShare: 0.7 });
  assert.equal(lines.at(-1), "  these are all routes' functions: a profile sample does not say which request it served (GET /report takes 15.0 ms of the main thread per request, 70% of its busy time)");
  assert.ok(!formatCpuProfile(profile).some((l) => l.includes('routes')));
});

test('the process lines show its costliest routes under it, every one in --json', async () => {
  const { formatProcesses } = await import('../../src/report/processes-text.js');
  const samples = { processes: [{ key: '7', pid: 7, label: 'main', role: 'main', summary: { elu: 0.9, cpuPct: 90, routes: ROUTES.map((r) => ({ ...r })) } }] };
  const text = formatProcesses(samples);
  assert.match(text, /^ {6}routes: GET \/report 15\.2 ms each \(71% of busy\)/m);
  // In the summary's order (the costliest first there), the fourth counted.
  assert.match(text, /GET \/health 0\.25 ms each \(7%\)$/m);
  assert.match(text, /POST \/convert 5\.40 ms each \(12%, 1 spawn\), 1 more$/m);
  assert.ok(!formatProcesses({ processes: [{ ...samples.processes[0], summary: { elu: 0.9, cpuPct: 90, routes: null } }] }).includes('routes'));
});
