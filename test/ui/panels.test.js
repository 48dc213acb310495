import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import React from 'react';
import { Header } from '../../src/ui/components/header.js';
import { Progress } from '../../src/ui/components/progress.js';
import { Throughput } from '../../src/ui/components/throughput.js';
import { Latency } from '../../src/ui/components/latency.js';
import { Errors } from '../../src/ui/components/errors-panel.js';
import { Generator } from '../../src/ui/components/generator.js';
import { Processes } from '../../src/ui/components/processes-panel.js';
import { planView } from '../../src/ui/plan-view.js';
import { machine, makePlan, makeSample, makeState, makeTick, makeWorkers } from './fixtures.js';
import { assertFits, frame } from './render-helpers.js';

const h = React.createElement;
const WIDTHS = [80, 60];

describe('header', () => {
  for (const columns of WIDTHS) {
    it(`names the strategy, options, runtime and machine at ${columns} columns`, () => {
      const text = frame(h(Header, { plan: planView(makePlan({ workers: 4 })), machine }), columns);
      assertFits(assert, text, columns);
      assert.match(text, /^spawnbench fork-pool on node · pool 4 p2c · workload echo$/m);
      assert.match(text, /^load 30 connections · 10s \+ 2s warm-up$/m);
      assert.match(text, /node 20\.20\.2 · libuv 1\.46\.0 · Intel Xeon Platinum/);
      if (columns === 80) assert.match(text, /2\.50GHz × 2 cores/);
      else assert.match(text, /…$/, 'cut, not wrapped');
      assert.equal(text.split('\n').length, 3);
    });
  }

  it('says "starting…" before the start event', () => {
    assert.match(frame(h(Header, { plan: null, machine: null }), 80), /spawnbench starting…/);
  });
});

describe('progress', () => {
  for (const columns of WIDTHS) {
    it(`shows warm-up as not counted, then measured seconds and requests at ${columns} columns`, () => {
      const plan = planView(makePlan());
      const warm = frame(h(Progress, { phase: 'warmup', tick: makeTick({ phase: 'warmup', second: 1 }), plan, columns }), columns);
      assertFits(assert, warm, columns);
      assert.match(warm, /warming up {2}1s \/ 2s/);
      assert.match(warm, /not counted/);
      const measuring = frame(h(Progress, { phase: 'measure', tick: makeTick(), plan, columns }), columns);
      assertFits(assert, measuring, columns);
      assert.match(measuring, /measuring {2}4s \/ 10s {2}█+░+ {2}2,720 requests/);
    });
  }

  it('does not show the warm-up tick as measured right after the phase changes', () => {
    const plan = planView(makePlan());
    const text = frame(h(Progress, { phase: 'measure', tick: makeTick({ phase: 'warmup', second: 2 }), plan, columns: 80 }), 80);
    assert.match(text, /● measuring {2}0s \/ 10s {2}░+ {2}0 requests$/);
  });

  it('shows booting before the first tick and stopping after q', () => {
    const plan = planView(makePlan());
    assert.match(frame(h(Progress, { phase: 'booting', tick: null, plan, columns: 80 }), 80), /● booting$/m);
    const stopping = frame(h(Progress, { phase: 'measure', tick: makeTick(), plan, stopRequested: true, columns: 80 }), 80);
    assert.match(stopping, /stopping…/);
  });
});

describe('throughput and latency', () => {
  const history = [500, 550, 640, 700, 660, 690].map((rps, i) => ({ phase: i < 2 ? 'warmup' : 'measure', rps }));
  for (const columns of WIDTHS) {
    it(`draws one sparkline character per second with current and mean rps at ${columns} columns`, () => {
      const text = frame(h(Throughput, { rpsHistory: history, tick: makeTick(), width: columns }), columns);
      assertFits(assert, text, columns);
      assert.match(text, /now 683 {2}mean 672 {2}peak 700/);
      assert.match(text, /^ {2}[▁▂▃▄▅▆▇█]{6}$/m);
    });

    it(`lists p50/p90/p99/max for the last second and overall at ${columns} columns`, () => {
      const text = frame(h(Latency, { tick: makeTick(), width: 39 }), columns);
      assertFits(assert, text, columns);
      assert.match(text, /latency ms +p50 +p90 +p99 +max/);
      assert.match(text, /last 1s +41 +45 +48 +62/);
      assert.match(text, /overall +41 +44 +52 +133/);
    });
  }

  it('waits politely before the first second', () => {
    assert.match(frame(h(Throughput, { rpsHistory: [], tick: null, width: 40 }), 40), /waiting for the first second/);
  });
});

