// Failed spawns (issue #25, defect 3): the requests whose command could not be started are
// counted by errno and said with the limit they hit ("spawn echo: EAGAIN ×1,395: the process
// limit (ulimit -u 50) was reached"). End to end: one fork-pool worker's open-files limit is
// lowered mid-run with prlimit (util-linux; the test says so and skips where it is missing),
// so its spawns fail with EMFILE while the other worker's succeed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { run } from '../../src/index.js';
import { formatSummary } from '../../src/report/summary.js';
import { spawnFailures } from '../../src/analysis/spawn-failures.js';
import { formatSpawnFailures } from '../../src/report/spawn-failures-text.js';
import { findOnPath, waitFor } from '../helpers/harness.js';
import { processesInGroup } from '../helpers/processes.js';
import { onPoolWorker } from '../helpers/pool-worker.js';

test('failed spawns by errno, each with the limit it points at', () => {
  const errorTexts = [
    { status: 500, kind: 'non2xx', count: 1420, texts: [{ text: 'spawn echo EAGAIN', count: 1395 }, { text: 'spawn echo EMFILE', count: 20 }, { text: 'out of luck', count: 5 }], other: 0 },
    { status: 502, kind: 'non2xx', count: 3, texts: [{ text: 'worker 0 (pid 4) was killed by SIGKILL', count: 3 }], other: 0 },
  ];
  const found = spawnFailures(errorTexts, { processes: 50, openFiles: 1024 });
  assert.equal(found.total, 1415);
  assert.deepEqual(found.failures.map((f) => [f.command, f.code, f.count, f.limit, f.limitValue]), [
    ['echo', 'EAGAIN', 1395, 'processes', 50],
    ['echo', 'EMFILE', 20, 'openFiles', 1024],
  ]);
  assert.deepEqual(formatSpawnFailures(found), [
    'Spawns     spawn echo: EAGAIN ×1,395: the process limit (ulimit -u 50) was reached',
    '           spawn echo: EMFILE ×20: the open-files limit of the process that spawns (ulimit -n 1,024) was reached',
  ]);
  assert.equal(spawnFailures([{ status: 500, texts: [{ text: 'database is down', count: 9 }] }]), null, 'not a failed spawn');
  assert.match(formatSpawnFailures(spawnFailures(errorTexts, null))[0], /the process limit \(ulimit -u, or the system's pid and thread limits\) was reached$/);
});

test('fork-pool with one worker\'s open files capped mid-run (prlimit): EMFILE counted and said with the limit; --json has it', async (t) => {
  const prlimit = findOnPath('prlimit');
  if (!prlimit) return t.skip('prlimit (util-linux) is not installed');
  let capped = null;
  let watch = null;
  const cap = onPoolWorker({
    id: 1,
    afterMs: 300,
    act: (worker) => {
      // At its lowest free descriptor number: every spawn needs new pipes, and gets EMFILE
      // (the descriptors it holds stay open; a limit only stops new ones). A spawn in flight
      // when the list is read holds pipes that close soon after and would leave a free number
      // under the limit, so for the next 300 ms any such number lowers the limit to it.
      const lowestFree = () => {
        const held = new Set(readdirSync(`/proc/${worker.pid}/fd`).map(Number));
        let open = 0;
        while (held.has(open)) open += 1;
        return open;
      };
      const lower = (open) => {
        execFileSync(prlimit, ['--pid', String(worker.pid), `--nofile=${open}:${open}`]);
        capped = { pid: worker.pid, open };
      };
      lower(lowestFree());
      const until = Date.now() + 300;
      watch = setInterval(() => {
        let open;
        try {
          if (Date.now() > until) return clearInterval(watch);
          open = lowestFree();
        } catch {
          return clearInterval(watch); // the worker is gone
        }
        if (open < capped.open) lower(open);
      }, 5);
    },
  });
  let result;
  try {
    // An open loop at a low rate: the capped worker's spawns fail whatever the load (~35 in the 1.2 s of the measured 1.5 s after the cap).
    result = await run({ strategy: 'fork-pool', poolSize: 2, duration: '1500ms', warmup: '500ms', connections: 4, rate: 60 }, { onEvent: cap.onEvent });
  } finally {
    cap.stop();
    clearInterval(watch);
  }
  await waitFor(() => processesInGroup(result.strategy.pid).length === 0, { what: `strategy group ${result.strategy.pid} to empty` });
  assert.ok(capped, 'worker 1 was capped while measuring');
  const text = formatSummary(result);
  t.diagnostic(text.split('\n').filter((l) => /Requests|WARNING|Errors|Spawns|spawn /.test(l)).join('\n'));

  const emfile = result.spawnFailures?.failures.find((f) => f.code === 'EMFILE');
  assert.ok(emfile, `EMFILE counted: ${JSON.stringify(result.spawnFailures)}`);
  assert.equal(emfile.command, 'echo');
  assert.equal(emfile.limit, 'openFiles');
  assert.equal(emfile.limitValue, capped.open, 'the lowered limit, read from the worker before it stopped');
  assert.equal(result.load.statuses['500'] >= emfile.count, true);
  assert.match(text, new RegExp(`^(Spawns {5}| {11})spawn echo: EMFILE ×[\\d,]+: the open-files limit of the process that spawns \\(ulimit -n ${capped.open}\\) was reached$`, 'm'));
  assert.ok(result.outcome.failed >= emfile.count, 'the failed spawns are failed requests');
});
