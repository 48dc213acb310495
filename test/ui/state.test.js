import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { applyRunEvent, initialRunState } from '../../src/ui/run-state.js';
import { createRunStore } from '../../src/ui/run-store.js';
import { planView } from '../../src/ui/plan-view.js';
import { buildProcessRows, busiest, collapseRows } from '../../src/ui/components/process-rows.js';
import { fitColumns } from '../../src/ui/components/processes-panel.js';
import { bar, sparkline } from '../../src/ui/charts.js';
import { median } from '../../src/analysis/stats.js';
import { formatBytes, formatCompact, formatElapsed, formatMs } from '../../src/ui/cell-format.js';
import { shouldUseDashboard } from '../../src/ui/should-use-dashboard.js';
import { colorEnabled } from '../../src/ui/theme.js';
import { makePlan, makeSample, makeTick, makeWorkers } from './fixtures.js';

describe('formatting and charts', () => {
  it('formats milliseconds, durations, counts and bytes compactly', () => {
    assert.equal(formatMs(4.24), '4.2 ms');
    assert.equal(formatMs(48.6), '49 ms');
    assert.equal(formatMs(1500), '1.5 s');
    assert.equal(formatMs(null), '–');
    assert.equal(formatElapsed(500), '0.5s');
    assert.equal(formatElapsed(10_000), '10s');
    assert.equal(formatElapsed(1003), '1s');
    assert.equal(formatElapsed(2500), '2.5s');
    assert.equal(formatElapsed(65_000), '1m05s');
    assert.equal(formatCompact(1249), '1.2k');
    assert.equal(formatCompact(25_300), '25k');
    assert.equal(formatBytes(61 * 1024 ** 2), '61M');
  });

  it('draws sparklines from zero and bars of an exact width', () => {
    assert.equal(sparkline([0, 50, 100], 10), '▁▅█');
    assert.equal(sparkline([700, 700, 700], 10), '███', 'a flat line stays flat');
    assert.equal(sparkline([1, 2, 3, 4], 2), '▆█', 'keeps the latest seconds');
    assert.equal(bar(50, 100, 10), '█████░░░░░');
    assert.equal(bar(150, 100, 4), '████');
    assert.equal(bar(null, 100, 3), '░░░');
    assert.equal(median([5, 1, 3]), 3);
    assert.equal(median([4, 1, 3, 2]), 2.5);
  });
});

describe('process rows', () => {
  it('joins samples with the worker list by pid and puts main first', () => {
    const rows = buildProcessRows(makeSample({ workers: 2 }), makeWorkers(2));
    assert.deepEqual(rows.map((row) => [row.label, row.inFlight]), [['main', null], ['w0', 0], ['w1', 1]]);
    assert.equal(rows[0].spawnBlocked, 0.31);
  });

  it('names a worker by its engine id when the sampler only knew its pid', () => {
    const sample = makeSample({ workers: 1 });
    sample.processes[1].label = 'pid 5000';
    assert.equal(buildProcessRows(sample, makeWorkers(1))[1].label, 'w0');
    assert.equal(buildProcessRows(sample, [])[1].label, 'pid 5000');
  });

  it('shows reported workers the sampler has not seen yet', () => {
    const rows = buildProcessRows(null, makeWorkers(2));
    assert.deepEqual(rows.map((row) => row.label), ['w0', 'w1']);
  });

  it('collapses to min/median/max and the busiest, or to the busiest alone when short', () => {
    const rows = buildProcessRows(makeSample({ workers: 32 }), makeWorkers(32));
    assert.equal(busiest(rows.slice(1)).label, 'w17');
    const full = collapseRows(rows, 8);
    assert.deepEqual(full.rows.map((row) => row.label), ['main', 'min', 'median', 'max', 'busiest w17']);
    assert.equal(full.collapsed, 32);
    assert.equal(full.rows[3].cpuPct, 88);
    assert.deepEqual(collapseRows(rows, 3).rows.map((row) => row.label), ['main', 'busiest w17']);
    assert.equal(collapseRows(rows.slice(0, 3), 8).collapsed, 0);
  });

  it('drops columns and shortens the CPU bar as the width shrinks', () => {
    const keys = (columns) => fitColumns(columns).columns.map((column) => column.key);
    assert.equal(fitColumns(80).barWidth, 12);
    assert.ok(fitColumns(60).barWidth < 12);
    assert.deepEqual(keys(80), ['label', 'loop', 'elu', 'spawn', 'cpu', 'rss', 'inFlight']);
    assert.deepEqual(keys(50), ['label', 'loop', 'elu', 'spawn', 'cpu', 'inFlight']);
    assert.deepEqual(keys(40), ['label', 'elu', 'cpu', 'inFlight']);
  });
});

