// One real comparison of two strategies through the CLI: the table with ratios,
// the same table as Markdown from the saved file, nothing left running.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { processesInGroup } from '../helpers/processes.js';
import { cli, waitFor } from '../helpers/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-compare-'));
after(() => rmSync(dir, { recursive: true, force: true }));


test('compare two strategies: the table, ratios to the first, Markdown from the saved file', async () => {
  const out = join(dir, 'compare.json');
  const { code, out: text, err } = await cli(
    'compare', '--strategies', 'baseline,fork-pool', '--duration', '1s', '--warmup', '200ms',
    '--connections', '4', '--repeat', '1', '--pool-size', '2', '--out', out,
  );
  assert.equal(code, 0, err);
  assert.match(text, /^spawnbench compare · closed loop, 4 connections, 1s after 200ms warm-up per run · 1 repeat · pools of 2 workers, round-robin/);
  assert.match(text, /workload echo \(echo hi\)\nstrategy +req\/s \(min–max\) +p99 ms \(min–max\) +errors +vs baseline\n/);
  assert.match(text, /^baseline +[\d,]+ +[\d.,]+ +0 +1\.00×$/m);
  assert.match(text, /^fork-pool +[\d,]+ +[\d.,]+ +0 +\d+\.\d\d×$/m);

  const md = await cli('report', out, '--markdown');
  assert.equal(md.code, 0, md.err);
  assert.match(md.out, /### workload echo \(echo hi\)\n\n\| strategy \| req\/s \| min–max \| p99 \| errors \| vs baseline \|\n\|---\|---:\|---:\|---:\|---:\|---:\|\n\| baseline \| [\d,]+ \| {2}\| [\d.]+ ms \| 0 \| 1\.00× \|\n\| fork-pool \| /);
  const json = JSON.parse((await cli('report', out, '--json')).out);
  assert.deepEqual(json.rows.map((r) => r.strategy), ['baseline', 'fork-pool']);
  assert.ok(json.rows.every((r) => r.rps.median > 0));

  for (const { pid, strategy } of json.runs) {
    assert.ok(pid > 0);
    await waitFor(() => processesInGroup(pid).length === 0, { what: () => `${strategy}'s group ${pid} to empty: left ${processesInGroup(pid)}` });
  }
  assert.equal(trackedGroupCount(), 0);
});

test('compare: unknown strategies and workloads are usage errors naming what exists', async () => {
  const bad = await cli('compare', '--strategies', 'forkpool');
  assert.equal(bad.code, 2);
  assert.match(bad.err, /--strategies 'forkpool' is not one of: baseline, .*fork-pool/);
  assert.match((await cli('compare', '--workloads', 'huge')).err, /--workloads 'huge' is not one of: echo, large/);
});
