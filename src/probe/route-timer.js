/**
 * The server side of each route: how long the thread runs JavaScript for each
 * route it serves, how often that route spawns and how long it is blocked doing so.
 *
 * Node publishes `http.server.request.start` on diagnostics_channel when a request's
 * headers are parsed, just before the server's 'request' handler runs (Node 20.20,
 * 22, 24, 26). There the request's route (`GET /items/:id`, the id rule of
 * route-template.js) takes the clock. An async hook's `before` and `after` bracket
 * every callback and microtask the thread runs, and its `init` hands the route on
 * the clock to every async resource made under it (timers, I/O, promises), so the
 * time of a callback or a continuation after `await` is charged to the route that
 * started it. The owners are kept in a Map by async id, not on the resources: an
 * AsyncLocalStorage writes its store on each resource made under it (Node 20), under a
 * new name for each window's new storage, which gave the thread's timers and sockets
 * new hidden classes and deoptimised Node's timer code (--trace-deopt); it also turns
 * on, for good, the JavaScript trampoline around every callback Node makes. A route's
 * owner is its running total itself, so a callback costs one Map lookup.
 *
 * Turns nest (a parser callback inside a socket's read callback): a stack keeps the
 * outer owner, which gets the clock back when the inner turn ends. The handler's
 * synchronous part starts inside the parser's turn, which began under the previous
 * request's route (or none): the clock changes hands at `request.start`.
 *
 * The connection's later callbacks (the request body's 'data' and 'end', where a
 * POST handler does its work) run on the connection's resource, made before the
 * request: the resource whose turn the request started in is given the request's
 * route too, so the body events, and what they start, are the route's (Node 20 to
 * 26 alike; AsyncLocalStorage differs there, Node 24+ keeping a store in the
 * connection's async context frame).
 *
 * Its cost: the hook runs around every callback of the thread, ~12 µs per request
 * of a small route on Node 20 (see ROUTE_SAMPLED_PER_SEC), most of what such a
 * request costs. So it samples: every ROUTE_PERIOD_MS a window opens for the next
 * ROUTE_SAMPLED_PER_SEC × ROUTE_PERIOD_MS / 1000 requests (all of them below that rate)
 * and closes once they have started.
 * Only requests that start in a window take the clock and a count, and the hook stays
 * on after the window until they have all answered (http.server.response.finish; at
 * most ROUTE_TAIL_MS), so each counted request's continuations are timed too. Outside
 * the windows the hook is off, and a request costs its two channel messages and a
 * counter. Both channels stay subscribed from install to uninstall: subscribing
 * changes a channel object's class, and Node's HTTP code that tests it (resOnFinish)
 * was deoptimised and compiled again at every window while response.finish was
 * subscribed for the windows only, most of what the attribution cost a server of
 * cheap routes (see ROUTE_PERIOD_MS).
 *
 * Not attributed: work a route leaves to an EventEmitter that was made before the
 * request and emits outside it (a connection pool's 'data' events).
 */
import { createHook, executionAsyncId } from 'node:async_hooks';
import diagnosticsChannel from 'node:diagnostics_channel';
import { performance } from 'node:perf_hooks';
import { routeName } from '../base/route-template.js';

/** Published by Node's HTTP server when a request's headers are parsed, before its 'request' handler. */
export const REQUEST_START_CHANNEL = 'http.server.request.start';

/** Published when a response has been handed to the socket whole. */
export const RESPONSE_FINISH_CHANNEL = 'http.server.response.finish';

/**
 * Routes kept apart per thread; requests of any further one share ROUTE_OVERFLOW, so a
 * server whose paths are not templated by the id rule (slugs, file names) cannot
 * grow the probe's memory or its reports. The same bound as a mix's endpoints.
 */
export const MAX_ROUTES = 200;

/** The route that collects requests beyond MAX_ROUTES. */
export const ROUTE_OVERFLOW = 'other routes';

/**
 * How often the sampling window opens, in ms. The hook stays on until the window's
 * requests have answered, a loop turn or two later, so every request of those turns
 * pays for it: at 24,000 req/s a window of 5 requests every 100 ms kept it on 5% of
 * the time (measured); one window a second for the same requests, a tenth of that.
 * Each window also costs what switching to it and back leaves behind: subscribing
 * response.finish for the windows only (and an AsyncLocalStorage per window) made
 * Node deoptimise and compile its resOnFinish again after every window (20 times in
 * 20 s, --trace-deopt), and the multi-route fixture's two cheapest routes paid 0.98
 * to 1.05× CPU per request at one window a second, 1.18 to 1.22× at ten (medians of two
 * runs of bench/probe-overhead.js in one process, Node 20); as it is now, 1.00 to 1.02×
 * and 0.98 to 1.06× (three runs; quartiles ±3 to 7%: a shared 2-core machine at load 2
 * to 7).
 */
export const ROUTE_PERIOD_MS = 1000;

/**
 * Requests a second the windows aim to time, whatever the rate. Measured on Node 20
 * (one server, modes alternated every 0.5 s under wrk, GET of a 3-line handler at
 * ~12,000 req/s): 15.7 µs of CPU per request without attribution, 27.8 timing every
 * request (the async hook, and AsyncLocalStorage's own hooks on Node 20), 17.3 at
 * 1,000 a second, within the noise (±1 µs) at 300 and 100. With the owners in a Map
 * and no AsyncLocalStorage, timing every request of the multi-route fixture's two
 * cheapest routes costs about as much: 1.64× CPU per request (1.69× with an AsyncLocalStorage; phases
 * of 0.5 s in one process, at load 6 to 8). A server that spawns per
 * request pays more per timed request (its spawns make many async resources): timing
 * every request of baseline/echo cost it 8 to 20% more CPU per request in the same
 * alternation (as noisy: 0.97 to 1.25 on a shared machine), so the sample is kept
 * small: a 10 s run times 500 requests, a route of 10% of the traffic ~50 times, enough
 * to name the route that holds the loop (at 20 a second a 5 s diagnose timed the
 * 15 ms route of the multi-route fixture 4 times).
 */
