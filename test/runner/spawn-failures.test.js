// Failed spawns (issue #25, defect 3): the requests whose command could not be started are
// counted by errno and said with the limit they hit ("spawn echo: EAGAIN ×1,395: the process
// limit (ulimit -u 50) was reached"). End to end: one fork-pool worker's open-files limit is
// lowered mid-run with prlimit (util-linux; the test says so and skips where it is missing),
// so its spawns fail with EMFILE while the other worker's succeed.
// Failed spawns a server swallows (issue #36): the probe counts them in the server, merged with
// the error bodies; a run whose requests "succeeded" without their command is not sized, and
// diagnose names them. End to end: a server that answers 200 when its command is not found.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { run } from '../../src/index.js';
import { formatSummary } from '../../src/report/summary.js';
import { spawnFailures, swallowedSpawns } from '../../src/analysis/spawn-failures.js';
import { formatSpawnFailures } from '../../src/report/spawn-failures-text.js';
import { requestOutcome } from '../../src/analysis/request-outcome.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { syntheticRun, evenWorkers } from '../analysis/synthetic-runs.js';
import { findOnPath, waitFor, spawnCli, fixtureServer } from '../helpers/harness.js';
import { assertNothingLeft } from '../own-server/helpers.js';
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

test('failed spawns the probe saw are merged with the error bodies: the larger per command and errno, never the sum; those no error accounts for are swallowed', () => {
  const bodies = [{ status: 500, kind: 'non2xx', count: 40, texts: [{ text: 'spawn echo EMFILE', count: 40 }], other: 0 }];
  // Passed on as 500s, and seen by the probe too: the same 40, and 2 more the server answered 200 for.
  const both = spawnFailures(bodies, { processes: null, openFiles: 64 }, { seen: [{ command: 'echo', code: 'EMFILE', count: 42 }], errors: 40 });
  assert.deepEqual(both.failures.map((f) => [f.command, f.code, f.count, f.answered, f.seen, f.limit, f.limitValue]), [['echo', 'EMFILE', 42, 40, 42, 'openFiles', 64]]);
  assert.deepEqual([both.total, both.swallowed], [42, 2]);
  // The body only (a probe that saw fewer, or none): the body's count, nothing swallowed.
  const bodyOnly = spawnFailures(bodies, null, { seen: [{ command: 'echo', code: 'EMFILE', count: 30 }], errors: 40 });
  assert.deepEqual([bodyOnly.total, bodyOnly.swallowed, bodyOnly.failures[0].count], [40, 0, 40]);
  // Swallowed whole (issue #36): no error response at all.
  const swallowed = spawnFailures([], { processes: 50, openFiles: 64 }, { seen: [{ command: 'echo', code: 'EMFILE', count: 4592 }, { command: 'convert', code: 'ENOENT', count: 8 }], errors: 0 });
  assert.deepEqual(swallowed.failures.map((f) => [f.command, f.code, f.count, f.answered]), [['echo', 'EMFILE', 4592, 0], ['convert', 'ENOENT', 8, 0]]);
  assert.deepEqual([swallowed.total, swallowed.swallowed], [4600, 4600]);
  // A server that answers its own 500 ('internal error') when the spawn fails: those errors may be the spawns, not swallowed.
  const generic = spawnFailures([{ status: 500, texts: [{ text: 'internal error', count: 30 }] }], null, { seen: [{ command: 'echo', code: 'EAGAIN', count: 30 }], errors: 30 });
  assert.deepEqual([generic.total, generic.swallowed, generic.failures[0].limit], [30, 0, 'processes']);
  assert.equal(spawnFailures([], null, { seen: [], errors: 0 }), null);

  // A share of the requests from which the run is read as swallowed.
  assert.deepEqual(swallowedSpawns(swallowed, 4580, 0.01), { swallowed: 4600, attempts: 4580, share: 1 });
  assert.equal(swallowedSpawns(both, 10_000, 0.01), null, '2 in 10,000: below the share');
  assert.equal(swallowedSpawns(generic, 30, 0.01), null);

  // The summary's Spawns lines say it plainly.
  assert.deepEqual(formatSpawnFailures(swallowed, { attempts: 4580, rps: 2274 }), [
    'Spawns     spawn echo: EMFILE ×4,592: the open-files limit of the process that spawns (ulimit -n 64) was reached',
    '           spawn convert: ENOENT ×8: the command was not found (PATH, or the path given)',
    '           none of them came back as an error: the server answered those requests as though the command had run,',
    '           so they "succeeded" without their commands running, and 2,274 req/s is not the server\'s real throughput',
  ]);
  assert.match(formatSpawnFailures(both, { attempts: 10_000, rps: 900 }).join('\n'), /2 of them came back without an error: the server answered those requests .*\n.*"succeeded" without their commands running$/);
});

