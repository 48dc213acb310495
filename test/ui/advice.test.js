// The live advice panel, as text: folded from run events by the dashboard's own
// state function, shown once enough was measured, replaced by the run's own at the end.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import React from 'react';
import { Advice } from '../../src/ui/components/advice.js';
import { Dashboard } from '../../src/ui/components/dashboard.js';
import { initialRunState, applyRunEvent } from '../../src/ui/run-state.js';
import { frame, assertFits } from './render-helpers.js';
import { syntheticRun } from '../analysis/synthetic-runs.js';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { LIVE_ADVICE_MIN_MS } from '../../src/base/thresholds.js';
import { formatLiveAdvice } from '../../src/report/run-advice-summary.js';

const h = React.createElement;
const RUN = syntheticRun({ poolSize: 3, rps: 700, workers: [3000, 3000, 1000].map((r) => ({ requests: r, elu: 0.6, blocked: 0.5, cpuPct: 30, loopCpuPct: 30, waitPct: 0, inFlight: 10 })) });

/** A sampler interval: 3 workers, the third getting a seventh of the work (lopsided). */
function sample(second, quarter) {
  const done = (share) => Math.round(700 * (second - 1 + quarter / 4) * share);
  return {
    t: second * 1000 + quarter * 250,
    processes: [
      { key: '100', pid: 100, role: 'main', label: 'main', cpuPct: 10, loopCpuPct: 9, waitPct: 1, requests: null, inFlight: null, probe: { elu: 0.15, spawn: { blockedFraction: 0 } } },
      ...[3 / 7, 3 / 7, 1 / 7].map((share, i) => ({
        key: `${200 + i}`, pid: 200 + i, role: 'worker', label: `worker ${i}`, cpuPct: 30, loopCpuPct: 30, waitPct: 0,
        requests: done(share), inFlight: 10, probe: { elu: 0.6, spawn: { blockedFraction: 0.5 } },
      })),
    ],
    spawned: { count: 3, cpuPct: 80 },
    system: { cpus: [60, 60] },
    generator: { cpuPct: 5, elu: 0.05 },
  };
}

function tick(second) {
  return { second, phase: 'measure', elapsedMs: second * 1000, requests: 700 * second, meanRps: 700, rps: 700,
    errors: { total: 0 }, statuses: { 200: 700 * second }, generator: { cpuPct: 5, elu: 0.05 }, interval: {}, overall: {} };
}

function measured(seconds) {
  let state = initialRunState();
  state = applyRunEvent(state, 'start', { plan: RUN.plan, machine: RUN.machine });
  state = applyRunEvent(state, 'phase', { phase: 'warmup' });
  state = applyRunEvent(state, 'sample', sample(0, 1)); // warm-up: not counted
  state = applyRunEvent(state, 'phase', { phase: 'measure' });
  for (let s = 1; s <= seconds; s++) {
    for (let q = 1; q <= 4; q++) state = applyRunEvent(state, 'sample', sample(s, q));
    state = applyRunEvent(state, 'tick', tick(s));
  }
  return state;
}

test('before a few seconds are measured, the panel says when advice will come', () => {
  const state = measured(LIVE_ADVICE_MIN_MS / 1000 - 1);
  assert.equal(state.advice.current, null);
  assert.equal(frame(h(Advice, { advice: state.advice, formatAdvice: formatLiveAdvice }), 80), `advice after ${LIVE_ADVICE_MIN_MS / 1000} s of measurement`);
});

