// The probe's per-route attribution in one process: a handler's synchronous part, its
// continuation after `await`, its body events, a spawn, and routes grouped by the mix's id rule (routes no
// mix named included). Each burn's wall time is measured where it runs and the route's
// time is held to it: on a loaded machine a preempted burn is longer for both.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once } from 'node:events';
import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import diagnosticsChannel from 'node:diagnostics_channel';
import { installRouteTimer, MAX_ROUTES, ROUTE_OVERFLOW, ROUTE_PERIOD_MS, REQUEST_START_CHANNEL, RESPONSE_FINISH_CHANNEL } from '../../src/probe/route-timer.js';
import { installSpawnTimer } from '../../src/probe/spawn-timer.js';
import { pathTemplate, routeName } from '../../src/base/route-template.js';

// 40 ms: a route charged with another's burn reads far above what preemption adds to a cheap
// route's turns on a loaded machine (a full run beside other files read 10.3 ms per request
// for a route that burns nothing, against 20 ms burns).
const BURN_MS = 40;

/** Wall time each route's burns took, in ms. */
const burnt = { '/report': 0, '/summary': 0, '/upload': 0 };

function burn(ms, path) {
  const from = performance.now();
  while (performance.now() < from + ms);
  burnt[path] += performance.now() - from;
}

test('routes are grouped by method and path template: the id rule of a HAR mix', () => {
  assert.equal(routeName('get', '/items/7?x=1'), 'GET /items/:id');
  assert.equal(routeName('DELETE', '/u/3f9a2b7c-1d4e-4a5b-9c8d-0e1f2a3b4c5d'), 'DELETE /u/:id');
  assert.equal(routeName('GET', '/blob/a3f9b27c1d4e4a5b9c8d'), 'GET /blob/:id');
  assert.equal(routeName('GET', '/v1/report'), 'GET /v1/report');
  // An absolute-form request target (a proxy's) is read as its path.
  assert.equal(pathTemplate('http://api.example:8080/items/12?q=1'), '/items/:id');
  assert.equal(pathTemplate('http://api.example'), '/');
});

// POST /upload works in its body's 'end' event, which the client sends 5 ms after the headers: a later
// turn of the connection, which on Node 24+ runs in the connection's async context frame, not the request's.
test('each route gets its handler\'s synchronous time, its continuations after await, its body events, and its spawns', async () => {
  // Every request timed (a sample is the next test's).
  const routes = installRouteTimer({ sampledPerSec: 1e6 });
  const spawns = installSpawnTimer({ onSpawn: routes.onSpawn });
  const server = http.createServer(async (req, res) => {
    if (req.url === '/report') burn(BURN_MS, '/report');
    else if (req.url === '/summary') {
      await sleep(2);
      await Promise.resolve();
      burn(BURN_MS, '/summary');
    } else if (req.url === '/upload') {
      // A listener, as body parsers do (an awaited once() would resume in the request's own frame).
      req.resume().on('end', () => {
        burn(BURN_MS, '/upload');
        res.end('ok');
      });
      return;
    } else if (req.url === '/convert') {
      const child = spawn('true', [], { stdio: 'ignore' });
      await once(child, 'exit');
    }
    res.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  after(() => {
    spawns.uninstall();
    routes.uninstall();
  });
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 2 });
    const get = (path, method = 'GET') => new Promise((resolve, reject) => {
      http.request({ host: '127.0.0.1', port: server.address().port, path, method, agent }, (res) => res.resume().on('end', resolve)).on('error', reject).end();
    });
    const upload = () => new Promise((resolve, reject) => {
      const request = http.request({ host: '127.0.0.1', port: server.address().port, path: '/upload', method: 'POST', agent }, (res) => res.resume().on('end', resolve));
      request.on('error', reject).flushHeaders();
      setTimeout(() => request.end('a body sent after the headers'), 5);
    });
    routes.take();
    spawns.take();
    // Two at a time on kept-alive connections: the routes' turns interleave.
    for (let i = 0; i < 10; i += 1) {
      await Promise.all([get('/report'), get(`/items/${i}`)]);
      await Promise.all([get('/summary'), get('/convert', 'POST')]);
      await Promise.all([get(`/files/readme-${i % 2}.txt`), upload()]);
    }
    agent.destroy();
    const taken = routes.take();
    assert.equal(taken.sampled, taken.seen);
    assert.equal(taken.seen, 60);
    const byRoute = Object.fromEntries(taken.routes.map((r) => [r.route, r]));
    assert.deepEqual(Object.keys(byRoute).sort(), ['GET /files/readme-0.txt', 'GET /files/readme-1.txt', 'GET /items/:id', 'GET /report', 'GET /summary', 'POST /convert', 'POST /upload']);
    for (const name of ['GET /report', 'GET /summary', 'GET /items/:id', 'POST /convert', 'POST /upload']) assert.equal(byRoute[name].requests, 10, name);
    const perRequest = (name) => byRoute[name].loopMs / byRoute[name].requests;
    // The burn, and not much more: its own turn, whatever ran around it. Below another route's burn
    // on top (2×): a full run beside other files read 1.25× (its turn preempted after the burn).
    for (const name of ['GET /report', 'GET /summary', 'POST /upload']) {
      const burnMs = burnt[name.split(' ')[1]] / 10;
      assert.ok(perRequest(name) >= burnMs && perRequest(name) <= burnMs * 1.6, `${name}: ${perRequest(name).toFixed(2)} ms per request for a burn of ${burnMs.toFixed(2)} ms`);
    }
    assert.ok(perRequest('GET /items/:id') < BURN_MS / 2, `GET /items/:id: ${perRequest('GET /items/:id').toFixed(2)} ms per request`);
    // Every spawn is the converting route's, with the time it blocked the thread.
    assert.equal(byRoute['POST /convert'].spawns, 10);
    assert.ok(byRoute['POST /convert'].blockedMs > 0);
    assert.ok(byRoute['POST /convert'].blockedMs <= byRoute['POST /convert'].loopMs, 'blocked in spawn is part of the route\'s loop time');
    for (const name of ['GET /report', 'GET /summary', 'GET /items/:id', 'POST /upload']) assert.equal(byRoute[name].spawns, 0, name);
    assert.equal(spawns.take().count, 10);
    // A take starts a new interval.
    assert.deepEqual(routes.take(), { seen: 0, sampled: 0, routes: [] });
  } finally {
    server.close();
    server.closeAllConnections();
  }
});

