// Thread and process pools in diagnose: a saturated pool is a finding, the hand-off
// limit is named, and no capacity estimate passes what the CPU budget allows.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { poolCapacity } from '../../src/analysis/pool-capacity.js';
import { wordDiagnosis } from '../../src/report/diagnose-words.js';
import { seededRandom } from '../../strategies/lib/random.js';
import { POOL_BUSY_FRACTION, MAIN_ELU_LIMIT, MACHINE_CPU_LIMIT_PCT } from '../../src/base/thresholds.js';

/**
 * Evidence of a server with a main thread and `workers` (threads by default), every figure given.
 * `cpus`: each core's busy %; `cpuPct` of the main process covers its threads, as /proc reports it.
 */
function evidence({ rps = 1000, main = {}, workers = [], cpus = [50, 50], cores = cpus.length, spawnedCpuPct = null, load = {} } = {}) {
  const threads = workers.map((w, i) => ({
    label: `thread ${i + 1}`, pid: 7, role: 'thread', elu: w.elu ?? w.busy, busy: w.busy, busyFrom: w.busyFrom ?? 'elu', cpuPct: w.cpuPct ?? w.busy * 100,
    loopDelayP50Ms: null, loopDelayP99Ms: null, loopDelayMaxMs: null, blockedFraction: null, spawnsPerSec: null, msPerSpawn: null,
    gcFraction: null, gcPeakMsPerSec: null, ...w,
  }));
  const mainCpu = main.cpuPct ?? ((main.elu ?? 0.3) * 100 + threads.filter((t) => t.role === 'thread').reduce((s, t) => s + t.cpuPct, 0));
  return {
    mode: 'command',
    probe: true,
    probeReason: null,
    load: { mode: 'closed', rps, requests: rps * 10, attempts: rps * 10, errors: 0, errorRate: 0, statuses: {}, p50Ms: 5, p99Ms: 12, maxMs: 20, ...load },
    generator: { elu: 0.2, cpuPct: 20, threads: 1 },
    processes: [
      {
        label: 'main', pid: 7, role: 'main', elu: 0.3, busy: main.elu ?? 0.3, busyFrom: 'elu', loopDelayP50Ms: 0.2, loopDelayP99Ms: 2, loopDelayMaxMs: 5,
        blockedFraction: 0, spawnsPerSec: 0, msPerSpawn: null, gcFraction: 0.01, gcPeakMsPerSec: 5, ...main, cpuPct: mainCpu,
      },
      ...threads,
    ],
    machine: { cores, cpus },
    spawnedCpuPct,
    mainThread: null,
    pid: 7,
  };
}

test('a saturated thread pool with the cores full is a finding, not healthy: more threads will not help', () => {
  const d = wordDiagnosis(diagnoseEvidence(evidence({ main: { elu: 0.25 }, workers: [{ busy: 0.98 }, { busy: 0.98 }], cpus: [100, 100] })));
  assert.equal(d.verdict.id, 'pool-saturated');
  assert.equal(d.verdict.kind, 'problem');
  assert.equal(d.verdict.title, 'the pool is at capacity: 2 threads 98% busy, 2 cores 100%');
  assert.match(d.verdict.next[0], /more threads will not help here: the cores are full; fewer connections .* or more cores will/);
  assert.ok(d.verdict.figures.capacityRps <= 1000 * 1.001, `capacity ${d.verdict.figures.capacityRps} is what the full cores served`);
});