describe('errors', () => {
  for (const columns of WIDTHS) {
    it(`shows "errors 0" when there are none at ${columns} columns`, () => {
      const text = frame(h(Errors, { tick: makeTick() }), columns);
      assert.equal(text, 'errors 0');
    });

    it(`lists errors by kind and non-2xx by status, marked, at ${columns} columns`, () => {
      const text = frame(h(Errors, { tick: makeTick({ errors: true }) }), columns);
      assertFits(assert, text, columns);
      assert.match(text, /^! errors 12: timeout 3 · reset 1$/m);
      assert.match(text, /^! non-2xx 8: 500 ×6 · 502 ×2$/m);
    });

    it(`quotes the most frequent error text, escape sequences and control characters out, at ${columns} columns`, () => {
      const tick = { ...makeTick({ errors: true }), errorTexts: [{ status: 500, kind: 'non2xx', count: 6, texts: [{ text: '\u001b[31m<script>x</script>\u0007 too many', count: 6 }], other: 0 }] };
      const text = frame(h(Errors, { tick }), columns);
      assertFits(assert, text, columns);
      assert.match(text, /^! non-2xx 8: 500 ×6 '<script>x<\/script> too/m);
      assert.doesNotMatch(text, /\u001b\[31m|\u0007/);
    });
  }
});

describe('generator', () => {
  for (const columns of WIDTHS) {
    it(`warns past 80% of a core at ${columns} columns`, () => {
      const calm = frame(h(Generator, { generator: { cpuPct: 35, elu: 0.41 } }), columns);
      assert.equal(calm, 'generator CPU 35%  ELU 0.41');
      const busy = frame(h(Generator, { generator: { cpuPct: 93, elu: 0.97 } }), columns);
      assertFits(assert, busy, columns);
      assert.match(busy, /CPU 93% {2}ELU 0\.97 {2}! results may/);
    });
  }

  it('compares per generator thread', () => {
    const text = frame(h(Generator, { generator: { cpuPct: 150, elu: 0.7 }, threads: 2 }), 100);
    assert.match(text, /CPU 150% \(2 threads\)/);
    assert.doesNotMatch(text, /limited/);
  });
});

describe('processes', () => {
  const panel = (workers, columns, extra = {}) =>
    frame(
      h(Processes, {
        sample: makeSample({ workers, ...extra }),
        workers: makeWorkers(workers),
        plan: planView(makePlan({ workers, runtime: extra.runtime, workerRuntime: extra.runtime })),
        columns,
        maxRows: 10,
      }),
      columns,
    );

  for (const columns of WIDTHS) {
    it(`shows the main process alone (0 workers) at ${columns} columns`, () => {
      const text = panel(0, columns);
      assertFits(assert, text, columns);
      // No row has an in-flight count (no workers report one): the column is left out, not a column of dashes.
      assert.match(text, /^process +loop p99\/max +ELU spawn +CPU +RSS *$/m);
      assert.doesNotMatch(text, /in-fl/);
      assert.match(text, /^main +48\/120 0\.97 +31% █+░* +97% +61M *$/m);
      assert.match(text, /spawned commands 14 · CPU 35% · RSS 14M/);
      assert.doesNotMatch(text, /w0/);
    });

    it(`shows one worker with its in-flight count at ${columns} columns`, () => {
      const text = panel(1, columns);
      assertFits(assert, text, columns);
      assert.match(text, /^w0 +2\.0\/8\.0 0\.20 +2% .* 5% +40M +0 *$/m);
      if (columns >= 80) assert.match(text, /^process .* in-fl *$/m, 'a worker reports its in-flight count: the column is there');
    });

    it(`collapses 32 workers to min/median/max and the busiest at ${columns} columns`, () => {
      const text = panel(32, columns);
      assertFits(assert, text, columns);
      for (const label of ['min', 'median', 'max', 'busiest w17']) assert.match(text, new RegExp(`^${label} `, 'm'));
      assert.match(text, /^busiest w17 .* 88% /m);
      assert.match(text, /32 workers summarised/);
      assert.doesNotMatch(text, /^w3 /m);
      assert.ok(text.split('\n').length <= 10, 'fits in a few rows');
    });
  }

  it('says the probe is not available on bun and shows dashes', () => {
    const text = panel(0, 80, { probe: false, runtime: 'bun' });
    assert.match(text, /probe not available on bun/);
    assert.match(text, /^main +– +– +– /m);
  });

  it('waits for the first sample', () => {
    const state = makeState();
    const text = frame(h(Processes, { sample: null, workers: [], plan: state.plan, columns: 80, maxRows: 5 }), 80);
    assert.match(text, /waiting for the first sample/);
  });
});

describe('the CPU budget in the dashboard', () => {
  it('the header names a quota and its host where it named the cores', () => {
    const quota = { ...machine, cpu: { budget: 1, source: 'quota', hostThreads: 2, physicalCores: 2, unreadable: null } };
    const text = frame(h(Header, { plan: planView(makePlan({ workers: 1 })), machine: quota }), 160);
    assert.match(text, /× 1\.0 CPU: cgroup quota, on a 2-core host/);
  });

  it('the cores line shows the quota throttling, loud past the threshold', () => {
    const sample = { ...makeSample({ workers: 1 }), throttling: [{ roles: ['server', 'spawnbench'], quotaCpus: 1, cgroup: '/q', fraction: 0.87, throttledMs: 300 }] };
    const text = frame(h(Processes, { sample, workers: makeWorkers(1), plan: planView(makePlan({ workers: 1 })), columns: 120, maxRows: 10 }), 120);
    assert.match(text, /cores 96% 88% {2}quota 1\.0 CPU throttled 87%/);
    const none = frame(h(Processes, { sample: { ...sample, throttling: [] }, workers: makeWorkers(1), plan: planView(makePlan({ workers: 1 })), columns: 120, maxRows: 10 }), 120);
    assert.doesNotMatch(none, /quota/);
  });
});
