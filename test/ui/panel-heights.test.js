// Panels know their own height: each panel exports the lines it draws, the dashboard
// only adds them up (frameLayout). Here each declaration is held to what the panel
// really draws, rendered as text, across the states that change its height.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import React from 'react';
import { Header, headerLines } from '../../src/ui/components/header.js';
import { Throughput, THROUGHPUT_LINES } from '../../src/ui/components/throughput.js';
import { Latency, LATENCY_LINES } from '../../src/ui/components/latency.js';
import { Errors, errorsLines } from '../../src/ui/components/errors-panel.js';
import { Generator, GENERATOR_LINES } from '../../src/ui/components/generator.js';
import { Processes, processesFixedLines } from '../../src/ui/components/processes-panel.js';
import { planView } from '../../src/ui/plan-view.js';
import { machine, makePlan, makeSample, makeTick, makeWorkers } from './fixtures.js';
import { frame } from './render-helpers.js';

const h = React.createElement;
const lines = (element, columns = 100) => frame(element, columns).split('\n').length;

test('Header, Throughput, Latency and Generator draw the lines they declare', () => {
  const plan = planView(makePlan({ workers: 2 }));
  assert.equal(lines(h(Header, { plan, machine, runtimes: null })), headerLines(plan));
  assert.equal(lines(h(Header, { plan: null, machine, runtimes: null })), headerLines(null));
  for (const tick of [null, makeTick(), makeTick({ errors: true })]) {
    assert.equal(lines(h(Throughput, { rpsHistory: [{ rps: 500, phase: 'measure' }], tick, width: 80 })), THROUGHPUT_LINES);
    assert.equal(lines(h(Latency, { tick, width: 60 })), LATENCY_LINES);
  }
  assert.equal(lines(h(Generator, { generator: { cpuPct: 35, elu: 0.3 }, threads: 1 })), GENERATOR_LINES);
});

test('Errors draws what errorsLines says: calm, errors, non-2xx, a worker death', () => {
  const death = { id: 1, pid: 5001, code: 1, signal: null, at: 1000, count: 1 };
  for (const tick of [null, makeTick(), makeTick({ errors: true })]) {
    for (const deaths of [[], [death]]) {
      assert.equal(lines(h(Errors, { tick, deaths })), errorsLines({ tick, deaths }), `errors ${Boolean(tick?.errors?.total)}, deaths ${deaths.length}`);
    }
  }
  // Non-2xx statuses without a counted error still take their own line.
  const onlyStatuses = { ...makeTick(), errors: { total: 0 }, statuses: { 200: 10, 503: 2 } };
  assert.equal(lines(h(Errors, { tick: onlyStatuses })), errorsLines({ tick: onlyStatuses }));
  assert.equal(errorsLines({ tick: onlyStatuses }), 2);
});

test('Processes draws its rows plus the fixed lines it declares (no more)', () => {
  for (const [workers, probe] of [[0, true], [2, true], [2, false]]) {
    const plan = planView(makePlan({ workers, runtime: probe ? 'node' : 'bun' }));
    const sample = makeSample({ workers, probe });
    const props = { sample, workers: makeWorkers(workers), plan };
    const drawn = lines(h(Processes, { ...props, columns: 100, maxRows: 50 }));
    const rows = 1 + workers; // main and each worker, none collapsed at 50 rows
    assert.ok(drawn <= rows + processesFixedLines(props), `${workers} workers, probe ${probe}: ${drawn} lines`);
    assert.ok(drawn >= rows + processesFixedLines(props) - 1, 'the spawned/cores line is the only one kept in reserve');
  }
});