test('a run whose spawns failed while its requests succeeded is not sized, and says the limit to raise', () => {
  const result = syntheticRun({ workers: evenWorkers(3), errors: 0 });
  result.outcome = requestOutcome(result.load);
  const attempts = result.outcome.attempts;
  result.spawnFailures = spawnFailures([], { processes: null, openFiles: 64 }, { seen: [{ command: 'echo', code: 'EMFILE', count: attempts }], errors: 0 });
  result.recommendation = adviseRun(adviceInput(result));
  assert.equal(result.recommendation.size, null, 'no size from answers without the work');
  assert.deepEqual(result.recommendation.reasons.map((r) => r.id), ['spawns-swallowed']);
  const text = formatSummary(result);
  assert.match(text, /Recommendation\n {2}No recommendation: the server's commands failed to start, yet their requests\n {2}succeeded\./);
  assert.match(text.replace(/\n {4}/g, ' '), /- [\d,]+ spawns failed \(spawn echo: EMFILE, ulimit -n 64\) while every request came back without an error: those requests "succeeded" without their commands running, so 700 req\/s is not the server's real throughput, and no size is given from it\. Raise the open-files limit of the process that spawns \(ulimit -n\)/);
  assert.doesNotMatch(text, /One process is enough|Move to/);

  // A few in many: sized as before.
  const few = syntheticRun({ workers: evenWorkers(3), errors: 0 });
  few.outcome = requestOutcome(few.load);
  few.spawnFailures = spawnFailures([], null, { seen: [{ command: 'echo', code: 'EMFILE', count: 3 }], errors: 0 });
  assert.ok(!adviseRun(adviceInput(few)).reasons.some((r) => r.id === 'spawns-swallowed'));
});

test('run on a server that answers 200 when its command is not found: spawnFailures in --json, no recommendation', async () => {
  const server = fixtureServer('swallows-spawn-errors');
  const { code, out, err } = await spawnCli(['run', '-d', '1s', '-w', '300ms', '-c', '4', '--rate', '20', '--json', '--', process.execPath, server], { env: { ...process.env, CI: 'true' } });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  await assertNothingLeft({ pids: [result.target.pid], marker: server });
  assert.equal(result.load.errors.total, 0, 'every response a 200');
  const [failure] = result.spawnFailures.failures;
  assert.deepEqual([failure.command, failure.code, failure.answered, failure.limit], ['no-such-command-spawnbench', 'ENOENT', 0, null]);
  assert.ok(failure.count >= result.load.requests * 0.5 && failure.seen === failure.count, `the probe saw them: ${JSON.stringify(result.spawnFailures)} for ${result.load.requests} requests`);
  assert.equal(result.spawnFailures.swallowed, failure.count);
  assert.deepEqual([result.recommendation.size, result.recommendation.confirmWith], [null, null]);
  // First, and the only reason about the server (a busy machine adds its other processes' share after it).
  assert.deepEqual(result.recommendation.reasons.map((r) => r.id).filter((id) => id !== 'other-users'), ['spawns-swallowed']);
  assert.match(formatSummary(result), /^ {11}none of them came back as an error: /m);
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
