// The Recommendation block of the text summary and of `report`: words from the
// advice's ids and figures, every line within 80 columns, old files coped with.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { formatSummary } from '../../src/report/summary.js';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { cli } from '../helpers/harness.js';
import { TUNE_STEP_OVERHEAD_MS } from '../../src/base/thresholds.js';
import { syntheticRun, evenWorkers } from '../analysis/synthetic-runs.js';

const withAdvice = (run) => ({ ...run, recommendation: adviseRun(adviceInput(run)) });

const crowded = evenWorkers(4, { rps: 700, elu: 0.95, cpuPct: 22, waitPct: 40 }).map((w) => ({ ...w, loopCpuPct: 20 }));
const CASES = {
  'saturated machine': syntheticRun({ poolSize: 4, rps: 700, cpus: [98, 99], spawnedCpuPct: 90, workers: crowded }),
  'saturated worker': syntheticRun({ poolSize: 1, rps: 300, cpus: [40, 35], spawnedCpuPct: 40,
    workers: [{ elu: 0.98, blocked: 0.8, cpuPct: 42, loopCpuPct: 40, waitPct: 2, requests: 3000, inFlight: 30 }] }),
  'saturated main thread': syntheticRun({ cores: 4, poolSize: 4, rps: 1000, cpus: [70, 70, 70, 70], spawnedCpuPct: 60,
    main: { elu: 0.97, blocked: 0, cpuPct: 95, loopCpuPct: 95, waitPct: 2 }, workers: evenWorkers(4, { rps: 1000, elu: 0.3, cpuPct: 25 }) }),
  'saturated generator': syntheticRun({ poolSize: 2, rps: 500, cpus: [80, 80], spawnedCpuPct: 20, generator: { cpuPct: 98, elu: 0.98 },
    workers: evenWorkers(2, { rps: 500, elu: 0.5, cpuPct: 30 }) }),
  'lopsided pool': syntheticRun({ poolSize: 3, rps: 700,
    workers: [3000, 3000, 1000].map((r) => ({ elu: 0.6, blocked: 0.5, cpuPct: 30, loopCpuPct: 30, waitPct: 0, requests: r, inFlight: 10 })) }),
  'even pool': syntheticRun({ poolSize: 3, rps: 700, workers: evenWorkers(3, { rps: 700 }) }),
  'too short': syntheticRun({ durationMs: 1500, workers: evenWorkers(2, { durationMs: 1500 }) }),
  baseline: syntheticRun({ pool: false, rps: 450, cpus: [85, 80], spawnedCpuPct: 80, main: { elu: 0.99, blocked: 0.75, cpuPct: 85, loopCpuPct: 85, waitPct: 3 } }),
  'custom workload': (() => {
    const run = syntheticRun({ workers: evenWorkers(2), connections: 1000, threads: 4 });
    run.plan.workload = { name: 'custom', command: '/opt/some/long/path/to/a/command', args: ['--with', 'many arguments', '--that-wrap'] };
    run.plan.target.runtime = { name: 'deno', kind: 'deno', path: '/usr/bin/deno' };
    run.plan.target.workerRuntime = { name: 'bun', kind: 'bun', path: '/usr/bin/bun' };
    return run;
  })(),
};

function block(text) {
  return text.slice(text.indexOf('\nRecommendation\n') + 1);
}

test('the summary ends with the Recommendation block, every line within 80 columns, for every case', () => {
  for (const [name, run] of Object.entries(CASES)) {
    const text = formatSummary(withAdvice(run));
    assert.match(text, /\n\nRecommendation\n {2}\S/, name);
    // The custom case's header names its whole command and both runtimes (wider than 80 before this
    // block existed); its block must fit all the same.
    const checked = name === 'custom workload' ? block(text) : text;
    for (const line of checked.split('\n')) assert.ok(line.length <= 80, `${name}: ${line.length} columns: ${line}`);
  }
});

