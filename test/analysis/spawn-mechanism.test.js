// How each runtime spawns, from the versions it reports: the pure mapping, the words
// the reports use, and the versions read from the real executables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnMechanism, compareVersions } from '../../src/machine/spawn-mechanism.js';
import { formatSpawnLine, formatRuntimeList, fasterSpawnHint } from '../../src/report/runtimes-text.js';
import { readRuntimeVersions, describeTargetRuntimes } from '../../src/strategies/runtime-versions.js';
import { resolveRuntime } from '../../src/strategies/runtimes.js';
import { formatTune } from '../../src/report/tune-text.js';
import { runtimePath, missingRuntime } from '../helpers/runtimes.js';

// Node 26, Bun and Deno from the runtime cache (test/helpers/runtimes.js).
const NODE26 = runtimePath('node26');
const cached = (name) => resolveRuntime(runtimePath(name));
const needsAll = { skip: missingRuntime('node26') || missingRuntime('bun') || missingRuntime('deno') };

test('Node forks below libuv 1.53 and uses posix_spawn from it; Bun vfork; Deno posix_spawn; unknown is null', () => {
  assert.equal(spawnMechanism({ kind: 'node', libuv: '1.46.0' }), 'fork');
  assert.equal(spawnMechanism({ kind: 'node', libuv: '1.52.1' }), 'fork');
  assert.equal(spawnMechanism({ kind: 'node', libuv: '1.53.0' }), 'posix_spawn');
  assert.equal(spawnMechanism({ kind: 'node', libuv: '1.60.2' }), 'posix_spawn');
  assert.equal(spawnMechanism({ kind: 'node', libuv: '2.0.0' }), 'posix_spawn');
  assert.equal(spawnMechanism({ kind: 'bun', libuv: null }), 'vfork');
  assert.equal(spawnMechanism({ kind: 'deno' }), 'posix_spawn');
  assert.equal(spawnMechanism({ kind: 'node', libuv: null }), null);
  assert.equal(spawnMechanism({ kind: 'node', libuv: 'garbage' }), null);
  assert.ok(compareVersions('1.9.0', '1.53.0') < 0, 'numeric, not lexical');
  assert.equal(compareVersions('v1.53.0', '1.53'), 0);
});

test('the spawns-by line names each runtime; the faster-spawn sentence only where a Node forks', () => {
  const node20 = { role: 'main', kind: 'node', path: '/n20', version: '20.20.2', libuv: '1.46.0', spawnMechanism: 'fork' };
  const bun = { role: 'workers', kind: 'bun', path: '/bun', version: '1.4.5', libuv: null, spawnMechanism: 'vfork' };
  const nodeNew = { ...node20, version: '28.0.0', libuv: '1.53.0', spawnMechanism: 'posix_spawn' };
  assert.equal(formatSpawnLine([node20]), 'spawns by fork (Node 20.20.2, libuv 1.46.0)');
  assert.equal(formatSpawnLine([node20, bun]), 'main spawns by fork (Node 20.20.2, libuv 1.46.0) · workers by vfork (Bun 1.4.5)');
  assert.equal(formatSpawnLine([]), null);
  assert.equal(formatSpawnLine(undefined), null, 'a result file from before runtimes were recorded');
  assert.equal(formatRuntimeList([node20, bun, { ...node20, role: 'main' }]), 'Node 20.20.2, libuv 1.46.0 spawns by fork · Bun 1.4.5 spawns by vfork');
  assert.match(fasterSpawnHint([node20]), /a Node built with libuv ≥ 1\.53 spawns with posix_spawn instead of fork/);
  assert.equal(fasterSpawnHint([nodeNew, bun]), null);
  assert.equal(fasterSpawnHint([{ ...bun, role: 'main' }]), null);
});

