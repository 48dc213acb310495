/**
 * Rule: requests are slow while the server is idle: it is waiting on something
 * outside its own thread (a database, an HTTP downstream, a disk, a lock). An idle
 * loop is not enough: the work may run on threads beside it (libuv's pool hashing
 * passwords), so it needs evidence of the wait: outbound connections, or the
 * server's threads outside its loops mostly off-CPU: neither on a CPU nor waiting
 * for one, which a starved pool does (verdict-threads.js reads them).
 */
import { where, worst, num, outsideBusy, serverP50 } from './verdict-common.js';
import { offLoopThreads } from './verdict-threads.js';
import { SLOW_P50_MS, IDLE_ELU_MAX, IDLE_BUSY_MAX, OFF_LOOP_BUSY_CORES, SLOW_ENDPOINT_MIN_REQUESTS, WAIT_WORK_RATIO } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';
export { SLOW_P50_MS, IDLE_ELU_MAX, IDLE_BUSY_MAX } from '../base/thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function waitingOnDownstream(evidence) {
  const { load } = evidence;
  // A mix whose median is fast can hold an endpoint that waits: "healthy" was said of a mix with GET /slow at p50 80 ms.
  // A median the server's own loop time per request explains is work, not a wait: a handler burning 30 ms a request
  // at --rate 5 (loop 16% busy, its route 30.6 ms each) read "requests wait on I/O or a downstream".
  const routes = evidence.processes.flatMap((p) => p.routes ?? []);
  const p50Ms = serverP50(load);
  const slowAll = isFiniteNumber(p50Ms) && p50Ms >= SLOW_P50_MS && !workExplains(p50Ms, meanLoopMs(routes));
  // An open loop far beyond its rate: each endpoint's latency is mostly the schedule's wait too, and its own time not known.
  const endpoint = slowAll || p50Ms !== load.p50Ms ? null : slowEndpoint(load.endpoints, routes);
  if (!slowAll && !endpoint) return null;
  let busy;
  let place;
  // The loops' busy time in all (a share of one), for their time per request.
  let busyTotal;
  if (evidence.probe) {
    // kept: the processes with an ELU
    const measured = /** @type {Array<import('./verdict-common.js').ProcessEvidence & { elu: number }>} */ (evidence.processes.filter((p) => num(p.elu) !== null));
    if (measured.length === 0 || measured.some((p) => p.elu > IDLE_ELU_MAX)) return null;
    const busiest = /** @type {import('./verdict-common.js').ProcessEvidence} one at least, each with a finite ELU */ (worst(measured, (p) => p.elu));
    busy = { busyFrom: 'elu', elu: busiest.elu };
    place = where(busiest);
    busyTotal = measured.reduce((sum, p) => sum + p.elu, 0);
  } else {
    const seen = outsideBusy(evidence);
    if (!seen || seen.busy > IDLE_BUSY_MAX) return null;
    busy = seen.figures;
    place = seen.where;
    busyTotal = seen.busy;
  }
  // Without route figures (no probe: --url --pid), the busy time over the throughput: the same 30 ms handler seen from
  // outside, its main thread runnable 16% at 5 req/s, read as a wait.
  if (slowAll && load.rps > 0 && workExplains(/** @type {number} */ (p50Ms), (busyTotal * 1000) / load.rps)) return null;
  const waits = waitEvidence(evidence);
  if (!waits) return null;
  return {
    id: 'downstream-wait',
    kind: 'problem',
    where: place,
    figures: { p50Ms: load.p50Ms, p99Ms: num(load.p99Ms), ...busy, ...waits, ...(endpoint ? { endpoint } : {}) },
  };
}

/**
 * The endpoint of a mix with the slowest median of at least SLOW_P50_MS, over SLOW_ENDPOINT_MIN_REQUESTS or more, that
 * no route's own loop time per request explains (the route by its name, else any route, which may be it); null when none.
 * @param {NonNullable<import('./verdict-common.js').Evidence['load']['endpoints']>|undefined} endpoints
 * @param {import('./route-costs.js').RouteCost[]} [routes] the routes the server's threads served (probe)
 * @returns {{ name: string, p50Ms: number, p99Ms: number|null, share: number|null, requests: number }|null}
 */
export function slowEndpoint(endpoints, routes = []) {
  let slowest = null;
  for (const e of endpoints ?? []) {
    if (!isFiniteNumber(e.p50Ms) || e.p50Ms < SLOW_P50_MS || !(e.requests >= SLOW_ENDPOINT_MIN_REQUESTS)) continue;
    const own = routes.filter((r) => r.route === e.name);
    if ((own.length > 0 ? own : routes).some((r) => workExplains(/** @type {number} */ (e.p50Ms), r.loopMsPerRequest))) continue;
    if (!slowest || e.p50Ms > slowest.p50Ms) slowest = { name: e.name, p50Ms: e.p50Ms, p99Ms: num(e.p99Ms), share: num(e.share), requests: e.requests };
  }
  return slowest;
}

/**
 * What shows the server waits rather than works: its outbound connections, else
 * its threads outside the loop runnable (on a CPU or waiting for one) below
 * OFF_LOOP_BUSY_CORES, else (those threads not
 * read) the whole process's CPU below IDLE_BUSY_MAX of a core; null when none does.
 * @param {import('./verdict-common.js').Evidence} evidence
 */
function waitEvidence(evidence) {
  const connections = (evidence.downstreams ?? []).reduce((sum, d) => sum + (num(d.connections) ?? 0), 0);
  const threads = offLoopThreads(evidence);
  const threadsCores = threads ? threads.runnableCores : null;
  const base = { downstreamConnections: connections, threadsCores, threadsThreshold: OFF_LOOP_BUSY_CORES };
  if (connections > 0) return { ...base, waitFrom: 'downstreams' };
  if (threads) return threads.runnableCores < OFF_LOOP_BUSY_CORES ? { ...base, waitFrom: 'threads-off-cpu' } : null;
  const cpu = evidence.processes.filter((p) => p.role !== 'thread').map((p) => num(p.cpuPct)).filter((x) => x !== null);
  if (cpu.length === 0) return null;
  const cores = cpu.reduce((a, b) => a + b, 0) / 100;
  return cores <= IDLE_BUSY_MAX ? { ...base, processCores: cores, waitFrom: 'process-off-cpu' } : null;
}

/**
 * Whether a median is the server's own work: under WAIT_WORK_RATIO × the loop time per request.
 * @param {number} p50Ms
 * @param {number|null} loopMs
 */
function workExplains(p50Ms, loopMs) {
  return isFiniteNumber(loopMs) && p50Ms < WAIT_WORK_RATIO * loopMs;
}

/**
 * The loop time per request over every route served; null without route figures.
 * @param {import('./route-costs.js').RouteCost[]} routes
 */
function meanLoopMs(routes) {
  const requests = routes.reduce((sum, r) => sum + (r.requests ?? 0), 0);
  if (!(requests > 0)) return null;
  return routes.reduce((sum, r) => sum + (r.requests ?? 0) * (isFiniteNumber(r.loopMsPerRequest) ? r.loopMsPerRequest : 0), 0) / requests;
}
