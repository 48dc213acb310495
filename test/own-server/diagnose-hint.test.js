// diagnose of a real server blocked in spawn that takes its size from a flag:
// the "next" line is the exact tune command for it, with {size} in the flag's place.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, fixture, QUICK, assertNothingLeft } from './helpers.js';

test('diagnose -- node <fixture> --workers 2: next: spawnbench tune -- node <fixture> --workers {size}', async () => {
  const { code, out, err } = await cli('diagnose', ...QUICK, '--', process.execPath, fixture('workers-flag'), '--workers', '2');
  assert.equal(code, 0, err);
  assert.match(out, /blocked inside spawn/);
  const hint = `next: find the size that serves best from its --workers (now 2): spawnbench tune -- ${process.execPath} ${fixture('workers-flag')} --workers {size}`;
  assert.ok(out.includes(hint), out);
  await assertNothingLeft({ marker: fixture('workers-flag') });
});
