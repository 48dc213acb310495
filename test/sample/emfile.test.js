// spawnbench short of file descriptors (`ulimit -n 1024` and an open loop at 2,000 req/s, whose
// pool is 1,000 connections: more `--connections` than the limit allows are refused up front):
// its /proc reads fail with EMFILE, and a figure read through a failed read is
// left out and the failure said, never shown as a figure (other processes at 8
// of 2 CPUs, every core 0%, a process at 400% of a 2-core host).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { availableParallelism } from 'node:os';
import { BIN, ROOT } from '../helpers/harness.js';
import { processesInGroup } from '../helpers/processes.js';

test('run -r 2000 under ulimit -n 1024 (an open loop\'s pool of 1,000 connections): no impossible CPU figure, and the EMFILE said', { skip: process.platform !== 'linux' ? 'reads /proc' : false }, async () => {
  const child = spawn('/bin/sh', ['-c', `ulimit -n 1024 && exec "${process.execPath}" "${BIN}" run --strategy baseline -d 1s -w 500ms -r 2000 --json`], { cwd: ROOT, env: { ...process.env, CI: 'true' }, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (c) => { stdout += c; });
  child.stderr.setEncoding('utf8').on('data', (c) => { stderr += c; });
  const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 120_000);
  await once(child, 'exit');
  clearTimeout(timer);
  const result = JSON.parse(stdout);
  assert.ok(JSON.stringify(result.load.errorTexts).includes('EMFILE'), `the run ran out of descriptors: ${stderr.slice(-500)}`);
  const cpus = availableParallelism();
  const others = result.samples.otherUsers;
  assert.ok(others.cores === null || others.cores <= cpus + 0.05, `other processes at ${others.cores} of ${cpus} CPUs`);
  for (const u of others.users) assert.ok(u.cores <= cpus + 0.05, `${u.name} at ${u.cores} of ${cpus} CPUs`);
  for (const p of result.samples.processes) {
    assert.ok(!(p.summary.cpuPct > cpus * 100 + 5), `${p.label} at ${p.summary.cpuPct}% of ${cpus} CPUs`);
  }
  assert.ok(result.samples.system.cpus.every((c) => c === null || (c >= 0 && c <= 100)));
  assert.ok(result.samples.notes.some((n) => /ran out of file descriptors \(EMFILE\) reading \/proc/.test(n)), result.samples.notes.join('\n'));
  assert.deepEqual(processesInGroup(child.pid), [], 'nothing of the run is left');
});
