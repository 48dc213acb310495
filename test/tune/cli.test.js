// One real sweep through the CLI: `tune --sizes 1,2 --duration 1s` on fork-pool
// gives a recommendation, writes --out, and `report` prints it again. Nothing is
// left running afterwards.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { processesInGroup } from '../helpers/processes.js';
import { cli, waitFor } from '../helpers/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-tune-'));
after(() => rmSync(dir, { recursive: true, force: true }));


test('tune --sizes 1,2 --duration 1s: a recommendation with its evidence, saved and re-printed', async () => {
  const out = join(dir, 'tune.json');
  const { code, out: text, err } = await cli(
    'tune', '--strategy', 'fork-pool', '--sizes', '1,2', '--duration', '1s', '--warmup', '200ms',
    '--connections', '4', '--repeat', '1', '--balance-policies', 'round-robin', '--out', out,
  );
  assert.equal(code, 0, err);
  assert.match(err, /tune pool 1 round-robin: [\d,]+ rps/, 'a progress line per step');
  assert.match(err, /tune pool 2 round-robin: [\d,]+ rps/);
  assert.match(text, /^spawnbench tune · strategy fork-pool · workload echo · closed loop, 4 connections, 1s \(up to 1m for enough responses\) after 200ms warm-up per step · sizes 1,2 × round-robin × 1 repeat, exhaustive/);
  assert.match(text, /^ +1 +round-robin +[\d,]+ +[\d.,]+ +0/m);
  assert.match(text, /^ +2 +round-robin +[\d,]+ +[\d.,]+ +0/m);
  assert.match(text, /Recommendation\n {2}Use [12] workers? with round-robin: [\d,]+ req\/s, p99 [\d.]+ ms, no errors\./);
  assert.match(text, /At the best size \([12] workers?\)/);

  const again = await cli('report', out);
  assert.equal(again.code, 0, again.err);
  assert.equal(again.out, text, 'report prints the same text from the file');
  const json = JSON.parse((await cli('report', out, '--json')).out);
  assert.equal(json.kind, 'tune');
  assert.equal(json.steps.length, 2);
  assert.ok([1, 2].includes(json.recommendation.size));

  for (const { pid } of json.steps) {
    assert.ok(pid > 0);
    await waitFor(() => processesInGroup(pid).length === 0, { what: () => `group ${pid} to empty: left ${processesInGroup(pid)}` });
  }
  assert.equal(trackedGroupCount(), 0);
});

test('tune refuses a strategy without a pool and bad sweep options, exit 2', async () => {
  const baseline = await cli('tune', '--strategy', 'baseline');
  assert.equal(baseline.code, 2);
  assert.match(baseline.err, /tune sweeps pool sizes, and 'baseline' has no pool; use --strategy with one of: .*fork-pool/);
  assert.match((await cli('tune', '--sizes', '1,two')).err, /--sizes 'two' is not a whole number/);
  assert.match((await cli('tune', '--balance-policies', 'fastest')).err, /--balance-policies 'fastest' is not one of: random, round-robin, least-requests, p2c/);
  assert.match((await cli('tune', '--search', 'smart')).err, /--search 'smart' is not one of: exhaustive, adaptive/);
  assert.match((await cli('tune', '--repeat', '0')).err, /--repeat must be at least 1/);
});
