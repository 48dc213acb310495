import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatProcesses } from '../../src/report/processes-text.js';

const figures = (overrides = {}) => ({
  elu: 0.97, blockedFraction: 0.31, msPerSpawn: 1.31, spawnsPerSec: 700, loopDelayP50Ms: 2, loopDelayP99Ms: 48.2,
  loopDelayMaxMs: 60, gcMs: 12, cpuPct: 99.4, rssBytes: 80e6, heapUsedBytes: 12e6, ...overrides,
});

test('one line per process, spawned commands, system, generator, then the per-worker table', () => {
  const summary = {
    processes: [
      { key: '10', pid: 10, threadId: null, role: 'main', label: 'main', requests: null, series: [], summary: figures() },
      { key: '11', pid: 11, threadId: null, role: 'worker', label: 'worker 0', requests: 1200, series: [],
        summary: figures({ elu: 0.456, blockedFraction: 0.05, msPerSpawn: 0.42, loopDelayP99Ms: 3.14, cpuPct: 38 }) },
      { key: '12', pid: 12, threadId: null, role: 'worker', label: 'pid 12', requests: null, series: [],
        summary: figures({ elu: null, blockedFraction: null, msPerSpawn: null, loopDelayP99Ms: null, cpuPct: 12 }) },
    ],
    spawned: { seen: 36, spawns: 1628, cpuPct: 64.6, rssBytes: 6e6 },
    system: { cpus: [74.2, 73.1] },
    generator: { cpuPct: 41, elu: 0.5 },
    probe: { available: true, reason: null },
    notes: [],
  };
  const workers = [{ id: 1, pid: 12, threadId: null, inFlight: 0, completed: 987, failed: 0 }];
  assert.equal(
    formatProcesses(summary, workers),
    [
      'main      ELU 0.97  blocked in spawn 31% (1.3 ms each)  loop p99 48 ms  CPU 99%',
      'worker 0  ELU 0.46  blocked in spawn 5% (0.4 ms each)  loop p99 3.1 ms  CPU 38%',
      'worker 1  CPU 12%',
      'spawned commands  CPU 65%  (1,628 spawns, 36 seen running)',
      'system     CPU per core 74% 73%',
      'generator  ELU 0.50  CPU 41%',
      '',
      'worker    requests   ELU  CPU',
      'worker 0     1,200  0.46  38%',
      'worker 1       987     –  12%',
    ].join('\n'),
  );
});

test('spawned commands: the spawns the probe saw fail are said beside the count (issue #36)', () => {
  const main = { key: '1', pid: 1, label: 'main', role: 'main', summary: { cpuPct: 40 } };
  const at = (failures) => formatProcesses({ processes: [main], spawned: { seen: 0, spawns: 4592, cpuPct: 0, rssBytes: null, failures } })
    .split('\n').find((line) => line.startsWith('spawned commands'));
  assert.equal(at([{ command: 'echo', code: 'EMFILE', count: 4592 }]), 'spawned commands  CPU 0%  (4,592 spawns, all failed)');
  assert.equal(at([{ command: 'echo', code: 'EMFILE', count: 30 }, { command: 'x', code: 'ENOENT', count: 2 }]), 'spawned commands  CPU 0%  (4,592 spawns, 32 failed)');
  assert.equal(at(null), 'spawned commands  CPU 0%  (4,592 spawns)');
});

test('every line fits 80 columns: long figures and many cores carry on below', () => {
  const summary = {
    processes: [{ key: '10', pid: 10, threadId: 3, role: 'worker', label: 'pid 10 thread 3', requests: null, series: [],
      summary: figures({ elu: 1, blockedFraction: 0.999, msPerSpawn: 123.4, loopDelayP99Ms: 1234.5, cpuPct: 100 }) }],
    spawned: { seen: 0, spawns: 0, cpuPct: 0, rssBytes: 0 },
    system: { cpus: Array.from({ length: 64 }, (_, i) => i) },
    generator: { cpuPct: 41, elu: 0.5 },
    probe: { available: true, reason: null },
    notes: [],
  };
  const text = formatProcesses(summary);
  for (const line of text.split('\n')) assert.ok(line.length <= 80, `${line.length} columns: ${line}`);
  assert.match(text, /CPU per core 0% 1% 2%/);
  assert.match(text, /\n {17}\d+%/, 'continuation lines are indented under the figures');
  assert.match(text, /63%/, 'no core is dropped');
});

test('no probe: CPU only, and the reason is said; nothing at all without processes', () => {
  const summary = {
    processes: [{ key: '5', pid: 5, threadId: null, role: 'main', label: 'main', requests: null, series: [],
      summary: figures({ elu: null, blockedFraction: null, msPerSpawn: null, loopDelayP99Ms: null, cpuPct: 100 }) }],
    spawned: { seen: 0, spawns: 0, cpuPct: 0, rssBytes: 0 },
    system: { cpus: [] },
    generator: { cpuPct: null, elu: null },
    probe: { available: false, reason: 'probe not available on bun' },
    notes: ['no /proc on darwin: per-process CPU and RSS come from pidusage'],
  };
  assert.equal(
    formatProcesses(summary),
    'main  CPU 100%\nprobe not available on bun\nnote: no /proc on darwin: per-process CPU and RSS come from pidusage',
  );
  assert.equal(formatProcesses(null), '');
  assert.equal(formatProcesses({ processes: [] }), '');
});
