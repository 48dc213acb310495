// A measured phase that no sampler tick reached still has its processes in the summary:
// the sampler takes one reading at stop when none came since reset(). Without it a short
// phase, or one during which spawnbench's own loop was held up on a loaded machine, had
// no process at all, so no `main` (seen in the smoke and launcher tests under load).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { startSampler } from '../../src/sample/index.js';
import { stopGroup } from '../probe/helpers/servers.js';

test('a measured phase no tick reached: one reading at stop, the root sampled as main', async () => {
  const root = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
  try {
    // A tick every minute: none comes between reset() and stop().
    const sampler = startSampler({ rootPid: root.pid, intervalMs: 60_000 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    sampler.reset();
    const summary = await sampler.stop();
    assert.deepEqual(summary.processes.map((p) => [p.role, p.pid]), [['main', root.pid]]);
    assert.equal(summary.processes[0].series.length, 1, 'one reading, taken at stop');
  } finally {
    await stopGroup(root);
  }
});
