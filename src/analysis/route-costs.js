/**
 * What a thread's routes cost it (the probe's per-route figures, src/probe/route-timer.js):
 * the route that holds its event loop, and the routes that spawn. Pure: ids and figures.
 */
import { num } from './verdict-common.js';

/**
 * @typedef {object} RouteCost one route a thread served (src/sample/probe-totals.js routeFigures)
 * @property {string} route            'GET /items/:id'
 * @property {number} requests
 * @property {number} loopMsPerRequest event-loop time of its callbacks and continuations, per request
 * @property {number} spawnsPerRequest
 * @property {number} blockedMsPerRequest time blocked in spawn, per request
 * @property {number|null} busyShare   its share of the thread's busy time, 0..1
 */

/**
 * The route that takes the most of a thread's event loop, with its figures; null
 * when the probe named none.
 * @param {{ routes?: RouteCost[]|null }} p
 * @returns {{ route: string, requests: number, loopMsPerRequest: number, busyShare: number|null }|null}
 */
export function heaviestRoute(p) {
  const routes = (p.routes ?? []).filter((r) => r.requests > 0 && num(r.loopMsPerRequest) !== null);
  if (routes.length === 0) return null;
  const top = routes.reduce((a, b) => (b.loopMsPerRequest * b.requests > a.loopMsPerRequest * a.requests ? b : a));
  return { route: top.route, requests: top.requests, loopMsPerRequest: top.loopMsPerRequest, busyShare: num(top.busyShare) };
}

/**
 * The routes that spawn, the most time blocked first.
 * @param {{ routes?: RouteCost[]|null }} p
 * @returns {{ route: string, spawnsPerRequest: number, blockedMsPerRequest: number }[]}
 */
export function spawningRoutes(p) {
  return (p.routes ?? [])
    .filter((r) => r.requests > 0 && r.spawnsPerRequest > 0)
    .sort((a, b) => b.blockedMsPerRequest * b.requests - a.blockedMsPerRequest * a.requests)
    .map((r) => ({ route: r.route, spawnsPerRequest: r.spawnsPerRequest, blockedMsPerRequest: r.blockedMsPerRequest }));
}