test('a saturated pool of worker processes is a finding too; with cores to spare the advice is a larger pool', () => {
  const workers = [0.95, 0.9].map((busy, i) => ({ label: `pid ${10 + i}`, pid: 10 + i, role: 'worker', busy, elu: busy, cpuPct: busy * 100 }));
  const full = wordDiagnosis(diagnoseEvidence(evidence({ workers, cpus: [98, 97] })));
  assert.equal(full.verdict.id, 'pool-saturated');
  assert.match(full.verdict.title, /^the pool is at capacity: 2 worker processes 93% busy/);
  // Cluster processes are named for what they are (issue 37 item 7): not "threads".
  assert.match(full.verdict.next[0], /^more processes will not help here: the cores are full/);
  const roomy = wordDiagnosis(diagnoseEvidence(evidence({ workers, cpus: [60, 50, 40, 30] })));
  assert.equal(roomy.verdict.id, 'pool-saturated');
  assert.match(roomy.verdict.title, /^the pool is the limit/);
  assert.match(roomy.verdict.next[0], /a larger pool will help/);
});

test('borderline: the pool\'s mean busy share at POOL_BUSY_FRACTION is saturated, just under is not', () => {
  const at = diagnoseEvidence(evidence({ workers: [{ busy: POOL_BUSY_FRACTION }, { busy: POOL_BUSY_FRACTION }], cpus: [100, 100] }));
  assert.equal(at.verdict.id, 'pool-saturated');
  const under = diagnoseEvidence(evidence({ workers: [{ busy: POOL_BUSY_FRACTION - 0.01 }, { busy: POOL_BUSY_FRACTION - 0.01 }], cpus: [100, 100] }));
  assert.notEqual(under.verdict.id, 'pool-saturated');
});

test('an idle helper thread beside a busy main thread is no hand-off: it took no work', () => {
  // Seen: new Worker('setInterval(()=>{},1000)', { eval: true }) beside a handler spinning 2 ms a request: "the main
  // thread's hand-off is the limit: it is busy 100% while 1 thread have room … more threads will not help".
  const idle = [{ elu: 0, busy: 0, busyFrom: 'elu', cpuPct: 0 }];
  const d = diagnoseEvidence(evidence({ main: { elu: 1 }, workers: idle, cpus: [60, 45], cores: 2 }));
  assert.notEqual(d.verdict.id, 'handoff-limited');
  assert.ok(!d.findings.some((f) => f.id === 'handoff-limited'), d.findings.map((f) => f.id).join(','));
  const fed = diagnoseEvidence(evidence({ main: { elu: 1 }, workers: [{ elu: 0.05, busy: 0.05, busyFrom: 'elu', cpuPct: 5 }], cpus: [60, 45], cores: 2 }));
  assert.equal(fed.verdict.id, 'handoff-limited');
});

