// The threads verdicts on synthetic evidence, at and just past each threshold: work on
// threads outside the event loop (libuv's pool) that fill the cores, a full pool with
// cores to spare, and the downstream verdict that now needs evidence of a downstream.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { threadsLimited } from '../../src/analysis/verdict-threads.js';
import { waitingOnDownstream } from '../../src/analysis/verdict-downstream.js';
import { wordFinding } from '../../src/report/diagnose-words.js';
import { OFF_LOOP_SHARE, OFF_LOOP_BUSY_CORES, MACHINE_CPU_LIMIT_PCT, POOL_BUSY_FRACTION } from '../../src/base/thresholds.js';

/**
 * A single-process server on 2 cores whose loop is idle (ELU 0.2) and slow (p50 300 ms,
 * 16 connections), its libuv pool at `poolPct` % of one core over `pool` threads.
 */
function evidence({ poolPct = 180, pool = 4, poolSize = pool, poolBusy = pool, poolWaitPct = 20, v8Pct = 2, v8WaitPct = 0, processPct = null, busyPct = 98, connections = 16, downstreams = [] } = {}) {
  return {
    mode: 'command',
    probe: true,
    probeReason: null,
    load: { mode: 'closed', rps: 50, requests: 500, attempts: 500, connections, errors: 0, errorRate: 0, statuses: {}, p50Ms: 300, p99Ms: 500, maxMs: 550 },
    generator: { elu: 0.02, cpuPct: 2, threads: 1 },
    processes: [{
      label: 'main', pid: 7, role: 'main', elu: 0.2, loopDelayP50Ms: 1, loopDelayP99Ms: 30, loopDelayMaxMs: 40,
      cpuPct: processPct ?? poolPct + v8Pct + 8, blockedFraction: 0, spawnsPerSec: 0, msPerSpawn: null, gcFraction: 0, gcPeakMsPerSec: 0,
      otherThreads: {
        count: pool + 6,
        cpuPct: poolPct + v8Pct,
        poolSize,
        kinds: {
          threadpool: { count: pool, busy: poolBusy, cpuPct: poolPct, waitPct: poolWaitPct },
          v8: { count: 5, busy: 0, cpuPct: v8Pct, waitPct: v8WaitPct },
          node: { count: 1, busy: 0, cpuPct: 0, waitPct: 0 },
        },
      },
    }],
    machine: { cores: 2, cpus: [busyPct, busyPct], busyPct },
    downstreams,
    cores: 2,
    mainThread: { pid: 7, onCpu: 0.05, waitingForCpu: 0.02, runnable: 0.07 },
    serverExit: null,
    pid: 7,
  };
}

test('the pool fills both cores: "threads-cores-full", with the cores each kind used, never a downstream wait', () => {
  const { verdict, findings } = diagnoseEvidence(evidence());
  assert.equal(verdict.id, 'threads-cores-full');
  assert.ok(!findings.some((f) => f.id === 'downstream-wait'), 'not a downstream wait as well');
  assert.equal(verdict.figures.byKind.threadpool, 1.8);
  const words = wordFinding(verdict);
  assert.match(words.title, /cores are full.*libuv threadpool 1\.8.* of 2 cores/);
  assert.match(words.evidence.join('\n'), /4 libuv threadpool threads \(UV_THREADPOOL_SIZE 4\), 4 working/);
  assert.match(words.next.join('\n'), /more threads will not help.*UV_THREADPOOL_SIZE/);
  assert.match(words.next.join('\n'), /more cores.*lower bcrypt cost.*fewer connections/);
  assert.doesNotMatch([words.title, ...words.evidence, ...words.next].join('\n'), /downstream|wait on I\/O|workers?\b/);
});

test('borderline: the threads\' share of the server\'s CPU at and under OFF_LOOP_SHARE', () => {
  // Process CPU such that the pool's and V8's are exactly OFF_LOOP_SHARE of it.
  const at = evidence({ poolPct: 80, v8Pct: 0, processPct: 80 / OFF_LOOP_SHARE });
  assert.equal(threadsLimited(at)?.id, 'threads-cores-full');
  const under = evidence({ poolPct: 80, v8Pct: 0, processPct: 80 / OFF_LOOP_SHARE + 1 });
  assert.equal(threadsLimited(under), null);
});

