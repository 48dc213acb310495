// The smoke set: what a user does first, end to end through the CLI, short. `npm run
// test:matrix` runs it on Node 22 and 24 (test/matrix.js), where the full suite does not
// run; the full suite tests each of its cases at length. Every strategy runs on the Node that runs this file
// (spawnbench starts them with process.execPath), which the runtimes it reports prove.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import React from 'react';
import { render } from 'ink-testing-library';
import { runCli } from '../../src/cli.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { Header } from '../../src/ui/components/header.js';
import { fakeIo } from '../helpers/io.js';
import { processesInGroup } from '../helpers/processes.js';
import { waitFor } from '../helpers/harness.js';
import { spawnChannelPublished } from '../helpers/spawn-channel.js';

const major = Number(process.versions.node.split('.')[0]);
/** Node 26 (and later 24.x) publish the spawn diagnostics channel; 20 and 22 do not. */
const expectedTiming = (await spawnChannelPublished()) ? 'diagnostics-channel' : 'patch';
/** Every Node release up to 26 bundles a libuv below 1.53, which forks. */
const expectedMechanism = Number(process.versions.uv.split('.')[1]) >= 53 ? 'posix_spawn' : 'fork';
// Long enough that a pool answers in the window on a busy machine too (0.7 s once measured 0 requests under load).
const SHORT = ['--duration', '1s', '--warmup', '500ms', '--connections', '4', '--json'];
// What a test checks of a run that does not need a saturated server (it served, on this Node, its
// figures are there): an open loop at a low rate, which keeps the suite's CPU for the runs that do.
// Low enough that a crowded machine keeps up (a server's warm-up backlog would otherwise
// take the measured second: 50 req/s measured 0 requests at load 12, closed loop 36 req/s).
const LIGHT = [...SHORT, '--rate', '20'];
const server = (name) => fileURLToPath(new URL(`../../fixtures/servers/${name}.js`, import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'spawnbench-smoke-'));
after(() => rmSync(dir, { recursive: true, force: true }));