test('threads waiting in Atomics.wait (ELU 1, little CPU) are not a saturated pool; a busy main thread then is the hand-off limit', () => {
  const waiting = [{ elu: 1, busy: 0.4, busyFrom: 'cpu', cpuPct: 40 }, { elu: 1, busy: 0.35, busyFrom: 'cpu', cpuPct: 35 }];
  const d = wordDiagnosis(diagnoseEvidence(evidence({ main: { elu: MAIN_ELU_LIMIT + 0.05 }, workers: waiting, cpus: [95, 90], cores: 4 })));
  assert.equal(d.verdict.id, 'handoff-limited');
  assert.match(d.verdict.title, /the main thread's hand-off is the limit: it is busy 95% while 2 threads have room/);
  assert.match(d.verdict.evidence[1], /CPU time: their ELU counted waiting for work as busy/);
  assert.match(d.verdict.next[0], /more threads will not help/);
  // The same threads under a quiet main thread: no pool finding; healthy, with room to say so
  // (the server used 1.05 of 2 cores: the cores allow 1.9×, before the pool's 2.7×).
  const quiet = wordDiagnosis(diagnoseEvidence(evidence({ main: { elu: 0.3 }, workers: waiting, cpus: [55, 50], cores: 2 })));
  assert.equal(quiet.verdict.id, 'healthy');
  assert.equal(quiet.verdict.figures.capacityLimit, 'cpu');
  assert.ok(quiet.capacity.bounds.pool > quiet.capacity.bounds.cpu);
  assert.equal(quiet.verdict.figures.next, 'raise-connections');
});

test('the seed\'s case: piscina threads busy by CPU, main ELU 0.25, cores 90%: the capacity is the cores\', not 4× the rate', () => {
  // 2,673 req/s; each thread's ELU reads 1 (Atomics.wait) but it ran 80% of the time.
  const workers = [{ elu: 1, busy: 0.8, busyFrom: 'cpu', cpuPct: 78 }, { elu: 1, busy: 0.8, busyFrom: 'cpu', cpuPct: 78 }];
  const d = wordDiagnosis(diagnoseEvidence(evidence({ rps: 2673, main: { elu: 0.25, cpuPct: 169 }, workers, cpus: [90, 90] })));
  const c = d.capacity;
  assert.ok(c.bounds.cpu !== null && c.capacityRps <= c.bounds.cpu, 'bounded by the CPU');
  assert.equal(c.limit, 'cpu');
  // The server used 1.69 cores of the 1.8 busy; 1.89 were its to use: ~2,989 req/s, not 10,692.
  assert.ok(c.capacityRps < 2673 * 1.3, `capacity ${Math.round(c.capacityRps)}`);
  assert.ok(c.capacityRps > 2673, `capacity ${Math.round(c.capacityRps)}`);
  assert.equal(d.verdict.id, 'healthy');
  assert.match(d.verdict.evidence.at(-1), /roughly 2,989 req\/s if work grows linearly with load, where the CPU budget runs out first/);
  assert.match(d.verdict.evidence.at(-1), /main thread 25%, 2 threads 80% busy, 1\.7 of 2 cores/);
});

test('no capacity estimate ever exceeds what the CPU budget allows (seeded random servers)', () => {
  const next = seededRandom(29);
  for (let i = 0; i < 500; i += 1) {
    const cores = 1 + Math.floor(next() * 8);
    const cpus = Array.from({ length: cores + Math.floor(next() * 2) }, () => next() * 100);
    const workers = Array.from({ length: Math.floor(next() * 6) }, () => {
      const busy = next();
      return next() < 0.5 ? { busy, busyFrom: 'cpu', elu: 1, cpuPct: busy * 100 } : { busy, cpuPct: busy * 100 * next() };
    });
    const rps = 10 + next() * 5000;
    const e = evidence({ rps, main: { elu: next() }, workers, cpus, cores, spawnedCpuPct: next() < 0.3 ? next() * 50 : null });
    const c = poolCapacity({ rps, processes: e.processes, cores, cpus, spawnedCpuPct: e.spawnedCpuPct });
    const d = diagnoseEvidence(e);
    const healthy = d.verdict.id === 'healthy' ? d.verdict.figures.capacityRps : null;
    if (c.bounds.cpu !== null) {
      assert.ok(c.capacityRps <= c.bounds.cpu, `case ${i}: ${c.capacityRps} > cpu bound ${c.bounds.cpu}`);
      if (healthy !== null) assert.ok(healthy <= c.bounds.cpu * 1.000001, `case ${i}: healthy ${healthy} > cpu bound ${c.bounds.cpu}`);
      // And the CPU bound itself: the server's cores per request times the rate never exceed the budget it had.
      const serverCores = c.serverCores;
      assert.ok((c.bounds.cpu / rps) * serverCores <= Math.max(cores, serverCores) + 1e-9, `case ${i}: bound needs more than ${cores} cores`);
    }
    // Cores full with no room: "raise --connections" is never the advice.
    if (d.verdict.id === 'healthy' && (c.coresBusyPct ?? 0) >= MACHINE_CPU_LIMIT_PCT && cpus.length === cores) {
      assert.ok(d.verdict.figures.capacityRps === null || d.verdict.figures.capacityRps <= rps * 1.12, `case ${i}: capacity ${d.verdict.figures.capacityRps} at ${rps} with full cores`);
    }
  }
});
