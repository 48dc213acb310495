// Two smaller items of issue 25 (defect 10):
// - `--generator-threads 64` on 2 cores was accepted and took ~1 GB: now at most one thread
//   per CPU of the budget (src/machine/cpu-budget.js), beyond it one line and exit 2;
// - Ctrl-C while a `diagnose --cpu-prof` server was still starting left an empty
//   spawnbench-cpu-prof-* folder in the temp dir.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { cli, waitFor } from '../helpers/harness.js';
import { startSpawnbench, waitForLog, processTree, stillAlive } from '../helpers/spawnbench-process.js';
import { parseGeneratorThreads } from '../../src/plan/option-declarations.js';
import { budgetWorkers, ownCpuBudget } from '../../src/machine/cpu-budget.js';

const budget = (cpus, source = 'host') => ({ budget: cpus, source, hostThreads: 8, physicalCores: 8, cpus: [], limits: {}, smt: null, unreadable: null });

test('--generator-threads: at most one per CPU of the budget', () => {
  assert.equal(parseGeneratorThreads('2', budget(2)), 2);
  assert.equal(parseGeneratorThreads('2', budget(1.5, 'quota')), 2, 'a fractional budget rounds up, as the pool does');
  assert.throws(() => parseGeneratorThreads('3', budget(2)), /^UsageError: --generator-threads 3 is more than the CPUs spawnbench may use here \(.*\); give at most 2$/);
  assert.throws(() => parseGeneratorThreads('2', budget(1, 'quota')), /--generator-threads 2 is more than the CPUs .*1\.0 CPU: .*; give at most 1$/);
});

test('--generator-threads 64 is refused before anything starts: one line, exit 2', async () => {
  const most = budgetWorkers(ownCpuBudget());
  const { code, err } = await cli('run', '-s', 'baseline', '-d', '1s', '--generator-threads', String(most + 1));
  assert.equal(code, 2);
  assert.match(err, new RegExp(`^spawnbench: --generator-threads ${most + 1} is more than the CPUs spawnbench may use here \\(.*\\); give at most ${most}\\n$`));
  assert.equal((await cli('run', '-s', 'baseline', '-d', '1s', '--generator-threads', '64')).code, 2);
});

test('Ctrl-C while a --cpu-prof server starts: no empty spawnbench-cpu-prof-* folder is left', async (t) => {
  // `sleep` never listens and writes no profile: the folder stays empty.
  const sb = startSpawnbench(['diagnose', '--cpu-prof', '--ready-timeout', '60s', '-d', '1s', '--no-dashboard', '--', 'sleep', '120']);
  t.after(sb.removeLog);
  await waitForLog(sb, 'server start');
  const dir = JSON.parse(sb.log().split('\n').find((line) => line.includes('"msg":"server start"'))).cpuProfDir;
  assert.match(dir, /spawnbench-cpu-prof-/);
  assert.ok(existsSync(dir), 'the folder is made before the server starts');
  const tree = await waitFor(() => { const p = processTree(sb.child.pid); return p.length ? p : null; }, { timeoutMs: 5000, what: 'the server process' });
  sb.child.kill('SIGINT');
  const { code } = await sb.exited;
  assert.equal(code, 130, sb.err());
  assert.equal(existsSync(dir), false, `${dir} is left`);
  assert.deepEqual(stillAlive(tree), []);
});
