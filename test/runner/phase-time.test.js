// When the measured phase began is stamped by the load as the phase changes, before any
// listener's work: a sampler reset that keeps the main thread busy (a /proc scan on a
// loaded machine) no longer moves the start, and so no longer shortens every worker
// death's "at" (seen: a death 1,000 ms into the measured phase reported at 784 ms).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { once, EventEmitter } from 'node:events';
import pino from 'pino';
import { createEngine, measureServer } from '../../src/runner/engine-shell.js';
import { buildRunPlan } from '../../src/plan/run-plan.js';

const RESET_BUSY_MS = 300;

test("the measured phase's start reaches onLoadPhase as the load stamped it, not after the sampler's reset", async () => {
  const server = http.createServer((req, res) => res.end('hi\n'));
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const url = `http://127.0.0.1:${server.address().port}/`;
  try {
    const plan = buildRunPlan({ url, duration: '1s', warmup: '300ms', rate: 20 });
    const sampler = Object.assign(new EventEmitter(), {
      reset() {
        const until = Date.now() + RESET_BUSY_MS;
        while (Date.now() < until);
      },
      stop: async () => null,
    });
    const phases = [];
    const seen = [];
    const engine = createEngine((self) => measureServer(self, {
      plan,
      logger: pino({ level: 'silent' }),
      what: 'server',
      boot: async () => null,
      sample: () => sampler,
      url: () => url,
      onLoadPhase: (phase, _server, at) => seen.push({ phase, at, calledAt: Date.now() }),
    }), pino({ level: 'silent' }));
    engine.on('phase', (payload) => phases.push(payload));
    await engine.start();
    const event = phases.find((p) => p.phase === 'measure');
    const measure = seen.find((s) => s.phase === 'measure');
    assert.ok(event && measure, JSON.stringify({ phases, seen }));
    assert.equal(measure.at, event.at, 'one stamp for the phase event and onLoadPhase');
    assert.ok(measure.calledAt - measure.at >= RESET_BUSY_MS - 5, `onLoadPhase ran ${measure.calledAt - measure.at} ms after the stamp: after the reset`);
  } finally {
    server.close();
  }
});