export const ROUTE_SAMPLED_PER_SEC = 50;

/** Longest the hook stays on after a window for its requests to answer, in ms (one that never answers is let go). */
export const ROUTE_TAIL_MS = 1000;

/**
 * Starts attributing this thread's event-loop time to the routes it serves.
 * @param {{ sampledPerSec?: number, periodMs?: number }} [options] requests a second the sampling windows aim to time,
 *   and how often a window opens (bench/probe-overhead.js opens them more often to show what each one costs)
 * @returns {{ take: () => { seen: number, sampled: number, routes: { route: string, requests: number, loopMs: number, spawns: number, blockedMs: number }[] },
 *   onSpawn: (blockedMs: number) => void, uninstall: () => void }}
 *   `take`: since the previous take, the requests the thread started (`seen`), those timed (`sampled`), and
 *   each route with timed requests or time (those without are dropped), its figures those of the timed requests;
 *   `onSpawn`: a spawn just blocked the thread for `blockedMs`, charged to the route running it
 */
export function installRouteTimer({ sampledPerSec = ROUTE_SAMPLED_PER_SEC, periodMs = ROUTE_PERIOD_MS } = {}) {
  /** route name → its running totals */
  const routes = new Map();

  // Who the clock runs for (a route's totals, or null: no request), and since when.
  let owner = null;
  let since = 0;
  let stack = [];
  const handTo = (next) => {
    if (next === owner) return;
    const now = performance.now();
    if (owner !== null) owner.loopMs += now - since;
    owner = next;
    since = now;
  };
  // asyncId → its route: what a counted request started, and the resource it started in (its connection's).
  // Emptied each time timing stops: a kept-alive connection's route from an earlier window is not seen.
  let owners = new Map();
  const hook = createHook({
    init(asyncId) {
      if (owner !== null) owners.set(asyncId, owner);
    },
    before(asyncId) {
      stack.push(owner);
      handTo(owners.get(asyncId) ?? null);
    },
    after() {
      handTo(stack.length > 0 ? stack.pop() : null);
    },
  });

  // Sampling: `counting` while a window is open; `timing` while the hook is on (the window
  // and its tail); the requests counted that have not answered yet.
  let counting = false;
  let timing = false;
  let tailUntil = 0;
  const quota = Math.max(1, Math.round((sampledPerSec * periodMs) / 1000));
  let counted = 0;
  let inFlight = new WeakSet();
  let inFlightCount = 0;
  const startTiming = () => {
    counting = true;
    if (timing) return;
    timing = true;
    stack = [];
    owner = null;
    owners = new Map();
    hook.enable();
  };
  const stopTiming = () => {
    handTo(null);
    timing = false;
    hook.disable();
    stack = [];
    owners = new Map();
  };

  let seen = 0;
  let sampled = 0;
  const onRequest = (message) => {
    seen += 1;
    const request = message?.request;
    if (!request) return;
    if (!counting) {
      // A kept-alive connection keeps the route of its last counted request: not this one's.
      if (timing) {
        owners.delete(executionAsyncId());
        handTo(null);
      }
      return;
    }
    const name = routeName(request.method ?? 'GET', request.url ?? '/');
    let route = routes.get(name);
    if (!route) {
      route = routes.size < MAX_ROUTES ? fresh(name) : (routes.get(ROUTE_OVERFLOW) ?? fresh(ROUTE_OVERFLOW));
      routes.set(route.route, route);
    }
    route.requests += 1;
    inFlight.add(request);
    inFlightCount += 1;
    owners.set(executionAsyncId(), route);
    handTo(route);
    counted += 1;
    sampled += 1;
    if (counted >= quota) closeWindow();
  };
  const onFinish = (message) => {
    if (!timing || !message?.request || !inFlight.delete(message.request)) return;
    inFlightCount -= 1;
    if (!counting && inFlightCount === 0) stopTiming();
  };
  const closeWindow = () => {
    counting = false;
    tailUntil = performance.now() + ROUTE_TAIL_MS;
  };

  // Each period the window opens for the next `quota` requests (all of them at a lower rate).
  const period = setInterval(() => {
    counted = 0;
    if (!counting && timing && performance.now() > tailUntil) {
      // Requests that never answered (aborted, hijacked): no longer waited for.
      inFlight = new WeakSet();
      inFlightCount = 0;
      stopTiming();
    }
    startTiming();
  }, periodMs);
  period.unref();
  startTiming();
  diagnosticsChannel.subscribe(REQUEST_START_CHANNEL, onRequest);
  diagnosticsChannel.subscribe(RESPONSE_FINISH_CHANNEL, onFinish);

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
      const counts = { seen, sampled, routes: taken };
      seen = 0;
      sampled = 0;
      return counts;
    },
    onSpawn(blockedMs) {
      if (owner === null) return;
      owner.spawns += 1;
      owner.blockedMs += blockedMs;
    },
    uninstall() {
      clearInterval(period);
      diagnosticsChannel.unsubscribe(REQUEST_START_CHANNEL, onRequest);
      diagnosticsChannel.unsubscribe(RESPONSE_FINISH_CHANNEL, onFinish);
      if (timing) stopTiming();
    },
  };
}

function fresh(route) {
  return { route, requests: 0, loopMs: 0, spawns: 0, blockedMs: 0 };
}
