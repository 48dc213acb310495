// `spawnbench report <file>` re-renders saved results (run, tune, compare) and
// turns old or foreign files into one clear line, exit 1.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readResultFile, writeResultFile } from '../../src/report/result-file.js';
import { formatTune } from '../../src/report/tune-text.js';
import { formatSummary } from '../../src/report/summary.js';
import { createTune } from '../../src/tune/tune-engine.js';
import { cli } from '../helpers/harness.js';
import { fakeRuns, MACHINE, tuneBase } from './fake-run.js';
import { compareTable } from '../../src/analysis/compare-table.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-report-'));
after(() => rmSync(dir, { recursive: true, force: true }));


const BASE = tuneBase({ connections: 30, durationMs: 3000, warmupMs: 1000 });

async function savedTune(search) {
  const rps = { 1: 600, 2: 1150, 3: 1500, 4: 1560, 6: 1540, 8: 1200 };
  const model = (size, policy) => ({ rps: rps[size] * (policy === 'p2c' ? 1.01 : 1) });
  const plan = { command: 'tune', base: BASE, sizes: [1, 2, 3, 4, 6, 8], policies: ['round-robin', 'p2c'], repeat: 2, search, output: BASE.output };
  const result = await createTune(plan, { createRun: fakeRuns(model).createRun, readMachine: async () => MACHINE }).start();
  const file = join(dir, `tune-${search}.json`);
  writeResultFile(file, result);
  return { file, result };
}

test('a saved tune result prints the same table and recommendation again', async () => {
  const { file, result } = await savedTune('adaptive');
  const { code, out } = await cli('report', file);
  assert.equal(code, 0);
  assert.equal(out, `${formatTune(JSON.parse(JSON.stringify(result)))}\n`);
  assert.match(out, /^spawnbench tune · strategy fork-pool · workload echo · closed loop, 30 connections, 3s after 1s warm-up per step · sizes 1,2,3,4,6,8 × 2 policies × 2 repeats, adaptive/);
  assert.match(out, /^pool +policy +req\/s \(min–max\) +p99 ms \(min–max\) +errors$/m);
  assert.match(out, /^ +3 +p2c +1,515 \(1,515–1,515\) .* ← recommended$/m);
  assert.match(out, /^USL fit \(round-robin\): σ [\d.]+ contention, κ [\d.]+ coherency, peak ≈ [\d.]+ workers, R² [\d.]+$/m);
  assert.match(out, /^Search: adaptive, \d+ steps measured instead of 24 \(\d+ saved, \d+%\)$/m);
  assert.match(out, /Recommendation\n {2}Use 3 workers with p2c: 1,515 req\/s/);
});

test('a saved run and a saved compare result print again', async () => {
  const run = {
    tool: 'spawnbench', format: 1, kind: 'run', machine: MACHINE, notes: [], failures: [],
    plan: { target: { kind: 'url', url: 'http://127.0.0.1:1/' }, workload: { name: 'echo', command: 'echo', args: ['hi'] }, load: { connections: 4, durationMs: 1000, warmupMs: 200, threads: 1 } },
    load: { mode: 'closed', requests: 700, durationMs: 1000, rps: 700, bytes: 2100, latency: { minMs: 1, meanMs: 5, p50Ms: 4, p90Ms: 8, p99Ms: 12, p999Ms: 15, maxMs: 20 }, errors: { total: 0 }, statuses: { 200: 700 } },
    samples: null,
  };
  const runFile = join(dir, 'run.json');
  writeResultFile(runFile, run);
  const printed = await cli('report', runFile);
  assert.equal(printed.code, 0, printed.err);
  assert.equal(printed.out, `${formatSummary(run)}\n`);

  const compare = {
    tool: 'spawnbench', format: 1, kind: 'compare', machine: MACHINE, notes: [],
    plan: { strategies: ['baseline', 'fork-pool'], workloads: ['echo'], repeat: 1, load: { connections: 30, durationMs: 5000, warmupMs: 1000, threads: 1 }, workloadInfo: { echo: { command: 'echo', args: ['hi'] } } },
    runs: [
      { workload: 'echo', strategy: 'baseline', repeat: 1, rps: 651, p99Ms: 45, errors: 0, failures: [] },
      { workload: 'echo', strategy: 'fork-pool', repeat: 1, rps: 2209, p99Ms: 14, errors: 0, failures: [] },
    ],
  };
  compare.rows = compareTable(compare.runs, compare.plan);
  const compareFile = join(dir, 'compare.json');
  writeResultFile(compareFile, compare);
  const text = await cli('report', compareFile);
  assert.match(text.out, /^fork-pool +2,209 +14\.0 +0 +3\.39×$/m);
  assert.match((await cli('report', compareFile, '--markdown')).out, /\| fork-pool \| 2,209 \| {2}\| 14\.0 ms \| 0 \| 3\.39× \|/);
});

test('old, foreign, unreadable and unprintable files: one clear line, exit 2 (bad input, as with --against)', async () => {
  const write = (name, text) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  const cases = [
    [write('old.json', JSON.stringify({ tool: 'spawnbench', format: 0, kind: 'tune' })), /has result format 0, this spawnbench reads format 1; run the measurement again/],
    // A hand-edited "format": "1" read "has result format 1, this spawnbench reads format 1".
    [write('quoted.json', JSON.stringify({ tool: 'spawnbench', format: '1', kind: 'run' })), /has result format "1", this spawnbench reads format 1/],
    [write('foreign.json', JSON.stringify({ requests: 10 })), /was not written by spawnbench; give a file written by --out/],
    [write('text.json', 'rps: 10\n'), /is not JSON; give a file written by spawnbench --out/],
    [join(dir, 'missing.json'), /cannot read .*missing\.json \(ENOENT\)/],
    [write('future.json', JSON.stringify({ tool: 'spawnbench', format: 1, kind: 'forecast' })), /holds an unknown kind of result 'forecast'/],
  ];
  for (const [file, message] of cases) {
    const { code, err, out } = await cli('report', file);
    assert.equal(code, 2, file);
    assert.match(err, message);
    assert.doesNotMatch(err, /\n\s+at /, 'no stack');
    assert.equal(out, '');
  }
  assert.equal((await cli('report')).code, 2, 'the file is required');
});

test('a result file saved with a byte-order mark (an editor on Windows, PowerShell 5) is read, not "not JSON"', () => {
  const text = readFileSync(new URL('../gates/fixtures/run.json', import.meta.url), 'utf8');
  const utf8 = join(dir, 'bom-utf8.json');
  writeFileSync(utf8, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(text, 'utf8')]));
  const utf16 = join(dir, 'bom-utf16.json');
  writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]));
  for (const file of [utf8, utf16]) assert.equal(readResultFile(file).kind, 'run', file);
});
