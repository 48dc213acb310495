/**
 * The server side of each route: how long the thread runs JavaScript for each
 * route it serves, how often that route spawns and how long it is blocked doing so.
 *
 * Node publishes `http.server.request.start` on diagnostics_channel when a request's
 * headers are parsed, just before the server's 'request' handler runs (Node 20.20,
 * 22, 24, 26). There the request's route (`GET /items/:id`, the id rule of
 * route-template.js) becomes the store of an AsyncLocalStorage, which Node carries
 * into everything the handler starts: timers, I/O callbacks, promise continuations
 * after `await`. An async hook's `before` and `after` then bracket every callback
 * and microtask the thread runs: the time between them is charged to the route
 * whose store is active. The store is the route's running total itself, so a
 * request costs one Map lookup and no allocation.
 *
 * Turns nest (a parser callback inside a socket's read callback): a stack keeps the
 * outer owner, which gets the clock back when the inner turn ends. The handler's
 * synchronous part starts inside the parser's turn, which began under the previous
 * request's store (or none): the clock changes hands at `request.start`.
 *
 * Not attributed: work a route leaves to an EventEmitter that was made before the
 * request and emits outside it (a connection pool's 'data' events; on Node 24+, where
 * AsyncLocalStorage follows the async context frame, a request's own body events
 * too: they run in the parser's frame, made with the connection).
 */
import { AsyncLocalStorage, createHook } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { routeName } from '../route-template.js';

/** Published by Node's HTTP server when a request's headers are parsed, before its 'request' handler. */
export const REQUEST_START_CHANNEL = 'http.server.request.start';

/**
 * Routes kept apart per thread; requests of any further one share ROUTE_OVERFLOW, so a
 * server whose paths are not templated by the id rule (slugs, file names) cannot
 * grow the probe's memory or its reports. The same bound as a mix's endpoints.
 */
export const MAX_ROUTES = 200;

/** The route that collects requests beyond MAX_ROUTES. */
export const ROUTE_OVERFLOW = 'other routes';

/**
 * Starts attributing this thread's event-loop time to the routes it serves.
 * @returns {{ take: () => { route: string, requests: number, loopMs: number, spawns: number, blockedMs: number }[],
 *   onSpawn: (blockedMs: number) => void, uninstall: () => void }}
 *   `take`: each route with requests or time since the previous take (those without are dropped);
 *   `onSpawn`: a spawn just blocked the thread for `blockedMs`, charged to the route running it
 */
export function installRouteTimer() {
  /** route name → its running totals (the AsyncLocalStorage store) */
  const routes = new Map();
  const storage = new AsyncLocalStorage();

  // Who the clock runs for (a route's totals, or null: no request), and since when.
  let owner = null;
  let since = 0;
  const stack = [];
  const handTo = (next) => {
    if (next === owner) return;
    const now = performance.now();
    if (owner !== null) owner.loopMs += now - since;
    owner = next;
    since = now;
  };
  const hook = createHook({
    before() {
      stack.push(owner);
      handTo(storage.getStore() ?? null);
    },
    after() {
      handTo(stack.length > 0 ? stack.pop() : null);
    },
  });

  const onRequest = (message) => {
    const request = message?.request;
    if (!request) return;
    const name = routeName(request.method ?? 'GET', request.url ?? '/');
    let route = routes.get(name);
    if (!route) {
      route = routes.size < MAX_ROUTES ? fresh(name) : (routes.get(ROUTE_OVERFLOW) ?? fresh(ROUTE_OVERFLOW));
      routes.set(route.route, route);
    }
    route.requests += 1;
    storage.enterWith(route);
    handTo(route);
  };
  hook.enable();
  diagnosticsChannel.subscribe(REQUEST_START_CHANNEL, onRequest);

  return {
    take() {
      // The turn running now (the probe's own timer) is charged up to here, and from here on.
      if (owner !== null) {
        const now = performance.now();
        owner.loopMs += now - since;
        since = now;
      }
      const taken = [];
      for (const route of routes.values()) {
        if (route.requests === 0 && route.loopMs === 0 && route.spawns === 0) continue;
        taken.push({ route: route.route, requests: route.requests, loopMs: route.loopMs, spawns: route.spawns, blockedMs: route.blockedMs });
        route.requests = 0;
        route.loopMs = 0;
        route.spawns = 0;
        route.blockedMs = 0;
      }
      return taken;
    },
    onSpawn(blockedMs) {
      if (owner === null) return;
      owner.spawns += 1;
      owner.blockedMs += blockedMs;
    },
    uninstall() {
      diagnosticsChannel.unsubscribe(REQUEST_START_CHANNEL, onRequest);
      hook.disable();
      storage.disable();
    },
  };
}

function fresh(route) {
  return { route, requests: 0, loopMs: 0, spawns: 0, blockedMs: 0 };
}
