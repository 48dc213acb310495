// tune of a thread pool: the per-size evidence of its threads (how many, how busy, by which
// figure), the main process's other threads where there are no workers (UV_THREADPOOL_SIZE),
// and the limit sentence naming a busy pool. Plain figures in, strings out.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellWorkers } from '../../src/analysis/worker-balance.js';
import { findBottleneck } from '../../src/analysis/bottleneck.js';
import { runSignals } from '../../src/analysis/run-figures.js';
import { formatEvidence } from '../../src/report/tune-text.js';
import { formatServerProcesses } from '../../src/report/own-server.js';
import { wordBottleneck } from '../../src/report/tune-words.js';

const main = (extra = {}) => ({ label: 'main', role: 'main', pid: 7, threadId: null, cpuPct: 60, elu: 0.3, busy: 0.3, busyFrom: 'elu', ...extra });
const thread = (id, busy, extra = {}) => ({ label: `thread ${id}`, role: 'thread', pid: 7, threadId: id, cpuPct: busy * 90, elu: 1, busy, busyFrom: 'cpu', ...extra });
const stat = (median) => ({ median, min: median, max: median, n: 1 });

test('cellWorkers: per size, the threads seen, their median busy share and figure, the main thread; other threads without workers', () => {
  const steps = [
    { size: 1, policy: null, processes: [main({ busy: 0.2 }), thread(1, 0.98, { busyFrom: 'elu' })] },
    { size: 2, policy: null, processes: [main(), thread(1, 0.6), thread(2, 0.5)] },
    { size: 2, policy: null, processes: [main(), thread(1, 0.7), thread(2, 0.6)] },
    { size: 4, policy: null, partial: true, processes: [main(), thread(1, 0.1)] },
    { size: 8, policy: null, processes: [main({ otherThreads: { count: 10, busy: 4, cpuPct: 160, maxCpuPct: 45 } })] },
  ];
  const cells = cellWorkers(steps);
  assert.deepEqual(cells.map((c) => [c.size, c.workers, c.workerKind, c.busyFrom]), [[1, 1, 'thread', 'elu'], [2, 2, 'thread', 'cpu'], [8, 0, null, null]]);
  assert.ok(Math.abs(cells[1].busy - 0.6) < 1e-9, 'median of the steps\' mean busy shares (0.55, 0.65)');
  assert.deepEqual(cells[2].otherThreads, { busy: 4, cpuPct: 160 });

  const rec = { size: 2, policy: null, bestCell: { size: 2, policy: null } };
  const table = formatEvidence([1, 2, 8].map((size) => ({ size, policy: null, rps: stat(100), p99Ms: stat(10), errors: 0 })), rec, null, cells);
  assert.match(table[0], /errors +workers busy +main$/);
  assert.match(table[1], / 1 thr × 98% +20%$/);
  assert.match(table[2], / 2 thr × 60% CPU +30% +← recommended, best throughput$/);
  assert.match(table[3], / 4 other, 160% CPU +30%$/);
});