test('above its rate it times a sample: a few requests each period, each with its continuation, every request seen', async () => {
  // 4 a second in half-second periods: the first 2 requests of each period. Periods half the
  // default's length: the 2.5 periods below keep the loop busy half as long.
  const periodMs = ROUTE_PERIOD_MS / 2;
  const routes = installRouteTimer({ sampledPerSec: 4, periodMs });
  let burns = 0;
  let burnMs = 0;
  const server = http.createServer(async (req, res) => {
    await sleep(1);
    const from = performance.now();
    // 20 ms: the HTTP work around a burn and a preemption are a small part of what is timed.
    burn(20, '/report');
    burnMs += performance.now() - from;
    burns += 1;
    res.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const get = () => new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.address().port, path: '/report', agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
    routes.take();
    const until = performance.now() + 2.5 * periodMs;
    while (performance.now() < until) await Promise.all([get(), get(), get(), get()]);
    agent.destroy();
    const { seen, sampled, routes: [report] } = routes.take();
    assert.equal(seen, burns);
    assert.ok(sampled >= 4 && sampled <= 6 && sampled < seen / 2, `${sampled} of ${seen} requests timed`);
    assert.equal(report.requests, sampled);
    const perRequest = report.loopMs / report.requests;
    const mean = burnMs / burns;
    assert.ok(perRequest >= mean * 0.75 && perRequest <= mean * 1.5, `${perRequest.toFixed(2)} ms per timed request for burns of ${mean.toFixed(2)} ms`);
  } finally {
    routes.uninstall();
    server.close();
    server.closeAllConnections();
  }
});

// While a window's last request is still in flight the hook stays on, and a request that came
// after the window may arrive on a kept-alive connection whose last request was counted.
test('a request after the window, on a connection whose last request was timed, is not charged to that route', async () => {
  // Two requests a window, one window in the test's time.
  const routes = installRouteTimer({ periodMs: 60_000, sampledPerSec: 2 / 60 });
  let slowStarted;
  const started = new Promise((resolve) => {
    slowStarted = resolve;
  });
  let burnMs = 0;
  const server = http.createServer(async (req, res) => {
    if (req.url === '/slow') {
      slowStarted();
      await sleep(300);
    } else if (req.url === '/burn') {
      const from = performance.now();
      burn(BURN_MS, '/report');
      burnMs = performance.now() - from;
    }
    res.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const first = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const second = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = (agent, path) => new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.address().port, path, agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
    await get(first, '/cheap');
    const slow = get(second, '/slow');
    await started;
    // The window is closed (two requests), the hook still on for /slow: /burn is not timed.
    await get(first, '/burn');
    await slow;
    first.destroy();
    second.destroy();
    const taken = routes.take();
    assert.equal(taken.seen, 3);
    assert.equal(taken.sampled, 2);
    const byRoute = Object.fromEntries(taken.routes.map((r) => [r.route, r]));
    assert.equal(byRoute['GET /burn'], undefined, 'the untimed request has no figures');
    assert.ok(burnMs >= BURN_MS);
    assert.ok(byRoute['GET /cheap'].loopMs < BURN_MS / 4, `GET /cheap: ${byRoute['GET /cheap'].loopMs.toFixed(2)} ms, the burn of the request after it was ${burnMs.toFixed(2)} ms`);
  } finally {
    routes.uninstall();
    server.close();
    server.closeAllConnections();
  }
});

test(`beyond ${MAX_ROUTES} routes, further ones share one entry`, async () => {
  const routes = installRouteTimer({ sampledPerSec: 1e6 });
  const server = http.createServer((req, res) => res.end());
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 4 });
    const get = (path) => new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.address().port, path, agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
    for (let i = 0; i < MAX_ROUTES + 20; i += 4) await Promise.all([0, 1, 2, 3].map((k) => get(`/page-${i + k}`)));
    agent.destroy();
    const taken = routes.take().routes;
    assert.equal(taken.length, MAX_ROUTES + 1);
    assert.equal(taken.find((r) => r.route === ROUTE_OVERFLOW).requests, 20);
  } finally {
    routes.uninstall();
    server.close();
    server.closeAllConnections();
  }
});

