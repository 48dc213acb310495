#!/usr/bin/env node
// bench:strategies: the experiment's table for this machine. Every strategy (and
// the Bun/Deno variants the experiment measured, where installed) x {echo, large},
// one after another in one run, through spawnbench's own run engine
// (buildRunPlan + createRun: the same boot, warm-up, load and body checks as
// `spawnbench run`). Prints a Markdown table: rps, p99, errors, and rps relative
// to Node baseline on the same workload. The in-process probe is off, so every
// row is measured the same way (it only attaches to Node main processes).
//
// With --rounds N every cell is measured N times, the rounds interleaved (all rows,
// then all rows again), and the table shows the median: drift on a shared machine
// then hits every row alike instead of whichever ran during a busy spell.
//
// Usage: node bench/strategies.js [--duration 3s] [--warmup 1s] [--connections 30]
//        [--pool-size N] [--rounds 1] [--only fork-pool,comm-channel] [--workloads echo,large]
import { parseArgs } from 'node:util';
import { availableParallelism, loadavg } from 'node:os';
import { buildRunPlan } from '../src/plan.js';
import { createRun } from '../src/runner/run.js';
import { resolveRuntime } from '../src/strategies/runtimes.js';

const { values: args } = parseArgs({
  options: {
    duration: { type: 'string', default: '3s' },
    warmup: { type: 'string', default: '1s' },
    connections: { type: 'string', default: '30' }, // the experiment's 30 keep-alive connections
    'pool-size': { type: 'string', default: String(availableParallelism()) },
    rounds: { type: 'string', default: '1' },
    only: { type: 'string' },
    workloads: { type: 'string', default: 'echo,large' },
  },
});

/** The experiment's rows: strategy, main runtime, worker runtime (null: the main's own). */
const ROWS = [
  ['baseline', 'node', null],
  ['baseline', 'bun', null],
  ['baseline', 'deno', null],
  ['cluster', 'node', null],
  ['cluster', 'deno', null],
  ['worker-threads', 'node', null],
  ['worker-threads', 'bun', null],
  ['worker-threads', 'deno', null],
  ['fork-pool', 'node', null],
  ['fork-pool', 'node', 'bun'],
  ['fork-pool', 'node', 'deno'],
  ['fork-pool', 'bun', null],
  ['fork-pool', 'deno', null],
  ['comm-channel', 'node', null],
  ['comm-channel', 'node', 'bun'],
  ['comm-channel', 'bun', null],
  ['comm-channel', 'deno', null],
  ['send-advanced', 'node', null],
];

// Other work on the machine skews every figure: the table says how busy it was.
const LOAD_BEFORE = loadavg()[0].toFixed(1);
const only = args.only ? new Set(args.only.split(',')) : null;
const workloads = args.workloads.split(',');

function installed(runtime) {
  try {
    resolveRuntime(runtime);
    return true;
  } catch {
    return false;
  }
}

async function measure(strategy, runtime, workerRuntime, workload) {
  const options = {
    strategy, runtime, workload,
    duration: args.duration, warmup: args.warmup, connections: args.connections,
    probe: false, dashboard: false,
  };
  if (strategy !== 'baseline') options.poolSize = args['pool-size'];
  if (workerRuntime) options.workerRuntime = workerRuntime;
  try {
    const result = await createRun(buildRunPlan(options)).start();
    return { rps: result.load.rps, p99Ms: result.load.latency.p99Ms, errors: result.load.errors.total };
  } catch (error) {
    return { failed: error.message.split('\n')[0] };
  }
}

const label = (strategy, runtime, workerRuntime) =>
  `${strategy} (${runtime}${workerRuntime ? ` main, ${workerRuntime} workers` : ''})`;

const rows = [];
const skipped = [];
for (const [strategy, runtime, workerRuntime] of ROWS) {
  if (only && !only.has(strategy)) continue;
  const missing = [runtime, workerRuntime].filter((r) => r && !installed(r));
  if (missing.length) skipped.push(`${label(strategy, runtime, workerRuntime)}: ${missing.join(', ')} not installed`);
  else rows.push({ strategy, runtime, workerRuntime, samples: Object.fromEntries(workloads.map((w) => [w, []])) });
}

const rounds = Number(args.rounds);
for (let round = 1; round <= rounds; round++) {
  for (const row of rows) {
    for (const workload of workloads) {
      const name = label(row.strategy, row.runtime, row.workerRuntime);
      process.stderr.write(`${rounds > 1 ? `[${round}/${rounds}] ` : ''}${name} ${workload}… `);
      const c = await measure(row.strategy, row.runtime, row.workerRuntime, workload);
      row.samples[workload].push(c);
      process.stderr.write(c.failed ? `failed: ${c.failed}\n` : `${Math.round(c.rps)} rps\n`);
    }
  }
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};
/** One cell from its rounds: medians of rps and p99, every error counted; a failed round fails the cell. */
function summarize(samples) {
  const failed = samples.find((c) => c.failed);
  if (failed) return failed;
  return {
    rps: median(samples.map((c) => c.rps)),
    p99Ms: median(samples.map((c) => c.p99Ms)),
    errors: samples.reduce((sum, c) => sum + c.errors, 0),
  };
}
const results = rows.map((row) => ({ ...row, cells: Object.fromEntries(workloads.map((w) => [w, summarize(row.samples[w])])) }));

const baseline = results.find((r) => r.strategy === 'baseline' && r.runtime === 'node' && !r.workerRuntime);
const fmt = (n, digits = 0) => n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const header = ['strategy', 'runtime', ...workloads.flatMap((w) => [`${w} rps`, `${w} × baseline`, `${w} p99 ms`, `${w} errors`])];
const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
for (const row of results) {
  const cells = workloads.flatMap((w) => {
    const c = row.cells[w];
    if (c.failed) return [`failed: ${c.failed.replace(/\|/g, '\\|')}`, '', '', ''];
    const base = baseline?.cells[w];
    const ratio = base && !base.failed && base.rps > 0 ? `${fmt(c.rps / base.rps, 2)}×` : '–';
    return [fmt(c.rps), ratio, fmt(c.p99Ms, 1), String(c.errors)];
  });
  const rt = row.workerRuntime ? `${row.runtime} + ${row.workerRuntime} workers` : row.runtime;
  lines.push(`| ${row.strategy} | ${rt} | ${cells.join(' | ')} |`);
}

console.log(`## spawnbench strategies on this machine\n`);
console.log(`${availableParallelism()} hardware threads · Node ${process.versions.node} · pool size ${args['pool-size']} · ` +
  `${args.connections} connections · ${args.warmup} warm-up + ${args.duration} per cell` +
  `${rounds > 1 ? ` · median of ${rounds} rounds` : ''} · probe off · load average before: ${LOAD_BEFORE}\n`);
console.log(lines.join('\n'));
if (skipped.length) console.log(`\nSkipped: ${skipped.join('; ')}.`);
