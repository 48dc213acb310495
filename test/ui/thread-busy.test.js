// The dashboard's process table with piscina-like threads: a line under the table gives
// the busy share, from CPU time, of each thread whose ELU 1.00 came from waiting in
// Atomics.wait (those rows are not highlighted as hot loops either).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import React from 'react';
import { Processes } from '../../src/ui/components/processes-panel.js';
import { buildProcessRows } from '../../src/ui/components/process-rows.js';
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
});
