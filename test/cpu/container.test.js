// End to end inside a real cgroup with a 1-CPU quota (cgroup v1 cpu.cfs_quota_us, or
// v2 cpu.max): the default pool, the header and the recommendation follow the quota,
// not the host's CPUs. Runs wherever this process is root on Linux with a cgroup
// filesystem, and always in CI (CI set), where a missing cgroup fails it; skips elsewhere, saying why.
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

const { quota, why, mustRun } = quotaForTest(1);
const work = mkdtempSync(path.join(tmpdir(), 'cpu-container-'));
after(() => {
  rmSync(work, { recursive: true, force: true });
  if (!quota.skip) assert.ok(quota.remove(), `the test cgroup ${quota.dir} is removed`);
});

test('inside a 1-CPU quota: default pool 1, the header names the quota, the recommendation sizes for it', { skip: !mustRun && why ? why : false }, async () => {
  assert.equal(why, null, `root on Linux with a cgroup filesystem must be able to make a quota cgroup: ${why}`);
  const out = path.join(work, 'run.json');
  const marker = `cpu-container-${process.pid}`;
  const argv = quota.wrap([process.execPath, BIN, 'run', '--strategy', 'fork-pool', '-d', '2500ms', '-w', '0s', '--no-dashboard', '--out', out, '--log-file', path.join(work, marker)]);
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
  assert.equal(result.machine.cpu.budget, 1);
  assert.equal(result.machine.cpu.limits.quota.cgroup.endsWith(path.basename(quota.dir)), true, result.machine.cpu.limits.quota.cgroup);
  assert.equal(result.plan.target.poolSize, 1, 'the default pool is one worker per CPU of the quota');
  assert.match(stdout, /× 1\.0 CPU: cgroup quota, on an? \d+-core(, \d+-thread)? host/, 'the header names the quota and the host');

  // The quota was sampled for the server and for spawnbench, which share it here.
  const [group] = result.samples.throttling;
  assert.deepEqual(group.roles.sort(), ['server', 'spawnbench']);
  assert.equal(group.quotaCpus, 1);
  assert.ok(group.periods > 0, 'cpu.stat counted the quota\'s periods');

  // The recommendation names the quota: as the limit when it throttled, as the budget it sized for otherwise.
  const ids = result.recommendation.reasons.map((r) => r.id);
  assert.ok(ids.includes('quota-limit') || ids.includes('cpu-budget'), ids.join(', '));
  const block = stdout.slice(stdout.indexOf('Recommendation'));
  assert.match(block, /CPU quota \(1\.0 CPU\) is the limit|Sized for 1\.0 CPU \(cgroup quota\)/);
  assert.ok(result.recommendation.size === null || result.recommendation.size <= 2, `sized for one CPU: ${result.recommendation.size}`);

  // Nothing it started is left, in the cgroup or anywhere.
  assert.deepEqual(readFileSync(path.join(quota.dir, 'cgroup.procs'), 'utf8').trim(), '');
  assert.deepEqual(processesMatching(marker), []);
});
