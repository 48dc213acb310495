// A pool worker killed mid-run (issue #25, defect 2): the death is said with the worker,
// its pid, the signal, when, and the pid that replaced it (summary, --json, dashboard); the
// slot's two incarnations are one worker for the balance check; the death lowers the run's
// confidence and never becomes a reason to change the balancing policy. fork-pool and
// comm-channel supervise their workers with strategies/lib/pool.js, cluster with node:cluster.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import React from 'react';
import { run } from '../../src/index.js';
import { formatSummary } from '../../src/report/summary.js';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { createControlReader } from '../../src/runner/control-lines.js';
import { workerDeaths } from '../../src/analysis/worker-deaths.js';
import { Errors } from '../../src/ui/components/errors-panel.js';
import { EventEmitter } from 'node:events';
import { processesInGroup } from '../helpers/processes.js';
import { waitFor } from '../helpers/harness.js';
import { frame } from '../ui/render-helpers.js';
import { onPoolWorker } from '../helpers/pool-worker.js';
import { makeTick } from '../ui/fixtures.js';

/** A second into the measured phase: the death falls inside what is measured, on a loaded machine too. */
const KILL_AFTER_MS = 1000;
/** The measured phase, ms: over the advice's minimum (ADVICE_MIN_MEASURED_MS, 2 s). */
const DURATION_MS = 2500;
/**
 * An open loop: 250 measured requests, over the advice's minimum (ADVICE_MIN_REQUESTS, 200), so
 * the advice weighs the death and the balance as it does after any run, without the CPU of
 * a saturated pool. req/s
 */
const LOAD_RPS = 100;

/**
 * Runs `strategy` with 3 workers and SIGKILLs worker 1 a second into the measured phase
 * (its pid from the strategy's own workers line: only a process this run started).
 */
async function runKillingOne(strategy) {
  let killed = null;
  const kill = onPoolWorker({
    id: 1,
    afterMs: KILL_AFTER_MS,
    act: (worker) => {
      killed = worker.pid;
      process.kill(worker.pid, 'SIGKILL');
    },
  });
  try {
    const result = await run({ strategy, poolSize: 3, duration: `${DURATION_MS}ms`, warmup: '0s', rate: LOAD_RPS }, { onEvent: kill.onEvent });
    return { result, killed };
  } finally {
    kill.stop();
  }
}

for (const strategy of ['fork-pool', 'comm-channel', 'cluster']) {
  test(`${strategy}: a worker SIGKILLed mid-run is named with its pid, signal, time and replacement; the advice does not take it for a policy`, async (t) => {
    const { result, killed } = await runKillingOne(strategy);
    await waitFor(() => processesInGroup(result.strategy.pid).length === 0, { what: `strategy group ${result.strategy.pid} to empty` });
    assert.ok(killed, 'worker 1 was killed during the measured phase');
    const text = formatSummary(result);
    t.diagnostic(text.split('\n').filter((l) => /Workers|died|worker 1|Recommendation|- /.test(l)).join('\n'));

    // --json: the added field.
    assert.equal(result.workerDeaths.length, 1, JSON.stringify(result.workerDeaths));
    const [death] = result.workerDeaths;
    assert.equal(death.id, 1);
    assert.equal(death.pid, killed);
    assert.equal(death.signal, 'SIGKILL');
    assert.ok(death.atMs >= KILL_AFTER_MS - 100 && death.atMs < DURATION_MS, `inside the measured ${DURATION_MS} ms: ${death.atMs} ms`);
    assert.ok(Number.isInteger(death.replacedBy) && death.replacedBy !== killed, 'replaced by a new process');

    // The summary says it in one line, in words.
    assert.match(text, new RegExp(`^Workers {4}worker 1 \\(pid ${killed}\\) died \\(SIGKILL\\) at \\d+\\.\\d s; replaced by pid ${death.replacedBy}$`, 'm'));

    // One worker per slot for the balance check, however many incarnations it had.
    assert.equal(adviceInput(result).workers.length, 3);
    const ids = result.recommendation.reasons.map((r) => r.id);
    assert.ok(ids.includes('worker-died'), `the death is a doubt: ${ids}`);
    assert.notEqual(result.recommendation.confidence, 'high');
    assert.ok(!ids.includes('lopsided') && !ids.includes('lopsided-kept'), `a death is no evidence of lopsided balancing: ${ids}`);
    // round-robin kept, or none at all when the loaded machine left too few requests to advise on.
    assert.ok([null, 'round-robin'].includes(result.recommendation.policy), `the policy is never changed: ${result.recommendation.policy}`);
  });
}

test('the workers list carries each slot\'s exits with the pid that replaced it; the dashboard says the latest', () => {
  const events = new EventEmitter();
  const reader = createControlReader({ label: "strategy 'x'", events, onOutput: () => {}, withCutNote: (line) => line });
  const line = (o) => reader.read(JSON.stringify({ spawnbench: o.type, ...o.fields }), { cut: false });
  line({ type: 'workers', fields: { workers: [{ id: 0, pid: 100, threadId: null, inFlight: 1, completed: 10, failed: 0 }, { id: 1, pid: 101, threadId: null, inFlight: 0, completed: 9, failed: 0 }] } });
  line({ type: 'worker-exit', fields: { id: 0, pid: 100, threadId: null, code: null, signal: 'SIGKILL', at: 12_500 } });
  assert.equal(reader.workers()[0].exits[0].replacedBy, null, 'not replaced yet');
  line({ type: 'workers', fields: { workers: [{ id: 0, pid: 200, threadId: null, inFlight: 0, completed: 12, failed: 3, restarts: 1 }] } });
  const deaths = workerDeaths(reader.workers(), 10_000);
  assert.deepEqual(deaths, [{ id: 0, pid: 100, threadId: null, code: null, signal: 'SIGKILL', atMs: 2500, replacedBy: 200, replacedByThreadId: null }]);
  const text = frame(React.createElement(Errors, { tick: makeTick(), deaths }), 80, { color: false });
  assert.match(text, /^! worker 0 \(pid 100\) died \(SIGKILL\) at 2\.5 s; replaced by pid 200$/m);
  const problem = [];
  events.on('protocol-error', (e) => problem.push(e.message));
  line({ type: 'worker-exit', fields: { id: -1, pid: 1, at: 1 } });
  assert.match(problem[0], /worker-exit line has "id" -1/);
});
