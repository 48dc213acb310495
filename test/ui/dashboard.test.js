import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
// React's production build, as spawnbench renders the dashboard (src/ui/index.js imports it first too).
import { restoreNodeEnv } from '../../src/ui/react-build.js';
import React from 'react';
import { Dashboard } from '../../src/ui/components/dashboard.js';
import { Tune } from '../../src/ui/components/tune-panel.js';
import { applyRunEvent, initialRunState } from '../../src/ui/run-state.js';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { formatLiveAdvice } from '../../src/report/run-advice-summary.js';
import { syntheticRun } from '../analysis/synthetic-runs.js';
import { makeState } from './fixtures.js';
import { assertFits, frame } from './render-helpers.js';

restoreNodeEnv();

const h = React.createElement;
const ROWS = 24;

describe('the whole frame', () => {
  for (const columns of [80, 60]) {
    for (const workers of [0, 1, 32]) {
      for (const errors of [false, true]) {
        it(`fits ${columns}×${ROWS} with ${workers} workers, errors ${errors ? 'present' : 'absent'}`, () => {
          const state = makeState({ workers, errors });
          const text = frame(h(Dashboard, { state, columns, rows: ROWS, keys: true }), columns);
          assertFits(assert, text, columns);
          const lines = text.split('\n');
          assert.ok(lines.length < ROWS, `${lines.length} lines: shorter than the terminal, so Ink never clears the screen`);
          assert.match(text, /measuring/);
          assert.match(text, /q or Ctrl-C: stop/);
          assert.match(text, errors ? /^! errors 12.*\n! non-2xx 8.*\ngenerator CPU 35%/m : /^errors 0 {4}generator CPU 35% {2}ELU 0\.41$/m);
          if (workers === 32) assert.match(text, /busiest w17/);
          if (workers === 1) assert.match(text, /^w0 /m);
        });
      }
    }
  }

  it('gives the generator warning its own line, so it is never cut', () => {
    const text = frame(h(Dashboard, { state: makeState({ generatorPct: 93 }), columns: 80, rows: ROWS }), 80);
    assert.match(text, /^errors 0$/m);
    assert.match(text, /^generator CPU 93% {2}ELU 0\.41 {2}! results may be limited by the load generator$/m);
  });

  it('cuts lines rather than wrapping them on a 40-column terminal', () => {
    const text = frame(h(Dashboard, { state: makeState({ workers: 32, errors: true, generatorPct: 95 }), columns: 40, rows: ROWS, keys: true }), 40);
    assertFits(assert, text, 40);
    assert.ok(text.split('\n').length < ROWS);
    assert.match(text, /^busiest w17 /m);
  });

  it('puts throughput and latency side by side at 80 columns and stacks them at 60', () => {
    const state = makeState();
    assert.match(frame(h(Dashboard, { state, columns: 80, rows: ROWS }), 80), /^rps now .* latency ms/m);
    const narrow = frame(h(Dashboard, { state, columns: 60, rows: ROWS }), 60);
    assert.doesNotMatch(narrow, /^rps now .* latency ms/m);
    assert.match(narrow, /^latency ms/m);
  });

  it('keeps the frame shorter than a 24-row terminal with the tune view, 4 policies and 32 workers', () => {
    let state = makeState({ workers: 32, errors: true });
    for (const policy of ['random', 'round-robin', 'least-requests', 'p2c']) {
      state = applyRunEvent(state, 'tune-step', { size: 1, policy, rps: 650, p99Ms: 45, errors: 0 });
    }
    state = applyRunEvent(state, 'tune-progress', { size: 2, policy: 'p2c', repeat: 1 });
    for (const columns of [80, 60]) {
      const text = frame(h(Dashboard, { state, columns, rows: ROWS, keys: true }), columns);
      assertFits(assert, text, columns);
      assert.ok(text.split('\n').length < ROWS, `${text.split('\n').length} lines at ${columns} columns`);
      assert.match(text, /busiest w17/);
    }
  });

  it('shows every worker when the terminal is tall enough', () => {
    const text = frame(h(Dashboard, { state: makeState({ workers: 32 }), columns: 80, rows: 60 }), 80);
    assert.match(text, /^w31 /m);
    assert.doesNotMatch(text, /busiest/);
  });

  it('shows the latest warning from the engine log', () => {
    const state = applyRunEvent(makeState(), 'log', { level: 'warn', msg: 'strategy wrote to stderr' });
    assert.match(frame(h(Dashboard, { state, columns: 80, rows: ROWS }), 80), /^warn: strategy wrote to stderr$/m);
  });

  it('shows the tune view when tune events arrive', () => {
    let state = applyRunEvent(makeState({ workers: 4 }), 'tune-step', { size: 1, policy: 'p2c', rps: 650, p99Ms: 45, errors: 0 });
    state = applyRunEvent(state, 'tune-progress', { size: 2, policy: 'p2c', repeat: 1 });
    const text = frame(h(Dashboard, { state, columns: 80, rows: ROWS }), 80);
    assert.match(text, /measuring pool size 2 · p2c · repeat 1/);
    assert.ok(text.split('\n').length < ROWS);
  });
});

