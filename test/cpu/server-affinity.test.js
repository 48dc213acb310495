// A server started on fewer CPUs than spawnbench (`run -- taskset -c 0 node server.js`) can use
// only those: the run's budget is narrowed to them (src/machine/cpu-budget.js narrowToServer).
// A two-worker cluster pinned to CPU 0 of 2 was told "2 cores serve at most ~4,815 req/s" and
// 2 workers by run, and "a larger pool will help, up to the cores" by diagnose, with CPU 0 full.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import os from 'node:os';
import { narrowToServer } from '../../src/machine/cpu-budget.js';
import { cpuBudgetLabel } from '../../src/base/labels.js';
import { formatDiagnosis } from '../../src/report/diagnose-text.js';
import { spawnCli, fixtureServer, findOnPath } from '../helpers/harness.js';
import { processesInGroup } from '../helpers/processes.js';

/** @returns {import('../../src/machine/cpu-budget.js').CpuBudget} */
const budget = (o) => ({
  budget: 2, source: 'host', hostThreads: 2, physicalCores: 2, capacity: 2, cpus: [0, 1],
  limits: { quota: null, cpuset: null, affinity: 2 }, smt: null, unreadable: null, ...o,
});

test("a server on fewer CPUs than spawnbench, or on other ones, narrows the budget to them; a quota or the same set does not", () => {
  const own = budget();
  const pinned = narrowToServer(own, budget({ budget: 1, source: 'affinity', capacity: 1, cpus: [0], limits: { quota: null, cpuset: null, affinity: 1 } }));
  assert.deepEqual([pinned.budget, pinned.source, pinned.cpus, pinned.capacity, pinned.server], [1, 'affinity', [0], 1, true]);
  assert.equal(cpuBudgetLabel({ cpu: pinned }), '1 CPU: CPU affinity of the server, on a 2-core host');
  const cpuset = narrowToServer(own, budget({ budget: 1, source: 'cpuset', capacity: 1, cpus: [1], limits: { quota: null, cpuset: 1, affinity: 2 } }));
  assert.deepEqual([cpuset.budget, cpuset.source], [1, 'cpuset']);
  assert.equal(narrowToServer(own, budget()), own, 'the same CPUs');
  // spawnbench on CPU 1, the server on CPU 0: as many CPUs, other ones (the busy share is the server's CPU's).
  const other = narrowToServer(budget({ budget: 1, source: 'affinity', capacity: 1, cpus: [1], limits: { quota: null, cpuset: null, affinity: 1 } }),
    budget({ budget: 1, source: 'affinity', capacity: 1, cpus: [0], limits: { quota: null, cpuset: null, affinity: 1 } }));
  assert.deepEqual([other.budget, other.cpus, other.server], [1, [0], true]);
  assert.equal(narrowToServer(own, null), own, 'unread');
  assert.equal(narrowToServer(own, budget({ unreadable: { reason: 'no-proc', detail: 'gone' } , cpus: [0] })), own, 'a server that exited');
  const quota = budget({ budget: 0.5, source: 'quota', capacity: 0.5, limits: { quota: { cpus: 0.5, dir: '/sys/fs/cgroup/cpu/bench' }, cpuset: null, affinity: 2 } });
  assert.equal(narrowToServer(quota, budget({ budget: 0.5, source: 'quota', capacity: 0.5, cpus: [0], limits: { quota: { cpus: 0.5, dir: '/sys/fs/cgroup/cpu/bench' }, cpuset: null, affinity: 1 } })), quota,
    "spawnbench's quota binds the server too, and is tighter than its one CPU");
});

test("a server outside spawnbench's quota (it moved itself to another cgroup) has its own, wider budget", () => {
  // Seen: "0.3 CPU (cgroup quota) ran at 129% of what they allow" of a server in the root cgroup.
  const quota = budget({ budget: 0.3, source: 'quota', capacity: 0.3, limits: { quota: { cpus: 0.3, dir: '/sys/fs/cgroup/cpu/bench' }, cpuset: null, affinity: 2 } });
  const outside = narrowToServer(quota, budget());
  assert.deepEqual([outside.budget, outside.source, outside.server], [2, 'host', true]);
  assert.equal(cpuBudgetLabel({ cpu: outside }), '2 cores');
});

test('a server that widened the affinity it inherited from spawnbench has its own, wider budget', () => {
  // Seen: `taskset -c 0 spawnbench run -- taskset -c 0,1 node cluster.js`: "1 CPU (CPU affinity) serves at most ~961 req/s" beside 1,513 served.
  const pinned = budget({ budget: 1, source: 'affinity', capacity: 1, cpus: [0], limits: { quota: null, cpuset: null, affinity: 1 } });
  const wide = narrowToServer(pinned, budget());
  assert.deepEqual([wide.budget, wide.source, wide.cpus, wide.server], [2, 'host', [0, 1], true]);
  assert.equal(cpuBudgetLabel({ cpu: wide }), '2 cores');
  // spawnbench's own quota, which the server is under too, stays the budget.
  const quota = budget({ budget: 0.5, source: 'quota', capacity: 0.5, limits: { quota: { cpus: 0.5, dir: '/sys/fs/cgroup/cpu/bench' }, cpuset: null, affinity: 2 } });
  assert.equal(narrowToServer(quota, budget({ budget: 0.5, source: 'quota', capacity: 0.5, limits: { quota: { cpus: 0.5, dir: '/sys/fs/cgroup/cpu/bench' }, cpuset: null, affinity: 2 } })), quota);
});

test("diagnose's short-of-CPU title: other processes, measured host-wide, are of the host's CPUs under a narrower budget", () => {
  const taken = [{ name: 'node', count: 2, cores: 0.6, downstream: null, competes: false }];
  const finding = (figures) => ({ verdict: { id: 'cpu-starved', kind: 'problem', where: 'pid 4242', figures: { waitingForCpu: 0.58, onCpu: 0.4, takenBy: taken, ...figures } }, findings: [] });
  assert.match(formatDiagnosis(finding({ cores: 1, hostCpus: 2 }), null)[0], /\(node took 0\.6 of the host's 2 CPUs\)/);
  assert.match(formatDiagnosis(finding({ cores: 2, hostCpus: 2 }), null)[0], /\(node took 0\.6 of the 2 CPUs\)/);
});

const TASKSET = findOnPath('taskset');
const skip = !TASKSET ? 'taskset is not installed' : os.availableParallelism() < 2 ? 'needs 2 CPUs' : false;

for (const command of ['run', 'diagnose']) {
  test(`${command} -- taskset -c 0 <server>: the result's budget is the server's one CPU`, { skip }, async () => {
    const server = fixtureServer('healthy');
    const { code, out, err } = await spawnCli([command, '-d', '500ms', '-w', '0s', '-c', '2', '-r', '50', '--json', '--', TASKSET, '-c', '0', process.execPath, server], { env: { ...process.env, CI: 'true' } });
    assert.equal(code, 0, err);
    const result = JSON.parse(out);
    const { cpu } = result.machine;
    assert.deepEqual([cpu.budget, cpu.source, cpu.cpus, cpu.server], [1, 'affinity', [0], true]);
    // Its own server's group, not every healthy.js: other test files run that fixture at the same time
    // (a fresh-clone CI run read another file's server here, pid 7023, and failed).
    assert.ok(result.target.pid > 0, 'the server pid is in the result');
    assert.deepEqual(processesInGroup(result.target.pid), [], 'nothing of the server is left once spawnbench exits');
  });
}
