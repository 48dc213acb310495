// Shares the machine with other test files: diagnose --url without --pid reads only the latency
// shape of a server that already runs, so other programs' CPU changes nothing it asserts (a slow
// server, its cause not visible, "pass --pid"). With --pid the main thread's wait for a CPU is read,
// and on a crowded machine the idle server's many short wake-ups waited for a core 53% of the time
// ("the machine is short of CPU", a fair verdict there): those cases run alone, in url.test.js and
// fixtures.test.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { processesMatching } from '../helpers/processes.js';
import { cli, startFixtureServer } from '../helpers/harness.js';

let server = null;
before(async () => {
  server = await startFixtureServer('slow-downstream');
});

after(async () => {
  await server.stop();
  assert.equal(processesMatching(server.file).length, 0);
});

test('--url without --pid: slow responses, cause not visible, and "pass --pid" as the next step', async () => {
  const { code, out, err } = await cli('diagnose', '--url', server.url, '--duration', '1500ms', '--warmup', '300ms', '--json');
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.equal(result.diagnosis.verdict.id, 'slow-unexplained', JSON.stringify(result.diagnosis));
  assert.match(result.diagnosis.notSeen.join('\n'), /pass its process id with --pid/);
  // --json carries the metric table's figures: those from the load, and none that need the probe.
  const metrics = Object.fromEntries(result.metrics.map((m) => [m.id, m]));
  assert.equal(metrics.rps.value, result.load.rps);
  assert.equal(metrics.p99.value, result.load.latency.p99Ms);
  assert.deepEqual(metrics['blocked-in-spawn'], { id: 'blocked-in-spawn', value: null, unit: 'fraction', better: 'lower', format: 'percent', process: null });
  assert.equal(metrics.elu.value, null);
});
