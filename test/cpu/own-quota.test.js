// End to end inside a real cgroup with a 0.3-CPU quota: `run -- <command>` on a
// single process (its load generator shares the quota) names the quota as the limit, not "the load offered".
// Runs wherever this process is root on Linux with a cgroup filesystem, and always
// in CI (CI set), where a missing cgroup fails it; skips elsewhere, saying why.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { BIN, ROOT } from '../helpers/harness.js';
import { quotaForTest } from '../helpers/cpu-cgroup.js';
import { processesMatching } from '../helpers/processes.js';

const { quota, why, mustRun } = quotaForTest(0.3);
const work = mkdtempSync(path.join(tmpdir(), 'cpu-own-quota-'));
after(() => {
  rmSync(work, { recursive: true, force: true });
  if (!quota.skip) assert.ok(quota.remove(), `the test cgroup ${quota.dir} is removed`);
});

test("a single process inside a throttled 0.3-CPU quota: the advice names the quota as the limit", { skip: !mustRun && why ? why : false }, async () => {
  assert.equal(why, null, `root on Linux with a cgroup filesystem must be able to make a quota cgroup: ${why}`);
  const out = path.join(work, 'run.json');
  const marker = `cpu-own-quota-${process.pid}`;
  const server = path.join(ROOT, 'fixtures/servers/healthy.js');
  const argv = quota.wrap([process.execPath, BIN, 'run', '-d', '3s', '-w', '1s', '--no-dashboard', '--out', out, '--log-file', path.join(work, marker), '--', process.execPath, server]);
  const child = spawn(argv[0], argv.slice(1), { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c) => { stdout += c; });
  child.stderr.setEncoding('utf8').on('data', (c) => { stderr += c; });
  const timer = setTimeout(() => child.kill('SIGKILL'), 120_000);
  const [code] = await once(child, 'exit');
  clearTimeout(timer);
  assert.equal(code, 0, `spawnbench run exited ${code}: ${stderr}`);

  const result = JSON.parse(readFileSync(out, 'utf8'));
  assert.equal(result.machine.cpu.source, 'quota');
  const [group] = result.samples.throttling;
  assert.ok(group.fraction >= 0.25, `a CPU-bound server and its load generator in 0.3 CPU are throttled: ${group.fraction}`);
  const enough = result.recommendation.reasons.find((r) => r.id === 'one-process-enough');
  assert.equal(enough?.figures.limit, 'quota', JSON.stringify(result.recommendation.reasons.map((r) => r.id)));
  const block = stdout.slice(stdout.indexOf('Recommendation'));
  assert.match(block, /One process is enough: the limit is its CPU quota \(0\.3 CPU\)\./);
  assert.doesNotMatch(block, /load offered|nothing it runs on was saturated/);

  assert.deepEqual(readFileSync(path.join(quota.dir, 'cgroup.procs'), 'utf8').trim(), '');
  assert.deepEqual(processesMatching(marker), []);
  assert.deepEqual(processesMatching(server), []);
});
