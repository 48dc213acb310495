// comm-channel's channels against a hostile local process: another user (nobody, through
// runuser) and another process of the same user connect to the workers' abstract sockets
// while the server is under load and write well-formed stdout frames for every id that
// could be in flight. Not one of their bytes may reach a response, and each refusal is
// counted in the strategy's log.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { boot, hammer, groupMembers, WORKLOADS } from './helpers.js';
import { resolveRuntime, workerForkConfig } from '../../src/strategies/runtimes.js';
import { runtimePath, missingRuntime } from '../helpers/runtimes.js';

const OUTSIDER = fileURLToPath(new URL('../../fixtures/comm-outsider.js', import.meta.url));
const ATTACK_MS = 1_000;
const ROUND = 40;
const started = [];
after(async () => {
  for (const s of started) await s.stop();
  for (const s of started) assert.deepEqual(groupMembers(s.pid), []);
});

const isRoot = process.getuid?.() === 0;
const hasRunuser = spawnSync('runuser', ['--help'], { stdio: 'ignore' }).status === 0;
// As another user where this test can become one (root with runuser); as this user always.
const ATTACKERS = [
  ...(isRoot && hasRunuser ? [['another user (nobody)', ['runuser', '-u', 'nobody', '--', process.execPath]]] : []),
  ['this same user', [process.execPath]],
];

function runOutsider(prefix, pid) {
  const [command, ...args] = prefix;
  const child = spawn(command, [...args, OUTSIDER, String(pid), String(ATTACK_MS), '20000'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (c) => { out += c; });
  child.stderr.on('data', (c) => { err += c; });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`outsider exited ${code}: ${err}`))));
  });
}

// Every attacker at once, on one strategy under one load: each still has its own figures.
test(`comm-channel: ${ATTACKERS.map(([who]) => who).join(' and ')} writing frames to the channels under load get no byte into a response`, async () => {
  const log = [];
  const strategy = await boot('comm-channel', { workload: 'echo', poolSize: 2 }, { onOutput: (line) => log.push(line) });
  started.push(strategy);
  const outsiders = Promise.all(ATTACKERS.map(([, prefix]) => runOutsider(prefix, strategy.pid)));
  let done = false;
  outsiders.finally(() => { done = true; }).catch(() => {});
  const totals = { requests: 0, ok: 0, mismatches: 0, statuses: {}, sample: '' };
  while (!done) {
    // Short rounds, so the load stops soon after the outsiders do.
    const r = await hammer({ port: strategy.port, requests: ROUND, connections: 8, expected: WORKLOADS.echo.expected });
    totals.requests += ROUND;
    totals.ok += r.ok;
    totals.mismatches += r.mismatches;
    for (const [status, n] of Object.entries(r.statuses)) totals.statuses[status] = (totals.statuses[status] ?? 0) + n;
    if (r.mismatches) totals.sample = r.bodies[200];
  }
  const all = await outsiders;
  await strategy.stop();
  for (const [i, stats] of all.entries()) {
    const who = ATTACKERS[i][0];
    // The attack happened: the outsider found both channels and the kernel let it connect.
    assert.equal(stats.names, 2, `${who}: ${JSON.stringify(stats)}`);
    assert.ok(stats.connected > 0, `${who}: ${JSON.stringify(stats)}`);
    assert.equal(stats.stillOpen, 0, `${who}: every connection the kernel let in was dropped by the main process`);
    assert.equal(stats.dropped, stats.connected, who);
  }
  assert.equal(totals.mismatches, 0, `injected body: ${JSON.stringify(totals.sample)}`);
  assert.deepEqual(totals.statuses, { 200: totals.requests });
  const connected = all.reduce((sum, stats) => sum + stats.connected, 0);
  const refusals = log.filter((line) => /^comm-channel: refused a connection to worker [01]'s channel: /.test(line));
  assert.ok(refusals.length >= connected, `${refusals.length} refusals logged for ${connected} connections`);
  assert.match(refusals.at(-1), new RegExp(`\\(${refusals.length} refused so far\\)$`));
});

// The secret travels in the worker's environment: each runtime must read it and present it.
/** bun or deno from the runtime cache (test/helpers/runtimes.js), null when not fetched. */
const installed = (name) => runtimePath(name) && resolveRuntime(runtimePath(name));
for (const kind of ['bun', 'deno']) {
  test(`comm-channel: ${kind} workers present their secret and serve`, { skip: missingRuntime(kind) }, async () => {
    const runtime = installed(kind);
    const log = [];
    const strategy = await boot('comm-channel', { workload: 'large', ...workerForkConfig(runtime, resolveRuntime('node')) }, { onOutput: (line) => log.push(line) });
    started.push(strategy);
    const result = await hammer({ port: strategy.port, requests: 40, connections: 4, expected: WORKLOADS.large.expected });
    await strategy.stop();
    assert.deepEqual(result.statuses, { 200: 40 });
    assert.equal(result.ok, 40);
    assert.deepEqual(log.filter((line) => line.includes('refused')), []);
  });
}

test('comm-channel: a command run by a worker does not inherit the secret', async () => {
  const strategy = await boot('comm-channel', { command: 'env', args: [], poolSize: 1 });
  started.push(strategy);
  const result = await hammer({ port: strategy.port, requests: 1, connections: 1 });
  await strategy.stop();
  assert.deepEqual(result.statuses, { 200: 1 });
  assert.doesNotMatch(result.bodies[200], /SPAWNBENCH_COMM_SECRET/);
  assert.match(result.bodies[200], /=/); // it did print an environment
});
