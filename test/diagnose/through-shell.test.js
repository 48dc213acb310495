// diagnose of a server started through a shell: the probe reaches the node child and its
// CPU profile is saved before the group is killed. No verdict is read, so this file shares
// the machine with others (fixtures.test.js, whose verdicts read the whole machine's CPU, runs alone).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { processesInGroup } from '../helpers/processes.js';
import { cli, waitFor, fixtureServer as server } from '../helpers/harness.js';

test('a server started through a shell: the probe reaches the node child, and its profile is saved before the group is killed', async () => {
  // An open loop at a low rate: the probe and the profile are checked, not a verdict.
  const { code, out, err } = await cli('diagnose', '--duration', '700ms', '--warmup', '0', '--rate', '20', '--json', '--cpu-prof', '--',
    '/bin/sh', '-c', `"${process.execPath}" "${server('healthy')}"`);
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.ok(result.samples.probe.available, 'probe reports from the node child');
  assert.ok(result.cpuProfile.top, `no profile in ${result.cpuProfile.dir}`);
  assert.equal(result.cpuProfile.files.length, 1, 'one profile: sh is not a Node process');
  const pgid = result.target.pid;
  await waitFor(() => processesInGroup(pgid).length === 0, { what: () => `group ${pgid} to empty: left ${processesInGroup(pgid)}` });
  assert.equal(trackedGroupCount(), 0);
  await rm(result.cpuProfile.dir, { recursive: true, force: true });
});
