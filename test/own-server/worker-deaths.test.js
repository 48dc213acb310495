// A user's server whose workers die and are replaced (node:cluster forking a new worker
// for each that threw: fixtures/servers/cluster-throws.js): the deaths are found in its
// process tree as a strategy's pool worker deaths are found in its control lines, a
// replacement takes its slot (so it is no extra worker), and the balance is not read from
// a worker and its late replacement ("lopsided (2.00×)").
import { test } from 'node:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import assert from 'node:assert/strict';
import { spawnCli, fixtureServer } from '../helpers/harness.js';
import { assertNothingLeft } from './helpers.js';
import { treeWorkerDeaths } from '../../src/analysis/worker-deaths.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';

/** A sampler process entry seen at the sample times from..to (every 250 ms from t=0). */
const entry = (pid, role, from, to) => ({ pid, threadId: null, role, series: Array.from({ length: (to - from) / 250 + 1 }, (_, i) => ({ t: from + i * 250 })) });

test('deaths from the tree: a worker gone before the end, the process after it takes its slot; a short-lived extra child is neither', () => {
  const processes = [
    entry(10, 'main', 0, 4000),
    entry(11, 'worker', 0, 1000), // slot 1 dies at 1 s…
    entry(12, 'worker', 0, 4000), // slot 2 lives the whole run
    entry(30, 'worker', 500, 500), // a child while no slot was free: not a worker death nor a replacement
    entry(13, 'worker', 1250, 2500), // …replaced by 13, which dies at 2.5 s…
    entry(14, 'worker', 2750, 4000), // …replaced by 14
  ];
  const deaths = treeWorkerDeaths(processes, -100);
  assert.deepEqual(deaths.map((d) => [d.id, d.pid, d.replacedBy, d.atMs]), [[1, 11, 13, 1100], [1, 13, 14, 2600]]);
  assert.deepEqual(treeWorkerDeaths([entry(10, 'main', 0, 2000), entry(11, 'worker', 0, 2000), entry(12, 'worker', 0, 2000)], 0), []);
  assert.deepEqual(treeWorkerDeaths([], 0), []);
});

test('run on a node:cluster server whose first worker throws every 1.5 s: its deaths are listed, no lopsided balance', async () => {
  const server = fixtureServer('cluster-throws');
  const env = { ...process.env, CI: 'true', THROW_EVERY_MS: '1500' };
  // An open loop: the deaths and the reasons they give are read, not what the workers can serve.
  const { code, out, err } = await spawnCli(['run', '-d', '5s', '-w', '500ms', '-c', '8', '--rate', '100', '--json', '--', process.execPath, server], { env });
  const failedWith = () => { try { const r = JSON.parse(out); return JSON.stringify({ failures: r.failures, unanswered: r.load?.unanswered, serverExit: r.serverExit }); } catch { return out.slice(-2000); } };
  assert.equal(code, 0, `${err}\n${failedWith()}`);
  const result = JSON.parse(out);
  const deaths = result.workerDeaths;
  assert.ok(deaths.length >= 1, `the thrown workers are deaths: ${JSON.stringify(deaths)}; processes ${JSON.stringify(result.samples.processes.map((p) => [p.pid, p.role, p.series.length]))}`);
  const workers = result.samples.processes.filter((p) => p.role === 'worker').map((p) => p.pid);
  for (const d of deaths) assert.ok(workers.includes(d.pid), `a death is a worker that was sampled: ${d.pid}`);
  const ids = result.recommendation.reasons.map((r) => r.id);
  assert.ok(!ids.some((id) => /lopsided|cluster-even/.test(id)), ids.join(', '));
  assert.ok(ids.includes('policy-after-death') && ids.includes('worker-died'), ids.join(', '));
  assert.doesNotMatch(adviceParagraphs(result.recommendation).join('\n'), /lopsided/);
  await assertNothingLeft({ pids: [result.target.leaderPid], marker: server, seen: new Set([...workers, result.target.pid]) });
});

test('deaths from the tree: a slot empty at the first sample (its worker died just before, the replacement not yet up) is still a slot', () => {
  // Seen under load: worker 21 holds slot 1 all run; slot 2 is empty at the first sample, then held by 22, 23, 24 in turn.
  const processes = [
    entry(20, 'main', 0, 4250),
    entry(21, 'worker', 0, 4250),
    entry(22, 'worker', 250, 1250),
    entry(23, 'worker', 1750, 2750),
    entry(24, 'worker', 3750, 4250),
  ];
  const deaths = treeWorkerDeaths(processes, 0);
  assert.deepEqual(deaths.map((d) => [d.id, d.pid, d.replacedBy]), [[2, 22, 23], [2, 23, 24]]);
});