describe('run state', () => {
  it('folds engine events into what the panels show', () => {
    let state = initialRunState();
    state = applyRunEvent(state, 'start', { plan: makePlan({ workers: 4 }), machine: { node: '20.20.2' } });
    state = applyRunEvent(state, 'phase', { phase: 'measure' });
    state = applyRunEvent(state, 'tick', makeTick());
    state = applyRunEvent(state, 'log', { level: 'info', msg: 'ignored' });
    state = applyRunEvent(state, 'log', { level: 'warn', msg: 'kept' });
    assert.equal(state.plan.strategy, 'fork-pool');
    assert.equal(state.plan.poolSize, 4);
    assert.equal(state.phase, 'measure');
    assert.deepEqual(state.rpsHistory, [{ phase: 'measure', rps: 683 }]);
    assert.deepEqual(state.logs, [{ level: 'warn', msg: 'kept' }]);
    const done = applyRunEvent(state, 'done', { kind: 'run' });
    assert.equal(done.phase, 'done');
    assert.notEqual(done, state, 'never mutates');
  });

  it('starts a new step of a sweep afresh but keeps the tune steps', () => {
    let state = applyRunEvent(initialRunState(), 'start', { plan: makePlan({ workers: 2 }), machine: {} });
    state = applyRunEvent(state, 'tick', makeTick());
    state = applyRunEvent(state, 'sample', makeSample({ workers: 2 }));
    state = applyRunEvent(state, 'workers', makeWorkers(2));
    state = applyRunEvent(state, 'tune-step', { size: 2, policy: 'p2c', rps: 600, p99Ms: 40, errors: 0 });
    state = applyRunEvent(state, 'start', { plan: makePlan({ workers: 4 }), machine: {} });
    assert.equal(state.plan.poolSize, 4);
    assert.equal(state.tick, null);
    assert.equal(state.sample, null);
    assert.deepEqual(state.workers, []);
    assert.deepEqual(state.rpsHistory, []);
    assert.equal(state.tune.steps.length, 1);
  });

  it('reads the runtime kind and load from the nested plan', () => {
    const view = planView(makePlan({ workers: 2, runtime: 'bun', workerRuntime: 'node' }));
    assert.equal(view.runtime, 'bun');
    assert.equal(view.workerRuntime, 'node');
    assert.equal(view.connections, 30);
    assert.equal(view.warmupMs, 2000);
    assert.equal(planView(makePlan()).workerRuntime, null, 'no pool, no worker runtime');
  });
});

describe('run store', () => {
  it('publishes at most once per refresh however many ticks arrive, phases at once', (t) => {
    t.mock.timers.enable({ apis: ['setInterval'] });
    const run = new EventEmitter();
    const store = createRunStore(run, { refreshMs: 200 });
    const notify = mock.fn();
    store.subscribe(notify);
    run.emit('phase', { phase: 'measure' });
    assert.equal(notify.mock.callCount(), 1, 'phase shown at once');
    for (let i = 0; i < 50; i++) run.emit('tick', makeTick({ second: i }));
    assert.equal(notify.mock.callCount(), 1, 'ticks wait for the refresh');
    assert.equal(store.getSnapshot().tick, null);
    t.mock.timers.tick(200);
    assert.equal(notify.mock.callCount(), 2);
    assert.equal(store.getSnapshot().rpsHistory.length, 50);
    t.mock.timers.tick(1000);
    assert.equal(notify.mock.callCount(), 2, 'nothing new, nothing published');
    store.close();
    assert.equal(run.listenerCount('tick'), 0, 'close() stops listening');
  });
});

describe('when to show the dashboard', () => {
  const tty = { isTTY: true };
  it('only on a TTY, outside CI, without --json or --no-dashboard', () => {
    assert.equal(shouldUseDashboard({ stdout: tty, env: {} }), true);
    assert.equal(shouldUseDashboard({ stdout: { isTTY: false }, env: {} }), false);
    assert.equal(shouldUseDashboard({ stdout: tty, env: { CI: 'true' } }), false);
    assert.equal(shouldUseDashboard({ stdout: tty, env: { CI: 'false' } }), true);
    assert.equal(shouldUseDashboard({ stdout: tty, env: {}, json: true }), false);
    assert.equal(shouldUseDashboard({ stdout: tty, env: {}, dashboard: false }), false);
    assert.equal(shouldUseDashboard({ stdout: tty, env: { TERM: 'dumb' } }), false);
  });

  it('not on a terminal that says it has no size (a 0×0 pty): Ink would clear the scrollback on every frame', () => {
    assert.equal(shouldUseDashboard({ stdout: { isTTY: true, rows: 0, columns: 0 }, env: {} }), false);
    assert.equal(shouldUseDashboard({ stdout: { isTTY: true, rows: 24, columns: 0 }, env: {} }), false);
    assert.equal(shouldUseDashboard({ stdout: { isTTY: true, rows: 24, columns: 80 }, env: {} }), true);
  });

  it('turns colour off with NO_COLOR (non-empty) or FORCE_COLOR=0', () => {
    assert.equal(colorEnabled({}), true);
    assert.equal(colorEnabled({ NO_COLOR: '1' }), false);
    assert.equal(colorEnabled({ NO_COLOR: '' }), true);
    assert.equal(colorEnabled({ FORCE_COLOR: '0' }), false);
  });
});