test('versions come from the executable that runs the strategy, not from this Node', needsAll, async () => {
  const other = await readRuntimeVersions({ name: NODE26, kind: 'node', path: NODE26 });
  assert.deepEqual(
    { version: other.version, libuv: other.libuv, spawnMechanism: other.spawnMechanism },
    { version: '26.10.0', libuv: '1.52.1', spawnMechanism: 'fork' },
  );
  const self = await readRuntimeVersions(resolveRuntime('node'));
  assert.equal(self.version, process.versions.node);
  const bun = await readRuntimeVersions(cached('bun'));
  assert.match(bun.version, /^\d+\.\d+\.\d+/);
  assert.equal(bun.spawnMechanism, 'vfork');
  const deno = await readRuntimeVersions(cached('deno'));
  assert.match(deno.version, /^\d+\.\d+\.\d+/);
  assert.equal(deno.spawnMechanism, 'posix_spawn');
  const broken = await readRuntimeVersions({ name: 'x', kind: 'node', path: '/bin/false' });
  assert.deepEqual([broken.version, broken.spawnMechanism], [null, null], 'a runtime that does not answer: unknown, not a guess');

  const target = { kind: 'strategy', pool: true, runtime: resolveRuntime('node'), workerRuntime: cached('bun') };
  assert.deepEqual((await describeTargetRuntimes(target)).map((r) => [r.role, r.spawnMechanism]), [['main', 'fork'], ['workers', 'vfork']]);
  assert.deepEqual(await describeTargetRuntimes({ kind: 'url', url: 'http://127.0.0.1:1/' }), []);
});

test('a tune report on a forking Node adds the posix_spawn option to its recommendation; an older file without runtimes does not', () => {
  const base = {
    plan: { sizes: [1], policies: ['round-robin'], repeat: 1, search: 'exhaustive', base: { target: { strategy: 'fork-pool' }, workload: { name: 'echo' }, load: { connections: 4, durationMs: 1000, warmupMs: 0 } } },
    recommendation: { size: 1, policy: 'round-robin', sentences: ['Use 1 worker with round-robin.'], cells: [], sizes: [] },
    search: { mode: 'exhaustive', measuredSteps: 1, exhaustiveSteps: 1, savedSteps: 0 },
    steps: [],
  };
  const runtimes = [{ role: 'main', kind: 'node', path: '/n', version: '20.20.2', libuv: '1.46.0', spawnMechanism: 'fork' }];
  const text = formatTune({ ...base, runtimes });
  assert.match(text, /^spawns by fork \(Node 20\.20\.2, libuv 1\.46\.0\)$/m);
  assert.match(text, /Recommendation\n {2}Use 1 worker with round-robin\.\n {2}Also: this Node forks to spawn; a Node built with libuv ≥ 1\.53 spawns with posix_spawn instead of fork/);
  assert.doesNotMatch(formatTune(base), /posix_spawn|spawns by/);
});

// Issue 25 (defect 8): on Node 26 the header said "spawns by fork (Node 26.10.0, libuv 1.52.1)" while the
// workers of fork-pool, comm-channel and reuse-port spawn with posix_spawn (strategies/lib/spawn-command.js).
test('a Node 26 pool that runs its commands through spawn-command.js: its workers spawn by posix_spawn, and the header says so', { skip: missingRuntime('node26') }, async () => {
  const node26 = resolveRuntime(NODE26);
  const pool = { kind: 'strategy', pool: true, spawnsWith: 'spawn-command', runtime: node26, workerRuntime: node26 };
  const runtimes = await describeTargetRuntimes(pool);
  assert.deepEqual(runtimes.map((r) => [r.role, r.spawnMechanism]), [['main', 'fork'], ['workers', 'posix_spawn']]);
  assert.equal(formatSpawnLine(runtimes), 'main spawns by fork (Node 26.10.0, libuv 1.52.1) · workers by posix_spawn (Node 26.10.0, libuv 1.52.1)');
  assert.equal(fasterSpawnHint(runtimes), null, 'each request waits on the workers\' posix_spawn, not on a fork');
  // Strategies that keep child_process (baseline, cluster, …) fork on the same Node.
  assert.deepEqual((await describeTargetRuntimes({ ...pool, spawnsWith: 'child_process' })).map((r) => r.spawnMechanism), ['fork']);
  // SPAWNBENCH_SPAWN_API=child_process turns posix_spawn off in the workers: the header follows.
  process.env.SPAWNBENCH_SPAWN_API = 'child_process';
  try {
    assert.deepEqual((await describeTargetRuntimes(pool)).map((r) => r.spawnMechanism), ['fork']);
  } finally {
    delete process.env.SPAWNBENCH_SPAWN_API;
  }
  // The Node running this test: its workers spawn by posix_spawn where node:ffi or koffi loads in it
  // (posix-spawn.test.js says where that must be), else they fork.
  const hasFfi = (await import('../../strategies/lib/spawn-command.js')).SPAWN_API === 'posix_spawn';
  const own = spawnMechanism({ kind: 'node', libuv: process.versions.uv });
  assert.deepEqual((await describeTargetRuntimes({ ...pool, runtime: resolveRuntime('node'), workerRuntime: resolveRuntime('node') })).map((r) => r.spawnMechanism), hasFfi ? [own, 'posix_spawn'] : [own]);
});
