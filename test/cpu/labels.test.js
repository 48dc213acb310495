// How every view names the machine's CPU (labels.js), from the budget's shape.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpuBudgetLabel, budgetAmount } from '../../src/base/labels.js';
import { describeMachine } from '../../src/report/describe.js';

const cpu = (over) => ({ budget: 2, source: 'host', hostThreads: 2, physicalCores: 2, unreadable: null, ...over });

test('the budget with its source and host', () => {
  assert.equal(cpuBudgetLabel({ cpu: cpu() }), '2 cores');
  assert.equal(cpuBudgetLabel({ cpu: cpu({ budget: 1, source: 'quota' }) }), '1.0 CPU: cgroup quota, on a 2-core host');
  assert.equal(cpuBudgetLabel({ cpu: cpu({ budget: 1.5, source: 'quota', hostThreads: 4, physicalCores: 4 }) }), '1.5 CPUs: cgroup quota, on a 4-core host');
  assert.equal(cpuBudgetLabel({ cpu: cpu({ budget: 1, source: 'affinity' }) }), '1 CPU: CPU affinity, on a 2-core host');
  assert.equal(cpuBudgetLabel({ cpu: cpu({ budget: 3, source: 'cpuset', hostThreads: 8, physicalCores: 8 }) }), '3 CPUs: cpuset, on an 8-core host');
  assert.equal(cpuBudgetLabel({ cpu: cpu({ budget: 24, hostThreads: 24, physicalCores: 16 }) }), '16 cores, 24 threads');
  assert.equal(cpuBudgetLabel({ cpu: cpu({ budget: 2, source: 'quota', hostThreads: 24, physicalCores: 16 }) }), '2.0 CPUs: cgroup quota, on a 16-core, 24-thread host');
  assert.equal(budgetAmount(cpu({ budget: 0.5, source: 'quota' })), '0.5 CPU');
});

test('the fallback says availableParallelism() and why', () => {
  assert.equal(cpuBudgetLabel({ cpu: cpu({ budget: 8, hostThreads: 8, physicalCores: null, unreadable: { reason: 'not-linux' } }) }), '8 cores (availableParallelism(): no cgroups on this OS)');
  assert.equal(cpuBudgetLabel({ cpu: cpu({ unreadable: { reason: 'no-cgroup-fs' } }) }), '2 cores (availableParallelism(): no cgroup filesystem)');
});

test('a saved result from before the budget still reads "N cores"', () => {
  assert.equal(cpuBudgetLabel({ cores: 4 }), '4 cores');
  const m = { node: '20.20.2', libuv: '1.46.0', cpuModel: 'Xeon', cores: 2, platform: 'linux', arch: 'x64' };
  assert.equal(describeMachine(m), 'Node 20.20.2 · libuv 1.46.0 · Xeon × 2 cores · linux/x64');
  assert.equal(describeMachine({ ...m, cpu: cpu({ budget: 1, source: 'quota' }) }), 'Node 20.20.2 · libuv 1.46.0 · Xeon × 1.0 CPU: cgroup quota, on a 2-core host · linux/x64');
});

test('the quota\'s throttling over the run, in the text and HTML reports', async () => {
  const { describeThrottling } = await import('../../src/report/describe.js');
  const { formatProcesses } = await import('../../src/report/processes-text.js');
  const t = { roles: ['server', 'spawnbench'], quotaCpus: 1, cgroup: '/bench', periods: 50, fraction: 0.87, throttledMs: 4200 };
  assert.deepEqual(describeThrottling([t]), ['CPU quota 1.0 CPU (cgroup /bench; server and spawnbench): throttled in 87% of 50 periods, 4.20 s held back']);
  assert.deepEqual(describeThrottling([{ ...t, roles: ['spawnbench'], fraction: null }]), ['CPU quota 1.0 CPU (cgroup /bench; spawnbench only): no quota period ran']);
  assert.deepEqual(describeThrottling(undefined), []);
  const { processTable } = await import('../../src/report/html/parts.js');
  const samples = { processes: [{ key: '1', pid: 1, role: 'main', label: 'main', series: [], summary: { cpuPct: 50 } }], throttling: [t] };
  assert.match(processTable(samples), /<p>CPU quota 1\.0 CPU \(cgroup \/bench; server and spawnbench\): throttled in 87% of 50 periods/);
  assert.match(formatProcesses(samples), /^CPU quota 1\.0 CPU \(cgroup \/bench; server and spawnbench\): throttled in 87% of 50 periods, 4\.20 s held back$/m);
});