async function cli(...args) {
  const io = fakeIo();
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

async function json(...args) {
  const { code, out, err } = await cli(...args);
  assert.equal(code, 0, `${args.join(' ')}: exit ${code}\n${err}`);
  return JSON.parse(out);
}

/** Writes a result where `report` can read it; returns report's arguments. */
async function saved(result) {
  const file = join(dir, `${result.kind}-${Date.now()}.json`);
  writeFileSync(file, JSON.stringify(result));
  return [file];
}

async function assertNothingLeft(pid) {
  assert.ok(await waitFor(() => processesInGroup(pid).length === 0, { timeoutMs: 5000 }), `processes left in group ${pid}`);
  assert.equal(trackedGroupCount(), 0);
}

/** Whether strategies/lib/spawn-command.js spawns with posix_spawn on this Node (node:ffi or koffi loads; posix-spawn.test.js says where it must). */
const POSIX_SPAWN = (await import('../../strategies/lib/spawn-command.js')).SPAWN_API === 'posix_spawn';

/** The strategies and whether each has a pool, from `spawnbench list --json`. */
async function strategies() {
  return json('list', '--json');
}

/** One run of each strategy (a pool of 2), shared by the tests that read it. */
const strategyRuns = new Map();
function strategyRun(name, pool) {
  if (!strategyRuns.has(name)) strategyRuns.set(name, json('run', '--strategy', name, ...(pool ? ['--pool-size', '2'] : []), ...LIGHT));
  return strategyRuns.get(name);
}

test(`every strategy runs on Node ${process.versions.node}: responses checked, no errors, its runtime named`, async () => {
  for (const { name, pool, runtimes } of await strategies()) {
    if (!runtimes.includes('node')) continue;
    const result = await strategyRun(name, pool);
    assert.ok(result.load.requests > 0, `${name}: no requests`);
    assert.equal(result.load.errors.total, 0, `${name}: ${JSON.stringify(result.load.errors)}`);
    assert.deepEqual(result.failures, [], name);
    // One runtime, or where posix_spawn loads (node:ffi or koffi) the workers of a strategy that runs its
    // commands through strategies/lib/spawn-command.js as a second row: the same Node, spawning by posix_spawn.
    const [runtime, ...workers] = result.runtimes;
    if (POSIX_SPAWN && workers.length === 1) {
      assert.deepEqual([workers[0].role, workers[0].version, workers[0].spawnMechanism], ['workers', process.versions.node, 'posix_spawn'], name);
    } else {
      assert.equal(result.runtimes.length, 1, name);
    }
    assert.equal(runtime.version, process.versions.node, `${name} ran on this Node`);
    assert.equal(runtime.libuv, process.versions.uv);
    assert.equal(runtime.spawnMechanism, expectedMechanism);
    await assertNothingLeft(result.strategy.pid);
  }
});

test(`probe figures: blocked in spawn > 0 on baseline, timed by ${expectedTiming} on Node ${process.versions.node}; worker threads probed`, async () => {
  if (major >= 26) assert.equal(expectedTiming, 'diagnostics-channel');
  if (major === 20) assert.equal(expectedTiming, 'patch');
  const baseline = await strategyRun('baseline', false);
  const main = baseline.samples.processes.find((p) => p.role === 'main');
  assert.ok(main.summary.blockedFraction > 0, `blocked ${main.summary.blockedFraction}`);
  assert.ok(main.summary.msPerSpawn > 0);
  assert.ok(main.summary.elu > 0 && main.summary.loopDelayP99Ms >= 0);
  assert.equal(main.summary.spawnTiming, expectedTiming);
  assert.equal(baseline.samples.spawnTiming, expectedTiming);
  assert.deepEqual(main.summary.runtime, {
    kind: 'node', version: process.versions.node, libuv: process.versions.uv, spawnMechanism: expectedMechanism,
  });

  const threads = await strategyRun('worker-threads', true);
  const probed = threads.samples.processes.filter((p) => p.role === 'thread' && p.summary.blockedFraction > 0);
  assert.equal(probed.length, 2, JSON.stringify(threads.samples.processes.map((p) => [p.role, p.summary.blockedFraction])));
  assert.ok(probed.every((p) => p.summary.spawnTiming === expectedTiming));
});

test('tune sweeps two sizes and recommends one', async () => {
  const result = await json(
    'tune', '--strategy', 'fork-pool', '--sizes', '1,2', '--repeat', '1', '--balance-policies', 'round-robin', ...SHORT,
  );
  assert.equal(result.steps.length, 2);
  assert.ok([1, 2].includes(result.recommendation.size), JSON.stringify(result.recommendation));
  assert.equal(result.runtimes[0].version, process.versions.node);
  assert.equal(trackedGroupCount(), 0);
});

test('compare runs two strategies and tables them; the saved file prints again', async () => {
  const out = join(dir, 'compare.json');
  const result = await json('compare', '--strategies', 'baseline,fork-pool', '--pool-size', '2', '--repeat', '1', '--out', out, ...LIGHT);
  assert.deepEqual(result.rows.map((r) => r.strategy), ['baseline', 'fork-pool']);
  assert.ok(result.rows.every((r) => !r.failed && r.rps.median > 0), JSON.stringify(result.rows));
  const again = await cli('report', out);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /spawns by fork|spawns by posix_spawn/);
});

test('diagnose on two fixtures: spawn-per-request is seen blocked in spawn; cpu-burn\'s --cpu-prof names its hot function', async () => {
  const spawning = await json('diagnose', ...LIGHT, '--', process.execPath, server('spawn-per-request'));
  const busiest = spawning.samples.processes.find((p) => p.summary.blockedFraction > 0);
  assert.ok(busiest, 'the probe saw time blocked in spawn');
  assert.equal(busiest.summary.spawnTiming, expectedTiming);
  assert.ok(spawning.diagnosis.verdict.id, 'a verdict');
  const text = await cli('report', ...(await saved(spawning)));
  assert.match(text.out, new RegExp(`^Node ${process.versions.node.replaceAll('.', '\\.')}, libuv [\\d.]+ spawns by ${expectedMechanism}$`, 'm'));
  await assertNothingLeft(spawning.target.pid);

  const burning = await json('diagnose', ...SHORT, '--cpu-prof', '--', process.execPath, server('cpu-burn'));
  const profile = burning.cpuProfile;
  assert.ok(profile.files.length >= 1 && existsSync(profile.top.file), 'the profile was written when the server stopped');
  assert.equal(profile.top.functions[0].name, 'burnCpu');
  await rm(profile.dir, { recursive: true, force: true });
  await assertNothingLeft(burning.target.pid);
});

test('the dashboard renders (Ink and React on this Node) and names how the strategy spawns', () => {
  const runtimes = [{ role: 'main', kind: 'node', version: process.versions.node, libuv: process.versions.uv, spawnMechanism: 'fork' }];
  const { lastFrame, unmount } = render(React.createElement(Header, { plan: null, machine: { node: process.versions.node, cores: 2 }, runtimes }));
  assert.match(lastFrame(), new RegExp(`spawns by fork \\(node ${process.versions.node.replaceAll('.', '\\.')}\\)`));
  unmount();
});
