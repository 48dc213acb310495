// compare on the user's own servers: --command name=<command line>, alone and
// beside a built-in strategy; a row per command, ratios to the first, nothing left.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli, fixture, QUICK, assertNothingLeft } from './helpers.js';

/** A table of rows is checked, not the servers' figures: an open loop at a low rate. */
const LIGHT = [...QUICK, '--rate', '20'];
const dir = mkdtempSync(join(tmpdir(), 'spawnbench-own-compare-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('compare --command a=… --command b=… --markdown: a row per command, the second as a ratio of the first', async () => {
  const out = join(dir, 'commands.json');
  const { code, out: md, err } = await cli(
    'compare', '--command', `a=${process.execPath} ${fixture('cluster-env')}`, '--command', `b="${process.execPath}" '${fixture('workers-flag')}' --workers 2`,
    '--repeat', '1', '--markdown', '--out', out, ...LIGHT,
  );
  assert.equal(code, 0, err);
  assert.match(md, /### workload server \(each runs its own code per request\)\n\n\| server \| req\/s \| min–max \| p99 \| errors \| vs a \|\n\|---\|---:\|---:\|---:\|---:\|---:\|\n\| a \| [\d,]+ \| {2}\| [\d.,]+ ms \| 0 \| 1\.00× \|\n\| b \| [\d,]+ \| {2}\| [\d.,]+ ms \| 0 \| \d+\.\d\d× \|/);
  assert.match(md, /- Your servers \(started as diagnose starts them; bodies not checked\): a = .*cluster-env\.js; b = .*workers-flag\.js --workers 2/);
  const result = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(result.plan.commands.b, [process.execPath, fixture('workers-flag'), '--workers', '2'], 'split into argv without a shell, quotes removed');
  assert.deepEqual(result.rows.map((r) => r.strategy), ['a', 'b']);
  await assertNothingLeft({ pids: result.runs.map((r) => r.pid), marker: fixture('workers-flag') });
  await assertNothingLeft({ marker: fixture('cluster-env') });
});

test('compare --strategies baseline --command mine=…: the strategy first, then the command, on one table', async () => {
  const { code, out, err } = await cli(
    'compare', '--strategies', 'baseline', '--command', `mine=${process.execPath} ${fixture('threadpool')}`, '--repeat', '1', '--json', ...LIGHT,
  );
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.deepEqual(result.rows.map((r) => [r.workload, r.strategy]), [['echo', 'baseline'], ['echo', 'mine']]);
  assert.ok(result.rows.every((r) => r.rps.median > 0 && r.errors === 0), JSON.stringify(result.rows));
  assert.equal(result.rows[0].ratio, 1);
  await assertNothingLeft({ pids: result.runs.map((r) => r.pid), marker: fixture('threadpool') });
});
