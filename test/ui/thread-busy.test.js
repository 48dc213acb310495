// The dashboard's process table with piscina-like threads: a line under the table gives
// the busy share, from CPU time, of each thread whose ELU 1.00 came from waiting in
// Atomics.wait (those rows are not highlighted as hot loops either).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import React from 'react';
import { Processes } from '../../src/ui/components/processes-panel.js';
import { buildProcessRows, collapseRows } from '../../src/ui/components/process-rows.js';
import { planView } from '../../src/ui/plan-view.js';
import { makePlan, makeSample } from './fixtures.js';
import { assertFits, frame } from './render-helpers.js';

const h = React.createElement;

function sampleWithThreads() {
  const sample = makeSample();
  const thread = (id, busy, busyFrom) => ({
    key: `4242/${id}`, pid: 4242, threadId: id, role: 'thread', label: `thread ${id}`, cpuPct: busy * 90, rssBytes: null,
    probe: { elu: 1, loopDelay: null, spawn: null, gcMs: null, heapUsedBytes: null }, busy, busyFrom,
  });
  sample.processes.push(thread(1, 0.44, 'cpu'), thread(2, 0.02, 'cpu'), thread(3, 0.97, 'elu'));
  return sample;
}

test('a thread whose ELU counted waiting: its busy share from CPU is said under the table', () => {
  const rows = buildProcessRows(sampleWithThreads(), []);
  assert.deepEqual(rows.filter((r) => r.role === 'thread').map((r) => [r.label, r.busyFromCpu, r.busy]), [['t1', true, 0.44], ['t2', true, 0.02], ['t3', false, 0.97]]);
  for (const columns of [80, 60]) {
    const text = frame(h(Processes, { sample: sampleWithThreads(), workers: [], plan: planView(makePlan()), columns, maxRows: 10 }), columns, { color: false });
    assertFits(assert, text, columns);
    assert.match(text, /^busy by CPU \(ELU counts waiting for work\): t1 44% t2 2%/m);
  }
  // The ELU column shows the busy share of a thread whose ELU 1.00 was waiting, not the 1.00 (issue 36).
  const text = frame(h(Processes, { sample: sampleWithThreads(), workers: [], plan: planView(makePlan()), columns: 80, maxRows: 10 }), 80, { color: false });
  assert.match(text, /^t1 +– 0\.44 /m);
  assert.match(text, /^t2 +– 0\.02 /m);
  assert.match(text, /^t3 +– 1\.00 /m, 'a thread whose ELU is its own keeps it');
});

test('collapsed rows: the min / median / max of the ELU column are of the figures it shows', () => {
  const sample = makeSample();
  for (let i = 1; i <= 6; i++) {
    sample.processes.push({ key: `4242/${i}`, pid: 4242, threadId: i, role: 'thread', label: `thread ${i}`, cpuPct: 9 * i, rssBytes: null, probe: { elu: 1, loopDelay: null, spawn: null, gcMs: null, heapUsedBytes: null }, busy: 0.1 * i, busyFrom: 'cpu' });
  }
  const { rows } = collapseRows(buildProcessRows(sample, []), 6);
  const max = rows.find((r) => r.label === 'max');
  assert.ok(Math.abs(max.elu - 0.6) < 1e-9, `max ${max.elu}`);
});
