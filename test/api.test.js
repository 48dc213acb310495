// The programmatic API: the package's own export, a real short run, events, abort.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { run, listStrategies, UsageError } from 'spawnbench';
import { processesInGroup } from './helpers/processes.js';
import { waitFor } from './helpers/harness.js';

test('run() resolves to the same result the CLI prints with --json, and leaves nothing behind', async () => {
  const events = new Set();
  // An open loop at a low rate: the result and the events are checked, not a saturated server's figures.
  const result = await run({ strategy: 'baseline', duration: '1s', warmup: '200ms', connections: 2, rate: 20 }, { onEvent: (name) => events.add(name) });
  assert.equal(result.kind, 'run');
  assert.ok(result.load.requests > 0);
  assert.equal(result.load.errors.total, 0);
  for (const name of ['start', 'phase', 'tick', 'done']) assert.ok(events.has(name), `event ${name}`);
  await waitFor(() => processesInGroup(result.strategy.pid).length === 0, { what: 'the strategy\'s group to empty' });
});

test('an aborted run resolves early with what it measured', async () => {
  const ac = new AbortController();
  // Aborted once requests were measured, not after a fixed time: on a busy machine the boot
  // alone can outlast any timer, and then nothing was measured yet.
  const onEvent = (name, tick) => {
    if (name === 'tick' && tick.phase === 'measure' && tick.requests > 0) ac.abort();
  };
  const started = Date.now();
  // An open loop at a low rate: the abort is checked, and the first measured tick (1 s in) comes at any load.
  const result = await run({ strategy: 'baseline', duration: '60s', warmup: '0s', connections: 2, rate: 20 }, { signal: ac.signal, onEvent });
  assert.ok(Date.now() - started < 30_000);
  assert.equal(result.stoppedEarly, true);
  assert.ok(result.load.requests > 0);
});

test('bad options reject with a UsageError before anything starts', async () => {
  await assert.rejects(() => run({ strategy: 'nope' }), (e) => e instanceof UsageError && /unknown strategy 'nope'/.test(e.message));
  assert.ok(listStrategies().some((s) => s.name === 'baseline'));
});