// What the attribution cost a server of cheap routes came from its windows' side effects, not
// from the requests it timed: both are held here. (1) Subscribing a channel changes the channel
// object's class, and Node's code that tests it (resOnFinish, each response) was deoptimised at
// every window while response.finish was subscribed for the windows only. (2) An AsyncLocalStorage
// on Node 20 writes its store on each resource made under it (a new property name per window),
// which gave timers and sockets new hidden classes and deoptimised Node's timer code.
test('its windows leave the server as they found it: the channels keep their class, the resources their shape', async () => {
  const finishChannel = diagnosticsChannel.channel(RESPONSE_FINISH_CHANNEL);
  const startChannel = diagnosticsChannel.channel(REQUEST_START_CHANNEL);
  const ownSymbols = (object) => Object.getOwnPropertySymbols(object).map(String).sort();
  const idle = setTimeout(() => {}, 0);
  const timerShape = ownSymbols(idle);
  clearTimeout(idle);
  // Two requests a second: a window closes after two, and the hook goes off once they have answered.
  const routes = installRouteTimer({ sampledPerSec: 2 });
  const classes = { finish: Object.getPrototypeOf(finishChannel), start: Object.getPrototypeOf(startChannel) };
  const shapes = [];
  const server = http.createServer(async (req, res) => {
    await sleep(1);
    const timer = setTimeout(() => {}, 0);
    shapes.push(ownSymbols(timer));
    clearTimeout(timer);
    res.end('ok');
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () => new Promise((resolve, reject) => {
      http.get({ host: '127.0.0.1', port: server.address().port, path: '/items/1', agent }, (res) => res.resume().on('end', resolve)).on('error', reject);
    });
    for (let i = 0; i < 4; i += 1) await get();
    // The window's two requests have answered: timing is over until the next period.
    await sleep(20);
    agent.destroy();
    const { sampled, seen } = routes.take();
    assert.equal(seen, 4);
    assert.equal(sampled, 2, 'the window took two requests; the other two came after it');
    assert.ok(finishChannel.hasSubscribers && startChannel.hasSubscribers, 'both channels subscribed between windows');
    assert.equal(Object.getPrototypeOf(finishChannel), classes.finish, 'response.finish kept its class');
    assert.equal(Object.getPrototypeOf(startChannel), classes.start, 'request.start kept its class');
    assert.equal(shapes.length, 4);
    for (const [i, shape] of shapes.entries()) assert.deepEqual(shape, timerShape, `request ${i + 1}: a timer it made has the properties of any other`);
  } finally {
    routes.uninstall();
    server.close();
    server.closeAllConnections();
  }
});

test('uninstalled, it leaves no subscriber, hook or timer behind', () => {
  const routes = installRouteTimer();
  assert.ok(diagnosticsChannel.hasSubscribers('http.server.request.start'));
  assert.ok(diagnosticsChannel.hasSubscribers('http.server.response.finish'));
  routes.uninstall();
  assert.ok(!diagnosticsChannel.hasSubscribers('http.server.request.start'));
  assert.ok(!diagnosticsChannel.hasSubscribers('http.server.response.finish'));
});