test('borderline: an idle server\'s threads, most of its little CPU on a full machine, are no verdict; runnable at OFF_LOOP_BUSY_CORES they are', () => {
  // Measured: V8's threads 0.07 cores of the server's 0.12, the cores full of other programs.
  assert.equal(threadsLimited(evidence({ poolPct: 0, v8Pct: 7, processPct: 12 })), null);
  assert.equal(threadsLimited(evidence({ poolPct: 40, v8Pct: 0, processPct: 60, poolWaitPct: 100 * OFF_LOOP_BUSY_CORES - 40 }))?.id, 'threads-cores-full');
  assert.equal(threadsLimited(evidence({ poolPct: 40, v8Pct: 0, processPct: 60, poolWaitPct: 100 * OFF_LOOP_BUSY_CORES - 41 })), null);
});

test('borderline: the cores at MACHINE_CPU_LIMIT_PCT are full; just under, a full pool is "threadpool-full"', () => {
  const one = { pool: 1, poolPct: 95, poolWaitPct: 0 };
  assert.equal(threadsLimited(evidence({ ...one, busyPct: MACHINE_CPU_LIMIT_PCT }))?.id, 'threads-cores-full');
  const spare = threadsLimited(evidence({ ...one, busyPct: 55 }));
  assert.equal(spare?.id, 'threadpool-full');
  assert.equal(spare.figures.trySize, 2, 'one more thread uses the idle core');
  assert.ok(Math.abs(spare.figures.idleCores - 0.9) < 1e-9);
  const words = wordFinding(spare);
  assert.match(words.title, /libuv's threadpool is full: 1 of 1 threads busy while 0\.9 cores are idle/);
  assert.match(words.next.join('\n'), /raise UV_THREADPOOL_SIZE to 2 .*at start/);
  assert.match(words.next.join('\n'), /spawnbench tune --size-env UV_THREADPOOL_SIZE --sizes 1,2,3 -- <command>/);
  assert.equal(threadsLimited(evidence({ ...one, busyPct: MACHINE_CPU_LIMIT_PCT - 0.1 }))?.id, 'threadpool-full');
});

test('borderline: a pool thread runnable at POOL_BUSY_FRACTION is busy, just under it is not; no queue, no full pool', () => {
  const pct = POOL_BUSY_FRACTION * 100;
  assert.equal(threadsLimited(evidence({ pool: 1, poolPct: pct, poolWaitPct: 0, busyPct: 55 }))?.id, 'threadpool-full');
  assert.equal(threadsLimited(evidence({ pool: 1, poolPct: pct - 1, poolWaitPct: 0, busyPct: 55 })), null);
  // As many connections as pool threads: nothing queues for the pool.
  assert.equal(threadsLimited(evidence({ pool: 2, poolPct: 190, poolWaitPct: 0, busyPct: 60, connections: 2 })), null);
  assert.equal(threadsLimited(evidence({ pool: 2, poolPct: 190, poolWaitPct: 0, busyPct: 60, connections: 3 }))?.id, 'threadpool-full');
});

test('a downstream wait needs its evidence: threads off-CPU, or outbound connections', () => {
  const idle = (cores, extra = {}) => evidence({ poolPct: cores * 100, v8Pct: 0, processPct: 10, busyPct: 20, ...extra });
  // Runnable below OFF_LOOP_BUSY_CORES the threads are mostly off-CPU: the requests wait.
  const off = waitingOnDownstream(idle(OFF_LOOP_BUSY_CORES - 0.01, { poolWaitPct: 0 }));
  assert.equal(off?.id, 'downstream-wait');
  assert.equal(off.figures.waitFrom, 'threads-off-cpu');
  assert.match(wordFinding(off).evidence.join('\n'), /threads outside the loop .* on a CPU or waiting for one 0\.49 cores' worth \(threshold < 0\.5\)/);
  assert.equal(waitingOnDownstream(idle(OFF_LOOP_BUSY_CORES, { poolWaitPct: 0 })), null, 'threads at work are not a wait');
  // A pool starved of CPU: little time on one, the rest waiting for one. Runnable, not off-CPU.
  assert.equal(waitingOnDownstream(idle(0.3, { poolWaitPct: 60 })), null, 'a starved pool is not a wait');
  // Outbound connections are a downstream, whatever the threads do.
  const db = waitingOnDownstream(idle(OFF_LOOP_BUSY_CORES, { poolWaitPct: 0, downstreams: [{ peer: '127.0.0.1:5432', name: 'postgres', connections: 10 }] }));
  assert.equal(db?.figures.waitFrom, 'downstreams');
  assert.match(wordFinding(db).evidence.join('\n'), /held 10 outbound connections/);
  // Without thread figures, the whole process's CPU decides.
  const noThreads = (cpuPct) => {
    const e = idle(0);
    e.processes[0] = { ...e.processes[0], otherThreads: null, cpuPct };
    return waitingOnDownstream(e);
  };
  assert.equal(noThreads(50)?.figures.waitFrom, 'process-off-cpu');
  assert.equal(noThreads(51), null);
});

test('off-loop work that is mostly V8\'s threads (GC, compiler) is left to gc-pressure, not called threads filling the cores', () => {
  // Measured under outside load: an allocating server's V8 threads 0.21 cores, 0.69 of its CPU,
  // runnable 1.85 cores' worth while other programs filled the cores.
  assert.equal(threadsLimited(evidence({ poolPct: 0, v8Pct: 21, v8WaitPct: 164, processPct: 30, poolWaitPct: 0, busyPct: 100, poolBusy: 0 })), null);
  // The pool's work beside a little of V8's is still the pool's.
  assert.equal(threadsLimited(evidence({ poolPct: 150, v8Pct: 20, busyPct: 98 }))?.id, 'threads-cores-full');
});

test('the cores full mostly of other programs, the main thread waiting for one: the machine is the verdict, the threads a finding after it', () => {
  // Seen (pbkdf2 on a machine shared with a test suite): libuv's pool 0.4 of 2 cores, other programs 1.6, the main
  // thread waiting for a CPU 61% of the time; the verdict was "the cores are full and the server's work runs on
  // threads outside its event loop … more cores will", above "the machine is short of CPU … the other findings are unreliable".
  const crowded = { ...evidence({ poolPct: 36, poolWaitPct: 40, v8Pct: 1, processPct: 40, busyPct: 100 }), mainThread: { pid: 7, onCpu: 0.03, waitingForCpu: 0.61, runnable: 0.64 }, otherUsers: { users: [{ name: 'node', count: 17, cores: 1.5 }], cores: 1.55 } };
  const { verdict, findings } = diagnoseEvidence(crowded);
  assert.equal(verdict.id, 'cpu-starved');
  assert.ok(findings.some((f) => f.id === 'threads-cores-full'), 'the threads are still listed');
  // The server's own threads holding most of the cores stay the verdict, waiting main thread or not.
  const own = { ...evidence(), mainThread: { pid: 7, onCpu: 0.03, waitingForCpu: 0.61, runnable: 0.64 }, otherUsers: { users: [], cores: 0.1 } };
  assert.equal(diagnoseEvidence(own).verdict.id, 'threads-cores-full');
});

test('threads on cores full mostly of other programs\' work, the main thread not waiting long: not "more threads will not help"', () => {
  // Seen by hand (wrk) beside other programs on 1.1 of 2 cores: pbkdf2 at UV_THREADPOOL_SIZE=4 195–308 req/s, at 8 264–351.
  const crowded = { ...evidence({ poolPct: 50, poolWaitPct: 40, v8Pct: 1, processPct: 55, busyPct: 100 }), otherUsers: { users: [{ name: 'node', count: 9, cores: 1.4 }], cores: 1.4 } };
  const { verdict } = diagnoseEvidence(crowded);
  assert.equal(verdict.id, 'threads-cores-full');
  const words = wordFinding(verdict);
  assert.match(words.next.join('\n'), /other programs held more of the cores than the server: more threads would win a larger share of them/);
  assert.doesNotMatch(words.next.join('\n'), /more threads will not help/);
  assert.match(words.next.join('\n'), /spawnbench tune --size-env UV_THREADPOOL_SIZE --sizes 2,4,8/);
});