test('the block words each case: the headline, its reasons and how sure it is', () => {
  const text = (name) => block(formatSummary(withAdvice(CASES[name])));
  assert.match(text('saturated machine'), /^ {2}Use 2 workers with round-robin \(this run: 4 workers, round-robin\)\.$/m);
  assert.match(text('saturated machine'), /- The cores are the limit/);
  assert.match(text('saturated machine'), /Based on this one run, not a sweep; confidence medium\./);
  assert.match(text('saturated worker'), /Use 3 workers with round-robin \(this run: 1 worker/);
  assert.match(text('saturated worker'), /- The workers were the limit/);
  assert.match(text('saturated main thread'), /- The main thread is the limit: busy 97%/);
  assert.match(text('saturated generator'), /- The load generator is the limit/);
  assert.match(text('saturated generator'), /confidence low/);
  assert.match(text('lopsided pool'), /Use 3 workers with least-requests/);
  assert.match(text('lopsided pool'), /- Work was lopsided \(requests 1,000–3,000 per worker, 2,333 ± 118 by chance/);
  assert.match(text('even pool'), /round-robin is fine\./);
  const slowWorker = syntheticRun({ poolSize: 3, rps: 700,
    workers: [4, 4, 22].map((f) => ({ elu: 0.6, blocked: 0.5, cpuPct: 30, loopCpuPct: 30, waitPct: 0, requests: 2333, inFlight: f })) });
  assert.match(block(formatSummary(withAdvice(slowWorker))).replace(/\n +/g, ' '),
    /beyond chance; a request spent 94\.3 ms with worker 2, 17\.1 ms with worker 0\): least-requests sends/);
  assert.match(text('too short'), /Cannot tell from this run: it was too short\./);
  const sweepS = Math.round((48 * (3000 + 1000 + TUNE_STEP_OVERHEAD_MS)) / 1000);
  const about = `${Math.floor(sweepS / 60)} min${sweepS % 60 ? ` ${sweepS % 60} s` : ''}`;
  assert.ok(text('too short').endsWith(`Confirm with a sweep (48 steps, about ${about}):\n    spawnbench tune --strategy fork-pool --sizes 1,2,3,4 -c 30`));
  assert.match(text('baseline'), /^ {2}Move to fork-pool with \d+ workers?: about [\d,]+ req\/s, [\d.]+× this run's 450\.$/m);
  // Not "up to … an upper bound": from baseline's run it said "up to ~577–625 req/s", and fork-pool with 2 workers then
  // served 811–898 req/s on the same machine.
  const lines = block(formatSummary(withAdvice(CASES.baseline))).replace(/\n +/g, ' ');
  assert.match(lines, /That figure is an estimate from this run's figures \(the first bound the pool would meet\), not a measurement, and can be off either way: the sweep below measures it\./);
  assert.doesNotMatch(lines, /upper bound|up to ~/);
});

test('a long confirming command is wrapped with backslashes and still pastes as one command', () => {
  const lines = block(formatSummary(withAdvice(CASES['custom workload']))).split('\n');
  const start = lines.findIndex((l) => l.trimStart().startsWith('spawnbench tune'));
  const commandLines = lines.slice(start);
  assert.ok(commandLines.length > 1);
  for (const l of commandLines.slice(0, -1)) assert.ok(l.endsWith(' \\'), l);
  const joined = commandLines.map((l) => l.trim().replace(/ \\$/, '')).join(' ');
  const { confirmWith } = adviseRun(adviceInput(CASES['custom workload']));
  assert.equal(joined, confirmWith.command);
  assert.match(joined, /--workload-cmd '\/opt\/some\/long\/path\/to\/a\/command --with many arguments --that-wrap' -c 1000 --generator-threads 4 --runtime deno --worker-runtime bun$/);
});

test('report: a saved run prints its block; an older file without one gets it computed, or says it cannot', async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-advice-'));
  try {
    const print = async (result) => {
      const file = path.join(dir, 'run.json');
      writeFileSync(file, JSON.stringify(result));
      const { code, out, err } = await cli('report', file);
      assert.equal(code, 0, err);
      return out;
    };
    const saved = withAdvice(CASES['lopsided pool']);
    assert.match(await print(saved), /Use 3 workers with least-requests/);
    const older = { ...CASES['lopsided pool'] };
    delete older.recommendation;
    assert.equal(await print(older), await print(saved), 'computed from the same figures, the same block');
    const bare = { ...older, samples: null };
    assert.match(await print(bare), /Recommendation\n {2}No recommendation: this result has no sampler figures/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