describe('tune view', () => {
  const steps = [
    { size: 1, policy: 'round-robin', rps: 640, p99Ms: 48, errors: 0 },
    { size: 1, policy: 'round-robin', rps: 660, p99Ms: 46, errors: 0 },
    { size: 1, policy: 'p2c', rps: 650, p99Ms: 45, errors: 0 },
    { size: 2, policy: 'round-robin', rps: 1210, p99Ms: 31, errors: 0 },
    { size: 2, policy: 'p2c', rps: 1250, p99Ms: 29, errors: 0 },
    { size: 4, policy: 'round-robin', rps: 1900, p99Ms: 28, errors: 3 },
  ];
  const current = { size: 4, policy: 'p2c', repeat: 2 };

  for (const columns of [80, 60]) {
    it(`draws rps and p99 against pool size, one line per policy, at ${columns} columns`, () => {
      const text = frame(h(Tune, { steps, current, columns }), columns);
      assertFits(assert, text, columns);
      assert.match(text, /^tune ● measuring pool size 4 · p2c · repeat 2$/m);
      assert.match(text, /^rps\/p99 ms +×1 +×2 +×4$/m);
      assert.match(text, /^round-robin +650\/47 +1\.2k\/31 +1\.9k\/28!/m, 'median of repeats; "!" marks errors');
      assert.match(text, /^p2c +650\/45 +1\.3k\/29 +…/m, '"…" marks the step being measured');
      assert.equal(text.split('\n').length, 4, 'title, sizes, one line per policy');
    });
  }

  it('says which step of how many, and marks a size that failed to start', () => {
    const failed = [...steps, { size: 8, policy: 'p2c', rps: 0, p99Ms: null, errors: 0, failed: 'EAGAIN' }];
    const text = frame(h(Tune, { steps: failed, current: { ...current, index: 7, total: 12 }, columns: 80 }), 80);
    assert.match(text, /repeat 2 · step 7\/12$/m);
    assert.match(text, /^p2c .* failed/m);
  });

  it('cuts sizes that do not fit with "…"', () => {
    const many = [1, 2, 3, 4, 5, 6, 7, 8, 10, 12, 16].map((size) => ({ size, policy: 'p2c', rps: size * 100, p99Ms: 20, errors: 0 }));
    const text = frame(h(Tune, { steps: many, current: null, columns: 60 }), 60);
    assertFits(assert, text, 60);
    assert.match(text, /^p2c .* …/m);
    assert.match(text, /11 steps measured/);
  });
});

describe('short terminals: the frame fits the height as it fits the width', () => {
  // A frame as tall as the terminal makes Ink clear the screen and the scrollback on every refresh.
  const RUN = syntheticRun({ poolSize: 3, rps: 700, workers: [3000, 3000, 1000].map((r) => ({ requests: r, elu: 0.6, blocked: 0.5, cpuPct: 30, loopCpuPct: 30, waitPct: 0, inFlight: 10 })) });
  const withAdvice = (state) => applyRunEvent({ ...state, advice: { current: adviseRun(adviceInput(RUN)), plan: RUN.plan, final: false } }, 'log', { level: 'warn', msg: 'strategy wrote to stderr' });
  const tuned = (state) => {
    let next = state;
    for (const policy of ['random', 'round-robin', 'least-requests', 'p2c']) next = applyRunEvent(next, 'tune-step', { size: 1, policy, rps: 650, p99Ms: 45, errors: 0 });
    return applyRunEvent(next, 'tune-progress', { size: 2, policy: 'p2c', repeat: 1 });
  };
  const states = {
    'calm, 1 worker': makeState({ workers: 1 }),
    '32 workers, errors, advice, a warning': withAdvice(makeState({ workers: 32, errors: true, generatorPct: 95 })),
    'a tune sweep, 32 workers, errors': tuned(makeState({ workers: 32, errors: true })),
    'before the first tick': applyRunEvent(initialRunState(), 'phase', { phase: 'booting' }),
  };
  for (const rows of [3, 6, 10, 15, 20]) {
    for (const columns of [80, 60]) {
      for (const [name, state] of Object.entries(states)) {
        it(`${columns}×${rows}, ${name}: fewer lines than rows, the progress line and its keys kept`, () => {
          const text = frame(h(Dashboard, { state, columns, rows, keys: true, formatAdvice: formatLiveAdvice }), columns);
          assertFits(assert, text, columns);
          const lines = text.split('\n').length;
          assert.ok(lines < rows, `${lines} lines in a ${rows}-row terminal:\n${text}`);
          assert.match(text, /q or Ctrl-C: stop/);
        });
      }
    }
  }

  it('keeps what a short terminal needs most: errors and throughput first, the process table when there is room', () => {
    const state = makeState({ workers: 32, errors: true });
    const six = frame(h(Dashboard, { state, columns: 80, rows: 6, keys: true }), 80);
    assert.match(six, /^! errors 12/m);
    assert.doesNotMatch(six, /busiest/);
    const ten = frame(h(Dashboard, { state, columns: 80, rows: 10, keys: true }), 80);
    assert.match(ten, /^! errors 12/m);
    assert.match(ten, /^rps now .* latency ms/m);
    assert.match(ten, /^spawnbench /m, 'the first header line: what is measured');
    const fifteen = frame(h(Dashboard, { state, columns: 80, rows: 15, keys: true }), 80);
    assert.match(fifteen, /busiest w17/);
  });

  it('at 24 rows and more nothing is left out', () => {
    const state = withAdvice(makeState({ workers: 32, errors: true }));
    const text = frame(h(Dashboard, { state, columns: 80, rows: 40, keys: true, formatAdvice: formatLiveAdvice }), 80);
    assert.match(text, /^load /m);
    assert.match(text, /^advice /m);
    assert.match(text, /^ {7}- /m);
    assert.match(text, /^warn: strategy wrote to stderr$/m);
  });
});