test('the processes table: a busy column for threads, the CPU note, and no "only the main process" when other threads worked', () => {
  const threads = formatServerProcesses({ size: 2, policy: null, repeat: 1, rows: [main(), thread(1, 0.7), thread(2, 0.65)], balance: null });
  assert.match(threads[1], /ELU +busy +CPU$/);
  assert.match(threads[3], /^thread 1 .* 1\.00 +70% CPU +63%$/);
  assert.match(threads.join('\n'), /busy … CPU: the thread's time on a CPU or waiting for one, since its ELU counted waiting for work \(Atomics\.wait\) as busy/);
  assert.doesNotMatch(threads.join('\n'), /Only the main process/);

  const pool = formatServerProcesses({ size: 4, policy: null, repeat: 1, rows: [main({ otherThreads: { count: 10, busy: 4, cpuPct: 160, maxCpuPct: 45 } })], balance: null });
  assert.match(pool.at(-1), /^No worker process or Worker thread: the work ran on the main thread and on its other threads \(libuv's pool, V8's\): 4 of 10 worked .*160% of a core together, the busiest 45%\.$/);
  const idle = formatServerProcesses({ size: 4, policy: null, repeat: 1, rows: [main({ otherThreads: { count: 10, busy: 0, cpuPct: 3, maxCpuPct: 1 } })], balance: null });
  assert.match(idle.at(-1), /^Only the main process was seen, and its other threads \(libuv's pool, V8's\) were nearly idle \(3% of a core together\)/);
});

test('the limit sentence names a busy pool by its figure; the main process\'s CPU leaves out its threads\'', () => {
  const result = {
    machine: { cores: 2 },
    plan: { load: { threads: 1 } },
    load: { generator: { cpuPct: 5, elu: 0.05 } },
    samples: {
      system: { cpus: [100, 100] },
      spawned: { cpuPct: 0 },
      processes: [
        { role: 'main', pid: 7, summary: { elu: 0.3, cpuPct: 190 } },
        { role: 'thread', pid: 7, summary: { elu: 1, busy: 0.95, busyFrom: 'cpu', cpuPct: 85 } },
        { role: 'thread', pid: 7, summary: { elu: 1, busy: 0.93, busyFrom: 'cpu', cpuPct: 80 } },
      ],
    },
  };
  const signals = runSignals(result);
  assert.equal(signals.mainCpuPct, 25);
  assert.equal(signals.workersCpuPct, 165);
  assert.equal(signals.workers, 2);
  const text = wordBottleneck(findBottleneck(signals)).text;
  assert.match(text, /the pool is busy \(2 threads 94% busy, by CPU time: their ELU counted waiting for work\): it serves what it can at this size; the machine is the limit/);
  assert.match(text, /cores used of 2: workers 1\.6, spawned commands 0\.0, main 0\.3/);
});

test('the HTML process table has a busy column for threads, and says when it is CPU time', async () => {
  const { processTable } = await import('../../src/report/html/parts.js');
  const samples = {
    processes: [
      { key: '7', pid: 7, role: 'main', label: 'main', summary: { elu: 0.3, cpuPct: 60 } },
      { key: '7/1', pid: 7, role: 'thread', label: 'thread 1', summary: { elu: 1, busy: 0.44, busyFrom: 'cpu', cpuPct: 40 } },
    ],
  };
  const html = processTable(samples);
  assert.match(html, /<th>ELU<\/th><th>busy<\/th>/);
  assert.match(html, /<td>44% \(CPU\)<\/td>/);
  assert.match(html, /busy \(CPU\): the thread's time on a CPU or waiting for one/);
  const noThreads = processTable({ processes: [samples.processes[0]] });
  assert.doesNotMatch(noThreads, /<th>busy<\/th>/);
});

test('a thread pool past the CPUs with the cores full: not "still rising", and the extra threads said to share the cores', async () => {
  const { recommend } = await import('../../src/analysis/recommend.js');
  const { wordRecommendation } = await import('../../src/report/tune-words.js');
  const { sweep } = await import('../analysis/sweeps.js');
  const steps = (systemCpuPct) => sweep({
    sizes: [1, 2, 6],
    repeats: 1,
    rps: (size) => ({ 1: 300, 2: 320, 6: 391 })[size],
    p99: () => 250,
    signals: (size) => ({ cores: 2, systemCpuPct, workers: size, workerKind: 'thread', workersBusy: 0.5, workersBusyFrom: 'cpu' }),
  });
  const full = recommend(steps(100));
  assert.equal(full.size, 6);
  assert.ok(!full.reasons.includes('still-rising'), full.reasons.join(' '));
  assert.ok(full.reasons.includes('over-cpus'));
  assert.match(wordRecommendation(full).sentences.join('\n'), /6 workers is more than the 2 CPUs, and they were busy only 50% on average \(by CPU time\) with the cores full: the extra workers shared the same cores/);
  // Cores with room: the curve may still rise, and nothing is said about sharing cores.
  const roomy = recommend(steps(50));
  assert.ok(roomy.reasons.includes('still-rising'));
  assert.ok(!roomy.reasons.includes('over-cpus'));
});

test('one worker under a quota of under a CPU is not "more than the 0.5 CPUs … the extra workers shared the same cores"', async () => {
  // Seen: tune --processes 1,2 inside a 0.5-CPU quota recommended 1 process and said so of it.
  const { recommend } = await import('../../src/analysis/recommend.js');
  const { wordRecommendation } = await import('../../src/report/tune-words.js');
  const { sweep } = await import('../analysis/sweeps.js');
  const steps = sweep({
    sizes: [1, 2],
    repeats: 1,
    rps: (size) => ({ 1: 7581, 2: 2753 })[size],
    p99: () => 60,
    signals: (size) => ({ cores: 0.5, systemCpuPct: 100, workers: size, workerKind: 'process', workersBusy: 0.83 / size }),
  });
  const rec = recommend(steps);
  assert.equal(rec.size, 1);
  assert.ok(!rec.reasons.includes('over-cpus'), rec.reasons.join(' '));
  assert.doesNotMatch(wordRecommendation(rec).sentences.join('\n'), /more than the 0\.5 CPUs|extra workers/);
});
