// A server whose HTTP server runs in a worker thread (the main thread only starts it): one thread at
// ELU 0.89 read "The figures support 3 workers (this run: 1 seen); no size knob was found", where no
// second thread can listen on the port. The thread that serves is the server's loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { serverProcesses } from '../../src/analysis/advice-input.js';

const route = { method: 'GET', path: '/', requests: 1500, meanMs: 1.98 };
const main = { key: '1', pid: 1, threadId: 0, role: 'main', label: 'main', series: [], summary: { elu: 0.01, routes: [] } };
const thread = (threadId, routes) => ({ key: `1:${threadId}`, pid: 1, threadId, role: 'thread', label: `thread ${threadId}`, series: [], summary: { elu: 0.89, routes } });
const server = { pid: 1, workers: [] };

test('the worker thread that serves HTTP while the main thread serves nothing is the server\'s loop, not a pool of one', () => {
  const listener = thread(1, [route]);
  const helper = thread(2, []);
  const { main: m, workers } = serverProcesses(/** @type {any} */ ([main, listener, helper]), /** @type {any} */ (server));
  assert.equal(m?.label, 'thread 1');
  assert.equal(m?.role, 'main');
  assert.deepEqual(workers.map((w) => w.label), ['thread 2']);
});

test('a pool of worker threads beside a main thread that serves stays a pool', () => {
  const served = { ...main, summary: { elu: 0.3, routes: [route] } };
  const { main: m, workers } = serverProcesses(/** @type {any} */ ([served, thread(1, []), thread(2, [])]), /** @type {any} */ (server));
  assert.equal(m?.label, 'main');
  assert.deepEqual(workers.map((w) => w.label), ['thread 1', 'thread 2']);
  const unrouted = serverProcesses(/** @type {any} */ ([{ ...main, summary: { elu: 0.3 } }, thread(1, []), thread(2, [])]), /** @type {any} */ (server));
  assert.equal(unrouted.main?.label, 'main', 'no route timed anywhere (--no-probe, an old file): as before');
});

test('diagnose reads the serving worker thread as the main loop too, not as a pool of one ("a larger pool will help")', async () => {
  const { buildEvidence } = await import('../../src/diagnose/evidence.js');
  const result = { plan: { target: { kind: 'command' }, load: {} }, load: { requests: 1500, rps: 500 }, samples: { processes: [main, thread(1, [route])], probe: { available: true } } };
  const evidence = buildEvidence(/** @type {any} */ (result));
  assert.deepEqual(evidence.processes.map((p) => [p.label, p.role]), [['main', 'thread'], ['thread 1', 'main']]);
  const pool = buildEvidence(/** @type {any} */ ({ ...result, samples: { ...result.samples, processes: [{ ...main, summary: { routes: [route] } }, thread(1, [])] } }));
  assert.deepEqual(pool.processes.map((p) => [p.label, p.role]), [['main', 'main'], ['thread 1', 'thread']]);
});

test('an idle thread beside a main thread saturated by its own JavaScript is no pool; one it feeds, or one idle at a light load, is', () => {
  const saturated = { ...main, summary: { elu: 1, busy: 1, routes: [route] } };
  const idle = { ...thread(1, []), summary: { elu: 0, busy: 0, routes: [] } };
  // run -- node thr.js: a server spinning 2 ms a request beside an eval'd timer thread read "The figures support 1 worker (this run: 1 seen)".
  assert.deepEqual(serverProcesses(/** @type {any} */ ([saturated, idle]), /** @type {any} */ (server)).workers, []);
  const fed = { ...thread(2, []), summary: { elu: 0.35, busy: 0.35, routes: [] } };
  assert.deepEqual(serverProcesses(/** @type {any} */ ([saturated, idle, fed]), /** @type {any} */ (server)).workers.map((w) => w.label), ['thread 2']);
  const light = { ...saturated, summary: { elu: 0.2, busy: 0.2, routes: [route] } };
  assert.deepEqual(serverProcesses(/** @type {any} */ ([light, idle]), /** @type {any} */ (server)).workers.map((w) => w.label), ['thread 1']);
});