test('run on a node:cluster server one of whose workers hangs (its loop blocked, its probe silent): it is no death, and it is sampled to the end', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-hung-worker-'));
  // Worker 2 blocks its event loop for good 300 ms after it starts (Atomics.wait: alive, asleep, no CPU burnt).
  const server = join(dir, 'hung-worker.cjs');
  writeFileSync(server, `const cluster = require('node:cluster');
const http = require('node:http');
if (cluster.isPrimary) { cluster.fork(); cluster.fork(); }
else {
  http.createServer((q, s) => { q.resume(); s.end('hi\\n'); }).listen(Number(process.env.PORT), '127.0.0.1');
  if (cluster.worker.id === 2) setTimeout(() => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0), 300);
}
`);
  try {
    const { out, err } = await spawnCli(['run', '-d', '2s', '-w', '0', '-c', '4', '--timeout', '500ms', '--json', '--', process.execPath, server], { env: { ...process.env, CI: 'true' } });
    const result = JSON.parse(out || '{}');
    assert.ok(result.samples, err);
    // It said "worker 1 (pid N) died at 0.8 s": untracked once its probe fell silent, it left the samples.
    assert.deepEqual(result.workerDeaths, [], JSON.stringify(result.workerDeaths));
    const workers = result.samples.processes.filter((p) => p.role === 'worker');
    assert.equal(workers.length, 2, JSON.stringify(result.samples.processes.map((p) => [p.pid, p.role])));
    const lastOf = (p) => p.series.at(-1).t;
    assert.equal(lastOf(workers[0]), lastOf(workers[1]), 'both workers are sampled until the end');
    await assertNothingLeft({ pids: [result.target.leaderPid], marker: server, seen: new Set([...workers.map((p) => p.pid), result.target.pid]) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('run on a node:cluster server one of whose workers blocks its loop as it starts (its probe never reports): both workers are sampled', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-blocked-worker-'));
  // Worker 2 blocks its event loop at once (Atomics.wait), before its probe's first report: on a loaded machine a
  // worker that hangs soon after it starts does the same. It was read as a command the server ran, not a worker.
  const server = join(dir, 'blocked-worker.cjs');
  writeFileSync(server, `const cluster = require('node:cluster');
const http = require('node:http');
if (cluster.isPrimary) { cluster.fork(); cluster.fork(); }
else if (cluster.worker.id === 2) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0);
else http.createServer((q, s) => { q.resume(); s.end('hi\\n'); }).listen(Number(process.env.PORT), '127.0.0.1');
`);
  try {
    const { out, err } = await spawnCli(['run', '-d', '1s', '-w', '0', '--rate', '20', '--json', '--', process.execPath, server], { env: { ...process.env, CI: 'true' } });
    const result = JSON.parse(out || '{}');
    assert.ok(result.samples, err);
    const workers = result.samples.processes.filter((p) => p.role === 'worker');
    assert.equal(workers.length, 2, JSON.stringify(result.samples.processes.map((p) => [p.pid, p.role])));
    await assertNothingLeft({ pids: [result.target.leaderPid], marker: server, seen: new Set([...workers.map((p) => p.pid), result.target.pid]) });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('diagnose on a node:cluster server whose first worker throws every second: the deaths are its verdict, not "healthy"', async () => {
  // Seen: diagnose --rate 200 of cluster-throws said 'healthy: no stall found at this load … nothing to fix'; its result had no workerDeaths.
  const server = fixtureServer('cluster-throws');
  const env = { ...process.env, CI: 'true', THROW_EVERY_MS: '1000' };
  const { code, out, err } = await spawnCli(['diagnose', '-d', '3s', '-w', '500ms', '--rate', '100', '--json', '--', process.execPath, server], { env });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.ok(result.workerDeaths.length >= 1, JSON.stringify(result.samples.processes.map((p) => [p.pid, p.role, p.series.length])));
  assert.equal(result.diagnosis.verdict.id, 'worker-died', JSON.stringify(result.diagnosis.verdict));
  assert.match(result.diagnosis.verdict.title, /worker process(es)? died while measured$/);
  const workers = result.samples.processes.filter((p) => p.role === 'worker').map((p) => p.pid);
  await assertNothingLeft({ pids: [result.target.leaderPid ?? result.target.pid], marker: server, seen: new Set([...workers, result.target.pid]) });
});
