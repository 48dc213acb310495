// bench:strategies' figures: medians and spreads over rounds, ratios from the same
// rounds, and CPU per request from the samplers' percentages and from Go's /proc ticks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { median, cpuMsPerRequest, strategyCpu, goCpu, summarizeCell, throughputTable, cpuTable } from '../../bench/strategies-figures.js';

test('median of odd and even counts', () => {
  assert.equal(median([3, 1, 2]), 2);
  assert.equal(median([4, 1, 3, 2]), 2.5);
});

test('CPU percent over a phase becomes milliseconds per request', () => {
  // 50% of a core for 4 s is 2,000 ms of CPU; over 1,000 requests, 2 ms each.
  assert.equal(cpuMsPerRequest(50, 4000, 1000), 2);
  assert.equal(cpuMsPerRequest(null, 4000, 1000), null);
  assert.equal(cpuMsPerRequest(50, 4000, 0), null);
});

test('a strategy round splits CPU into main, workers (summed), spawned and generator', () => {
  const result = {
    load: { durationMs: 1000, requests: 500, generator: { cpuPct: 5 } },
    samples: {
      processes: [
        { role: 'main', summary: { cpuPct: 10 } },
        { role: 'worker', summary: { cpuPct: 20 } },
        { role: 'worker', summary: { cpuPct: 30 } },
      ],
      spawned: { cpuPct: 50 },
    },
  };
  assert.deepEqual(strategyCpu(result), { main: 0.2, workers: 1, spawned: 1, generator: 0.1 });
  const noWorkers = { ...result, samples: { ...result.samples, processes: [result.samples.processes[0]] } };
  assert.equal(strategyCpu(noWorkers).workers, null);
});

test("Go's round: its own and its children's CPU per request", () => {
  const load = { durationMs: 1000, requests: 400, generator: { cpuPct: 4 } };
  assert.deepEqual(goCpu({ selfMs: 100, childrenMs: 400, load }), { main: 0.25, workers: null, spawned: 1, generator: 0.1 });
});

test('a cell: median rps, spread, median ratio of its own rounds, errors summed; a failed round fails it', () => {
  const round = (rps, ratio, errors = 0, mismatch = 0) => ({ rps, ratio, p99Ms: 10, errors, mismatch, cpu: { main: rps / 1000, workers: null, spawned: 1, generator: 0.1 } });
  const cell = summarizeCell([round(900, 0.9), round(1100, 1.2, 2, 1), round(1000, 1.0)]);
  assert.equal(cell.rps, 1000);
  assert.equal(cell.minRps, 900);
  assert.equal(cell.maxRps, 1100);
  assert.equal(cell.ratio, 1.0);
  assert.equal(cell.minRatio, 0.9);
  assert.equal(cell.maxRatio, 1.2);
  assert.equal(cell.errors, 2);
  assert.equal(cell.mismatch, 1);
  assert.equal(cell.cpu.main, 1);
  assert.equal(cell.cpu.workers, null);
  assert.deepEqual(summarizeCell([round(900, 0.9), { failed: 'boom' }]), { failed: 'boom' });
});

test('tables print the figures, the reference named in the ratio column', () => {
  const cell = summarizeCell([{ rps: 1234, ratio: 1.05, p99Ms: 12.34, errors: 0, mismatch: 0, cpu: { main: 0.2, workers: 0.3, spawned: 1, generator: 0.05 } }]);
  const text = throughputTable([{ label: 'x', cell }, { label: 'y', cell: { failed: 'a|b' } }], 'Go');
  assert.match(text, /\| server \| rps \(median\) \| spread \(min–max\) \| × Go \(median, min–max\) \|/);
  assert.match(text, /\| x \| 1,234 \| 1,234–1,234 \| 1\.05× \(1\.05–1\.05\) \| 12\.3 \| 0 \(0\) \|/);
  assert.match(text, /\| y \| failed: a\\\|b \|/);
  assert.match(cpuTable([{ label: 'x', cell }]), /\| x \| 0\.200 \| 0\.300 \| 1\.000 \| 1\.500 \| 0\.050 \|/);
});