test('then the current advice, in the summary\'s words', () => {
  const state = measured(4);
  assert.equal(state.advice.window.samples, 16, 'the warm-up sample is not in the window');
  const text = frame(h(Advice, { advice: state.advice, formatAdvice: formatLiveAdvice }), 80);
  const lines = text.split('\n');
  assert.equal(lines.length, 3);
  assert.match(lines[0], /^advice \[medium confidence, so far\] Use \d+ workers? with least-requests \(this run:/);
  assert.match(text, /- Work was lopsided|- The cores are the limit|- Each request keeps a worker/);
  assertFits(assert, text, 80);
  assertFits(assert, frame(h(Advice, { advice: state.advice, formatAdvice: formatLiveAdvice }), 50), 50);
});

test('advice is worked out on ticks only (once a second), not on every sample', () => {
  const state = measured(4);
  const current = state.advice.current;
  const after = applyRunEvent(state, 'sample', sample(5, 1));
  assert.equal(after.advice.current, current);
  assert.notEqual(applyRunEvent(after, 'tick', tick(5)).advice.current, current);
});

test('at the end the run\'s own recommendation replaces the live one', () => {
  const result = { ...RUN, recommendation: adviseRun(adviceInput(RUN)) };
  const state = applyRunEvent(measured(4), 'done', result);
  assert.equal(state.advice.current, result.recommendation);
  const text = frame(h(Advice, { advice: state.advice, formatAdvice: formatLiveAdvice }), 80);
  assert.match(text, /^advice \[high confidence\] Use 3 workers with least-requests \(this run: 3 workers/m);
});

test('the dashboard shows the panel for runs, within the terminal, and not for tune steps or other targets', () => {
  const state = measured(4);
  for (const columns of [80, 60]) {
    const text = frame(h(Dashboard, { state, columns, rows: 24, formatAdvice: formatLiveAdvice }), columns);
    assertFits(assert, text, columns);
    assert.ok(text.split('\n').length < 24, `${text.split('\n').length} lines`);
    assert.match(text, /^advice \[medium confidence, so far\] Use/m);
  }
  const tuning = applyRunEvent(state, 'tune-progress', { size: 2, policy: 'p2c', repeat: 1 });
  assert.doesNotMatch(frame(h(Dashboard, { state: tuning, columns: 80, rows: 24, formatAdvice: formatLiveAdvice }), 80), /^advice/m);
  // The words come from the command (ui/ does not import report/): without them, no panel.
  assert.doesNotMatch(frame(h(Dashboard, { state, columns: 80, rows: 24 }), 80), /^advice/m);
  const tuneStep = applyRunEvent(initialRunState(), 'start', { plan: { ...RUN.plan, command: 'tune' }, machine: RUN.machine });
  assert.equal(tuneStep.advice, null);
  const url = applyRunEvent(initialRunState(), 'start', { plan: { ...RUN.plan, target: { kind: 'url', url: 'http://x/' } }, machine: RUN.machine });
  assert.equal(url.advice, null);
});

test('advice lines wrap at the terminal\'s edge, words whole, nothing cut with "…"; the panel draws the lines it counts', async () => {
  const { adviceLines, foldLine } = await import('../../src/ui/components/advice.js');
  const state = measured(4);
  const words = formatLiveAdvice(state.advice.current, state.advice.plan);
  for (const columns of [50, 80, 120]) {
    const text = frame(h(Advice, { advice: state.advice, formatAdvice: formatLiveAdvice, columns }), columns);
    assertFits(assert, text, columns);
    assert.doesNotMatch(text, /…/, 'no line is cut');
    const drawn = text.split('\n').length;
    assert.equal(drawn, adviceLines(state.advice, formatLiveAdvice, columns), `${columns} columns: drawn = counted`);
    // The headline's words all appear, in order, across its lines.
    const flat = text.replace(/\s+/g, ' ');
    for (const word of words[0].split(' ')) assert.ok(flat.includes(word), `${columns}: '${word}' of the headline is shown`);
  }
  assert.ok(adviceLines(state.advice, formatLiveAdvice, 50) > adviceLines(state.advice, formatLiveAdvice, 200), 'narrower: more lines');
  // A short terminal keeps the headline and whole reasons only.
  const short = frame(h(Advice, { advice: state.advice, formatAdvice: formatLiveAdvice, columns: 50, maxLines: 3 }), 50);
  assert.ok(short.split('\n').length <= 3);
  assert.deepEqual(foldLine('aaa bbb ccc', 8, '', '  '), ['aaa bbb', 'ccc']);
  assert.deepEqual(foldLine('abcdefghij', 4), ['abcd', 'efgh', 'ij'], 'a word longer than a line is cut into pieces');
});
