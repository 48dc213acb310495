import { test } from 'node:test';
import assert from 'node:assert/strict';
import { compareTable } from '../../src/analysis/compare-table.js';
import { compareOrder } from '../../src/compare/compare-plan.js';
import { formatCompare, formatCompareMarkdown } from '../../src/report/compare-text.js';

const run = (strategy, repeat, rps, extra = {}) => ({ workload: 'echo', strategy, repeat, rps, p99Ms: 60000 / rps, errors: 0, partial: false, failures: [], ...extra });

test('runs are interleaved: every strategy once per repeat', () => {
  const order = compareOrder({ strategies: ['baseline', 'fork-pool'], workloads: ['echo', 'large'], repeat: 2 });
  assert.deepEqual(order.map((o) => `${o.repeat}:${o.workload}:${o.strategy}`), [
    '1:echo:baseline', '1:echo:fork-pool', '1:large:baseline', '1:large:fork-pool',
    '2:echo:baseline', '2:echo:fork-pool', '2:large:baseline', '2:large:fork-pool',
  ]);
});

test('median, spread, ratio to the first strategy, and no meaningful difference when repeats overlap', () => {
  const runs = [
    run('baseline', 1, 640), run('fork-pool', 1, 2100), run('cluster', 1, 700), run('worker-threads', 1, 0, { failed: 'cannot start' }),
    run('baseline', 2, 660), run('fork-pool', 2, 2300), run('cluster', 2, 650),
    run('baseline', 3, 651), run('fork-pool', 3, 2209, { errors: 2 }), run('cluster', 3, 655, { partial: true }),
  ];
  const plan = { strategies: ['baseline', 'fork-pool', 'cluster', 'worker-threads'], workloads: ['echo'], repeat: 3 };
  const rows = compareTable(runs, plan);
  assert.deepEqual(rows.map((r) => [r.strategy, r.rps.median, r.rps.min, r.rps.max, r.errors]), [
    ['baseline', 651, 640, 660, 0], ['fork-pool', 2209, 2100, 2300, 2], ['cluster', 675, 650, 700, 0], ['worker-threads', null, null, null, 0],
  ]);
  assert.equal(rows[1].ratio.toFixed(2), '3.39');
  assert.equal(rows[1].sameAsFirst, false);
  assert.equal(rows[2].sameAsFirst, true, 'cluster overlaps baseline');
  assert.equal(rows[3].failed, 'cannot start');

  const result = { plan: { ...plan, load: { connections: 30, durationMs: 5000, warmupMs: 1000, threads: 1 }, workloadInfo: { echo: { command: 'echo', args: ['hi'] } } }, machine: null, runs, rows, notes: [] };
  const text = formatCompare(result);
  assert.match(text, /^strategy +req\/s \(min–max\) +p99 ms \(min–max\) +errors +vs baseline$/m);
  assert.match(text, /^fork-pool +2,209 \(2,100–2,300\) +27\.2 \(26\.1–28\.6\) +2 +3\.39×$/m);
  assert.match(text, /^cluster +675 \(650–700\) .* 1\.04× +no meaningful difference$/m);
  assert.match(text, /^worker-threads +– +– +0 +– +failed: cannot start$/m);
  const md = formatCompareMarkdown(result);
  assert.match(md, /\| cluster \(no meaningful difference\) \| 675 \| 650–700 \| [\d.]+ ms \| 0 \| 1\.04× \|/);
});

test('an open loop: rows at the same rate whose p99 differ are not "no meaningful difference"', () => {
  // compare --rate 20 of a server that answers at once and one that waits 40 ms: "slow 20 (20–20) 48.0 (47.9–50.5)
  // 0.99× no meaningful difference" beside fast's p99 8.41 (7.64–8.48).
  const at = (strategy, repeat, rps, p99Ms) => run(strategy, repeat, rps, { p99Ms });
  const plan = { strategies: ['fast', 'slow', 'same'], workloads: ['echo'], repeat: 3 };
  const rows = compareTable([
    at('fast', 1, 20, 7.64), at('slow', 1, 20, 47.9), at('same', 1, 20, 8.1),
    at('fast', 2, 20.5, 8.41), at('slow', 2, 20, 48), at('same', 2, 20.4, 8.6),
    at('fast', 3, 20.1, 8.48), at('slow', 3, 20.1, 50.5), at('same', 3, 20, 7.9),
  ], plan);
  assert.equal(rows[1].sameAsFirst, false, 'slow: 6× the p99');
  assert.equal(rows[2].sameAsFirst, true, 'same: overlapping req/s and p99');
  const result = { plan: { ...plan, load: { connections: 10, rate: 20, durationMs: 2000, warmupMs: 0, threads: 1 }, workloadInfo: {} }, machine: null, runs: [], rows, notes: [] };
  const text = formatCompare(result);
  assert.doesNotMatch(text, /^slow .*no meaningful difference/m);
  assert.match(text, /At a fixed --rate each row's req\/s is the rate it was sent at/);
});

test('an open loop a row fell behind: the footer names it, not "each row\'s req/s is the rate it was sent at"', () => {
  // compare --rate 5000 -c 2 of hello-world (4,992 req/s) and a server waiting 20 ms (89 req/s, 0.02×): the footer said
  // every row's req/s was the rate, with the "vs" ratio near 1.
  const plan = { strategies: ['hello', 'down'], workloads: ['echo'], repeat: 1 };
  const rows = compareTable([run('hello', 1, 4992, { p99Ms: 238 }), run('down', 1, 89, { p99Ms: 977 })], plan);
  const result = { plan: { ...plan, load: { connections: 2, rate: 5000, durationMs: 1000, warmupMs: 0, threads: 1 }, workloadInfo: {} }, machine: null, runs: [], rows, notes: [] };
  const text = formatCompare(result);
  assert.doesNotMatch(text, /each row's req\/s is the rate/);
  assert.match(text, /At a fixed --rate a row served in full shows the rate as its req\/s; down served less than the 5,000 req\/s sent: it fell behind \(the server, or the connections: -c\)/);
});

test('a row whose every run failed while measured (the server crashed) has no ratio, not "0.00×"', () => {
  // Seen: a strategy killed in its warm-up read "0 req/s … 0.00×" beside the warning that its figures are not the server's.
  const crashed = { failures: ["strategy 'crash-mid-run' was killed by SIGKILL during the run; its stderr ends:\nfixture: crashing now"] };
  const plan = { strategies: ['baseline', 'crash-mid-run', 'fork-pool'], workloads: ['echo'], repeat: 2 };
  const rows = compareTable([
    run('baseline', 1, 640), run('crash-mid-run', 1, 0, crashed), run('fork-pool', 1, 2000, crashed),
    run('baseline', 2, 660), run('crash-mid-run', 2, 0, crashed), run('fork-pool', 2, 2100),
  ], plan);
  assert.equal(rows[1].ratio, null);
  // One run measured whole: the row has its ratio.
  assert.equal(rows[2].ratio.toFixed(2), '3.15');
});
