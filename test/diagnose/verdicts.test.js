// The verdict rules on synthetic results (seeded noise) and on borderline values
// right at and just under each threshold.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseEvidence, THRESHOLDS } from '../../src/analysis/verdicts.js';
import { spawnBlocked } from '../../src/analysis/verdict-spawn.js';
import { gcPressure } from '../../src/analysis/verdict-gc.js';
import { jsBlocking } from '../../src/analysis/verdict-js.js';
import { waitingOnDownstream } from '../../src/analysis/verdict-downstream.js';
import { generatorLimited } from '../../src/analysis/verdict-generator.js';
import { failingRequests, spawnsSwallowed } from '../../src/analysis/verdict-errors.js';
import { cpuBoundFromOutside } from '../../src/analysis/verdict-outside.js';
import { waitingForCpu } from '../../src/analysis/verdict-starved.js';
import { buildEvidence } from '../../src/diagnose/evidence.js';
import { syntheticResult } from './synthetic.js';
import { wordDiagnosis, wordFinding } from '../../src/report/diagnose-words.js';
import * as thresholds from '../../src/base/thresholds.js';

// The rules return ids and figures; the words these tests read are made in report/.
const verdictOf = (knobs) => wordDiagnosis(diagnoseEvidence(buildEvidence(syntheticResult(knobs))));

/** Evidence with one process, every figure given (no noise), for borderline checks. */
function evidence({ process = {}, load = {}, generator = {}, probe = true, mainThread = null } = {}) {
  return {
    mode: 'command',
    probe,
    probeReason: null,
    load: { mode: 'closed', rps: 1000, requests: 10_000, attempts: 10_000, errors: 0, errorRate: 0, statuses: {}, p50Ms: 1, p99Ms: 3, maxMs: 9, ...load },
    generator: { elu: 0.3, cpuPct: 30, threads: 1, ...generator },
    processes: [{
      label: 'main', pid: 7, elu: 0.3, loopDelayP50Ms: 0.2, loopDelayP99Ms: 2, loopDelayMaxMs: 5, cpuPct: 30,
      blockedFraction: 0, spawnsPerSec: 0, msPerSpawn: null, gcFraction: 0.01, gcPeakMsPerSec: 10, ...process,
    }],
    mainThread,
    pid: 7,
  };
}

test('synthetic: a CPU-burning handler is "JS blocking the loop"', () => {
  for (const seed of [1, 2, 3]) {
    const { verdict } = verdictOf({ seed, elu: 0.99, p50Ms: 40, p99Ms: 180, maxMs: 250, cpuPct: 99, latency: { p50Ms: 300, p99Ms: 700, rps: 90 } });
    assert.equal(verdict.id, 'js-blocking', `seed ${seed}`);
    assert.match(verdict.evidence[0], /p99 1\d\d ms/);
    assert.match(verdict.next.join(' '), /--cpu-prof/);
    // It spawns nothing: more processes of it, measured by tune --processes (issue 37 item 3), and no spawn advice.
    assert.match(verdict.next.join(' '), /more processes of it, each with its own event loop, .*spawnbench tune --processes 1,2 -- <command>/);
  }
});

test('synthetic: spawn per request is "blocked in spawn", ahead of the JS stall it also causes', () => {
  const { verdict, findings } = verdictOf({ elu: 0.95, blocked: 0.38, p50Ms: 5, p99Ms: 60, maxMs: 90, cpuPct: 100, latency: { p50Ms: 40, p99Ms: 90, rps: 300 } });
  assert.equal(verdict.id, 'spawn-blocked');
  assert.match(verdict.title, /inside spawn 3\d% of the time/);
  assert.match(verdict.next.join(' '), /spawnbench tune --strategy fork-pool/);
  assert.ok(findings.some((f) => f.id === 'js-blocking'), 'JS is listed too: it holds more of the loop than spawn');
});

test('synthetic: heavy allocation is "GC pressure"', () => {
  const { verdict } = verdictOf({ elu: 0.9, gcMsPerSec: 250, p50Ms: 3, p99Ms: 30, maxMs: 60, cpuPct: 100, latency: { p50Ms: 15, p99Ms: 60, rps: 800 } });
  assert.equal(verdict.id, 'gc-pressure');
  assert.match(verdict.evidence.join('\n'), /GC pauses 2\d\.\d% of wall time/);
});

test('synthetic: a slow downstream is "waiting on I/O" with an idle loop', () => {
  const { verdict } = verdictOf({ elu: 0.05, cpuPct: 6, latency: { p50Ms: 101, p99Ms: 104, rps: 290 } });
  assert.equal(verdict.id, 'downstream-wait');
  assert.match(verdict.evidence.join('\n'), /p50 101 ms/);
});

test('synthetic: a healthy server is healthy, with the capacity seen', () => {
  const { verdict, findings } = verdictOf({ elu: 0.7, mode: 'open', latency: { p50Ms: 0.8, p99Ms: 2.5, rps: 700 } });
  assert.equal(verdict.id, 'healthy');
  assert.deepEqual(findings, []);
  assert.match(verdict.evidence.join('\n'), /capacity seen: roughly 1,\d{3} req\/s/);
});

test('healthy beside other programs that held most of the cores: the capacity is "at least" what was served, not the cores they left', () => {
  // Seen: hello-world at --rate 20 beside a test suite (other programs 2.0 of 2 cores): "capacity seen: roughly
  // 32 req/s if work grows linearly with load, where the CPU budget runs out first".
  const crowded = { ...evidence({ load: { rps: 20, requests: 61, attempts: 61, p50Ms: 1.7, p99Ms: 60 }, process: { elu: 0.03, cpuPct: 2 } }), machine: { cores: 2, cpus: [99, 100], busyPct: 99.5 } };
  const { verdict } = wordDiagnosis(diagnoseEvidence(crowded));
  assert.equal(verdict.id, 'healthy');
  assert.match(verdict.evidence.join('\n'), /capacity seen: at least 20 req\/s: other programs held [12]\.\d+ of the 2 cores, the server 0\.0\d*; how much of theirs it would take under more load is not known here/);
  // Not full, but other programs held most of what was busy: the cores they left are no bound either. Seen: a server
  // spinning 2 ms a request at --rate 100, other programs on 1.2 of 2 cores: "roughly 302 req/s … the CPU budget runs
  // out first", where a closed loop on the same machine served 438.
  const shared = { ...evidence({ load: { mode: 'open', rps: 101, requests: 202, attempts: 202, p50Ms: 3.2, p99Ms: 15.7 }, process: { elu: 0.29, cpuPct: 30 }, generator: { cpuPct: 4 } }), machine: { cores: 2, cpus: [78, 76], busyPct: 77 } };
  const sharedVerdict = wordDiagnosis(diagnoseEvidence(shared)).verdict;
  assert.equal(sharedVerdict.figures.capacityFrom, 'crowded', sharedVerdict.evidence.join('\n'));
  assert.match(sharedVerdict.evidence.join('\n'), /capacity seen: at least 101 req\/s: other programs held 1\.2 of the 2 cores, the server 0\.3/);
  // The load generator is no other program: a busy generator beside the server leaves the estimate as it was.
  const generatorOnly = { ...shared, generator: { elu: 0.9, cpuPct: 110, threads: 1 } };
  assert.notEqual(diagnoseEvidence(generatorOnly).verdict.figures.capacityFrom, 'crowded');
  // The same server on quiet cores used 3% of its main thread: too light a load to scale from.
  const quiet = { ...crowded, machine: { cores: 2, cpus: [5, 3], busyPct: 4 } };
  assert.match(wordDiagnosis(diagnoseEvidence(quiet)).verdict.evidence.join('\n'), /capacity seen: not known from so light a load/);
});

test('healthy at a light load: the capacity is not known, not a straight line from a few percent busy', () => {
  // Seen: a hello-world server that serves 43,498 req/s (diagnose -c 30, 2 cores) read "roughly 7,080 req/s if work
  // grows linearly" at --rate 1000 with its main thread 14% busy, and 1,483 at --rate 100 (7%).
  const quietCores = { cores: 2, cpus: [12, 10], busyPct: 11 };
  const light = { ...evidence({ load: { mode: 'open', rps: 1000 }, process: { role: 'main', elu: 0.14, cpuPct: 15 } }), machine: quietCores };
  const d = wordDiagnosis(diagnoseEvidence(light));
  assert.equal(d.verdict.id, 'healthy');
  assert.equal(d.verdict.figures.capacityFrom, 'light-load');
  assert.equal(d.verdict.figures.capacityRps, null, 'no capacity in --json either');
  assert.equal(Math.round(d.verdict.figures.linearRps), 7143, 'the straight line, named as such');
  assert.match(d.verdict.evidence.join('\n'), /capacity seen: not known from so light a load: 1,000 req\/s used main thread 14%.*a straight line from here \(7,143 req\/s\) can fall far short; diagnose again with more load/);
  // Busier than EXTRAPOLATE_MIN_SHARE of its limit: scaled (-c 2 read 37,350 of 43,498 at 73% busy).
  const busy = { ...evidence({ load: { rps: 27_000 }, process: { role: 'main', elu: 0.73, cpuPct: 75 } }), machine: { cores: 2, cpus: [60, 55], busyPct: 57 } };
  const scaled = wordDiagnosis(diagnoseEvidence(busy)).verdict;
  assert.equal(scaled.figures.capacityFrom, 'extrapolated');
  assert.equal(Math.round(scaled.figures.capacityRps), 36986);
  // A costly request (2.7 ms of the main thread each, at 27% busy) is scaled from a lighter load: waking is a small part of it.
  const costly = { ...evidence({ load: { mode: 'open', rps: 100 }, process: { role: 'main', elu: 0.27, cpuPct: 27 } }), machine: { cores: 2, cpus: [20, 20], busyPct: 20 } };
  const fromCostly = wordDiagnosis(diagnoseEvidence(costly)).verdict;
  assert.equal(fromCostly.figures.capacityFrom, 'extrapolated');
  assert.match(fromCostly.evidence.join('\n'), /capacity seen: roughly 370 req\/s if work grows linearly/);
  // A hello-world server's fixed cost at light load, spread over few requests, is no costly request:
  // on Node 26 at --rate 200 its main thread was 21% busy, 1.04 ms a request.
  const helloLight = { ...evidence({ load: { mode: 'open', rps: 202 }, process: { role: 'main', elu: 0.21, cpuPct: 20 } }), machine: { cores: 2, cpus: [30, 30], busyPct: 30 } };
  assert.equal(wordDiagnosis(diagnoseEvidence(helloLight)).verdict.figures.capacityFrom, 'light-load');
  // The same cost at 15% busy is too light a load.
  const costlyLight = { ...evidence({ load: { mode: 'open', rps: 50 }, process: { role: 'main', elu: 0.15, cpuPct: 15 } }), machine: { cores: 2, cpus: [12, 10], busyPct: 11 } };
  assert.equal(wordDiagnosis(diagnoseEvidence(costlyLight)).verdict.figures.capacityFrom, 'light-load');
  assert.equal(thresholds.EXTRAPOLATE_MIN_SHARE, 0.6);
});

test('synthetic: a saturated generator makes the capacity "at least"', () => {
  const { verdict, findings } = verdictOf({ elu: 0.6, generatorElu: 0.97, latency: { p50Ms: 1, p99Ms: 3, rps: 9000 } });
  assert.equal(verdict.id, 'healthy');
  assert.equal(findings[0].id, 'generator-limited');
  assert.match(verdict.evidence.join('\n'), /capacity seen: at least [89],\d{3} req\/s \(the load generator was the limit\)/);
});

test('synthetic: seen from outside, a busy CPU and slow responses are "CPU-bound", and the probe figures are listed as not seen', () => {
  const { verdict, notSeen } = verdictOf({ probe: false, cpuPct: 99, latency: { p50Ms: 60, p99Ms: 200, rps: 150 } });
  assert.equal(verdict.id, 'cpu-bound');
  assert.match(notSeen[0], /no probe in the server/);
  const idle = verdictOf({ probe: false, cpuPct: 4, latency: { p50Ms: 60, p99Ms: 70, rps: 150 } });
  assert.equal(idle.verdict.id, 'downstream-wait');
  const blind = verdictOf({ probe: false, cpuPct: null, latency: { p50Ms: 60, p99Ms: 70, rps: 150 } });
  assert.equal(blind.verdict.id, 'slow-unexplained');
  assert.match(blind.verdict.next[0], /--pid/);
  const stalls = verdictOf({ probe: false, cpuPct: null, latency: { p50Ms: 2, p99Ms: 120, rps: 900 } });
  assert.equal(stalls.verdict.id, 'slow-unexplained');
  assert.match(stalls.verdict.evidence.join('\n'), /p99 is 60× p50 \(from 5×\): a long tail/);
  assert.doesNotMatch(blind.verdict.evidence.join('\n'), /long tail/);
  const fastBlind = verdictOf({ probe: false, cpuPct: null, latency: { p50Ms: 1, p99Ms: 5, rps: 3000 } });
  assert.equal(fastBlind.verdict.id, 'healthy');
  assert.match(blind.notSeen.join('\n'), /pass its process id with --pid/);
});

test('borderline: spawn at exactly 10% fires, just under does not', () => {
  assert.equal(spawnBlocked(evidence({ process: { blockedFraction: THRESHOLDS.SPAWN_BLOCKED_FRACTION } }))?.id, 'spawn-blocked');
  assert.equal(spawnBlocked(evidence({ process: { blockedFraction: 0.0999 } })), null);
  assert.equal(spawnBlocked(evidence({ process: { blockedFraction: null } })), null);
});

test('blocked in spawn on a forking Node names a Node with posix_spawn as an option; not on one that has it, nor unknown', () => {
  const at = (spawnMechanism) => wordFinding(spawnBlocked(evidence({ process: { blockedFraction: 0.3, spawnsPerSec: 500, msPerSpawn: 0.6, spawnMechanism } })));
  const forking = at('fork');
  assert.equal(forking.figures.spawnMechanism, 'fork');
  assert.match(forking.next.join('\n'), /a Node built with libuv ≥ 1\.53 spawns with posix_spawn instead of fork/);
  for (const mechanism of ['posix_spawn', 'vfork', null]) {
    const finding = at(mechanism);
    assert.equal(finding.figures.spawnMechanism, mechanism);
    assert.doesNotMatch(finding.next.join('\n'), /posix_spawn/, String(mechanism));
  }
});

test('GC pauses are timed on the wall: the wait for a core in them is taken out, as from busy time', () => {
  // Seen: a server sharing its one CPU with a busy loop (taskset), waiting for it 48% of the time: "garbage-collection
  // pauses stall the event loop … allocate less per request" at 13% of wall time, 179 ms in a second; alone on the CPU
  // the verdict was its JavaScript.
  const shared = { pid: 7, onCpu: 0.52, waitingForCpu: 0.48, runnable: 1 };
  const process = { elu: 1, gcFraction: 0.13, gcPeakMsPerSec: 179 };
  assert.equal(gcPressure(evidence({ process, mainThread: shared })), null);
  assert.equal(gcPressure(evidence({ process }))?.id, 'gc-pressure', 'without the wait measured, as before');
  assert.equal(gcPressure(evidence({ process: { ...process, gcFraction: 0.3 }, mainThread: shared }))?.id, 'gc-pressure', 'beyond the wait, still GC');
  assert.equal(gcPressure(evidence({ process, mainThread: { ...shared, pid: 99 } }))?.id, 'gc-pressure', "another process's wait is not this one's");
});

test('borderline: GC by share (10%) or by peak (100 ms in a second)', () => {
  assert.equal(gcPressure(evidence({ process: { gcFraction: 0.1, gcPeakMsPerSec: 40 } }))?.id, 'gc-pressure');
  assert.equal(gcPressure(evidence({ process: { gcFraction: 0.03, gcPeakMsPerSec: 100 } }))?.id, 'gc-pressure');
  assert.equal(gcPressure(evidence({ process: { gcFraction: 0.0999, gcPeakMsPerSec: 99.9 } })), null);
  assert.equal(gcPressure(evidence({ process: { gcFraction: null, gcPeakMsPerSec: null } })), null);
});

test('borderline: JS blocking needs a late loop (p50 10 / p99 50 / max 100 ms) and JS as the biggest share', () => {
  const late = { elu: 0.9, loopDelayP50Ms: 1, loopDelayP99Ms: 50, loopDelayMaxMs: 60 };
  assert.equal(jsBlocking(evidence({ process: late }))?.id, 'js-blocking');
  assert.equal(jsBlocking(evidence({ process: { ...late, loopDelayP99Ms: 49.9 } })), null);
  assert.equal(jsBlocking(evidence({ process: { ...late, loopDelayP99Ms: 5, loopDelayP50Ms: 10 } }))?.id, 'js-blocking');
  assert.equal(jsBlocking(evidence({ process: { ...late, loopDelayP99Ms: 5, loopDelayMaxMs: 100 } }))?.id, 'js-blocking');
  // A periodic 150 ms block on a mostly idle loop is still JavaScript's doing…
  assert.equal(jsBlocking(evidence({ process: { elu: 0.15, loopDelayP99Ms: 20, loopDelayMaxMs: 150 } }))?.id, 'js-blocking');
  // …from 10% of the time in JS (11% here, 9.5% below); a one-off 60 ms delay on an idle loop is not.
  assert.equal(jsBlocking(evidence({ process: { elu: 0.12, gcFraction: 0.01, loopDelayP99Ms: 20, loopDelayMaxMs: 150 } }))?.id, 'js-blocking');
  assert.equal(jsBlocking(evidence({ process: { elu: 0.105, gcFraction: 0.01, loopDelayP99Ms: 20, loopDelayMaxMs: 150 } })), null);
  assert.equal(jsBlocking(evidence({ process: { elu: 0.07, loopDelayP50Ms: 0.6, loopDelayP99Ms: 60.7, loopDelayMaxMs: 60.7 } })), null);
  // The same late loop explained by spawn (more spawn than JS) is not blamed on JS.
  assert.equal(jsBlocking(evidence({ process: { ...late, elu: 0.6, blockedFraction: 0.4 } })), null);
  // Saturated but with short ticks: at capacity, not blocked.
  assert.equal(jsBlocking(evidence({ process: { elu: 0.99, loopDelayP50Ms: 0.5, loopDelayP99Ms: 4, loopDelayMaxMs: 20 } })), null);
});

test('borderline: downstream at p50 20 ms with ELU at most 0.5', () => {
  assert.equal(waitingOnDownstream(evidence({ load: { p50Ms: 20 }, process: { elu: 0.5 } }))?.id, 'downstream-wait');
  assert.equal(waitingOnDownstream(evidence({ load: { p50Ms: 19.9 }, process: { elu: 0.1 } })), null);
  assert.equal(waitingOnDownstream(evidence({ load: { p50Ms: 80 }, process: { elu: 0.51 } })), null);
  assert.equal(waitingOnDownstream(evidence({ load: { p50Ms: 80 }, process: { elu: null, cpuPct: 50 }, probe: false }))?.id, 'downstream-wait');
});

test('borderline: outside CPU-bound at 90% of a core, only without the probe', () => {
  const slow = { p50Ms: 30, p99Ms: 50 };
  assert.equal(cpuBoundFromOutside(evidence({ probe: false, load: slow, process: { elu: null, cpuPct: 90 } }))?.id, 'cpu-bound');
  assert.equal(cpuBoundFromOutside(evidence({ probe: false, load: slow, process: { elu: null, cpuPct: 89.9 } })), null);
  assert.equal(cpuBoundFromOutside(evidence({ probe: true, load: slow, process: { cpuPct: 100 } })), null);
  // On a crowded machine the main thread waits for a CPU: runnable, not idle, whatever its CPU %.
  const crowded = { pid: 7, onCpu: 0.3, waitingForCpu: 0.6, runnable: 0.9 };
  const finding = cpuBoundFromOutside(evidence({ probe: false, load: slow, mainThread: crowded, process: { elu: null, cpuPct: 30 } }));
  assert.equal(finding?.id, 'cpu-bound');
  assert.match(wordFinding(finding).evidence[0], /runnable 90% of the time: on a CPU 30%, waiting for one 60%/);
  assert.equal(waitingOnDownstream(evidence({ probe: false, load: slow, mainThread: crowded, process: { elu: null, cpuPct: 30 } })), null);
  const justUnder = { ...crowded, waitingForCpu: 0.5999, runnable: 0.8999 };
  assert.equal(cpuBoundFromOutside(evidence({ probe: false, load: slow, mainThread: justUnder })), null);
});

test('borderline: generator limited from 90% busy; errors from 1%', () => {
  assert.equal(generatorLimited(evidence({ generator: { elu: 0.9 } }))?.kind, 'limit');
  assert.equal(generatorLimited(evidence({ generator: { elu: 0.899 } })), null);
  assert.equal(failingRequests(evidence({ load: { errors: 100, attempts: 10_000, errorRate: 0.01, statuses: { 500: 100 } } }))?.id, 'errors');
  assert.equal(failingRequests(evidence({ load: { errors: 99, attempts: 10_000, errorRate: 0.0099 } })), null);
  assert.equal(failingRequests(evidence({ load: { requests: 0, attempts: 30, errors: 30, errorRate: 1 } }))?.id, 'no-responses');
});

test('spawns that failed while their requests succeeded are the verdict, ahead of "blocked in spawn" and "healthy", from 1% of the requests (issue #36)', () => {
  const failed = (count) => ({
    total: count, swallowed: count,
    failures: [{ command: 'echo', code: 'EMFILE', count, limit: 'openFiles', limitValue: 64, answered: 0, seen: count }],
  });
  // The loop blocked in the forks that failed: failed spawns win.
  const blocked = { process: { elu: 0.99, blockedFraction: 0.32, spawnsPerSec: 3900, msPerSpawn: 0.08 }, load: { rps: 3938, requests: 7876, attempts: 7876 } };
  const { verdict, findings } = diagnoseEvidence({ ...evidence(blocked), spawnFailures: failed(7876) });
  assert.equal(verdict.id, 'spawns-swallowed');
  assert.ok(findings.some((f) => f.id === 'spawn-blocked'), 'the blocked loop is listed after it');
  const words = wordFinding(verdict);
  assert.equal(words.title, 'requests "succeeded" without their command running: spawn echo failed (EMFILE ×7,876) and the server answered without an error');
  assert.match(words.evidence.join('\n'), /spawn echo: EMFILE ×7,876: the open-files limit of the process that spawns \(ulimit -n 64\) was reached/);
  assert.match(words.evidence.join('\n'), /the 3,938 req\/s and the latency are of answers without the work, not the server's real throughput/);
  assert.match(words.next[0], /^raise the open-files limit of the process that spawns \(ulimit -n\)/);
  // Otherwise healthy: still the verdict.
  assert.equal(diagnoseEvidence({ ...evidence(), spawnFailures: failed(100) }).verdict.id, 'spawns-swallowed');
  // Borderline: 1% of the 10,000 requests, and just under it; none swallowed (all passed on as errors).
  assert.equal(spawnsSwallowed({ ...evidence(), spawnFailures: failed(100) })?.id, 'spawns-swallowed');
  assert.equal(spawnsSwallowed({ ...evidence(), spawnFailures: failed(99) }), null);
  assert.equal(spawnsSwallowed({ ...evidence(), spawnFailures: { ...failed(500), swallowed: 0 } }), null);
  assert.equal(diagnoseEvidence({ ...evidence(), spawnFailures: failed(99) }).verdict.id, 'healthy');
});

test('borderline: a thread that waited for a CPU 20% of the time is flagged, and then only a median delay ≥ 10 ms is blamed on JS', () => {
  const starved = { pid: 7, onCpu: 0.2, waitingForCpu: 0.2, runnable: 0.4 };
  const preempted = { elu: 0.6, loopDelayP50Ms: 1.8, loopDelayP99Ms: 70, loopDelayMaxMs: 120 };
  assert.equal(waitingForCpu(evidence({ mainThread: starved }))?.id, 'cpu-starved');
  assert.equal(waitingForCpu(evidence({ mainThread: { ...starved, waitingForCpu: 0.1999 } })), null);
  assert.equal(jsBlocking(evidence({ mainThread: starved, process: preempted })), null);
  assert.equal(jsBlocking(evidence({ mainThread: { ...starved, waitingForCpu: 0.19 }, process: preempted }))?.id, 'js-blocking');
  assert.equal(jsBlocking(evidence({ mainThread: starved, process: { ...preempted, loopDelayP50Ms: 10 } }))?.id, 'js-blocking');
  assert.equal(jsBlocking(evidence({ mainThread: starved, process: { ...preempted, loopDelayP50Ms: 9.9 } })), null);
  // A blocked loop takes few delay samples: idle moments can pull the run-wide p50 down; the per-interval median is not fooled.
  const blockedMostly = { ...preempted, elu: 0.97, loopDelayP50Ms: 0.6, loopDelayTypicalMs: 145 };
  const found = jsBlocking(evidence({ mainThread: starved, process: blockedMostly }));
  assert.equal(found?.id, 'js-blocking');
  assert.match(wordFinding(found).evidence[0], /p50 0\.60 ms \(per-interval median 145 ms\)/);
  const { verdict, findings } = wordDiagnosis(diagnoseEvidence(evidence({ mainThread: starved, process: preempted })));
  assert.equal(verdict.id, 'healthy');
  assert.match(verdict.evidence.join('\n'), /capacity seen: at least 1,000 req\/s \(the server often waited for a CPU\)/);
  assert.deepEqual(findings.map((f) => [f.id, f.kind]), [['cpu-starved', 'limit']]);
});

test('borderline: waiting for a CPU half of the time or more is the verdict, ahead of what it distorts', () => {
  const late = { elu: 0.99, loopDelayP50Ms: 40, loopDelayP99Ms: 150, loopDelayMaxMs: 200 };
  const half = wordDiagnosis(diagnoseEvidence(evidence({ mainThread: { pid: 7, onCpu: 0.4, waitingForCpu: 0.5, runnable: 0.9 }, process: late })));
  assert.equal(half.verdict.id, 'cpu-starved');
  assert.match(half.verdict.evidence.join('\n'), /the other findings are unreliable/);
  assert.equal(half.findings[0].id, 'js-blocking');
  const under = diagnoseEvidence(evidence({ mainThread: { pid: 7, onCpu: 0.5, waitingForCpu: 0.4999, runnable: 0.9999 }, process: late }));
  assert.equal(under.verdict.id, 'js-blocking');
  assert.equal(under.findings.at(-1).id, 'cpu-starved');
});

test('a server that exited mid-run is the verdict, whatever else was seen', () => {
  const result = syntheticResult({ elu: 0.99, p50Ms: 40, p99Ms: 180, maxMs: 250 });
  result.serverExit = { code: 7, signal: null, stderr: 'starting\nboom: out of memory' };
  const { verdict, findings } = wordDiagnosis(diagnoseEvidence(buildEvidence(result)));
  assert.equal(verdict.id, 'server-exited');
  assert.equal(verdict.title, 'the server exited with code 7 during the run');
  assert.equal(verdict.evidence[0], 'its stderr ends: boom: out of memory');
  assert.equal(findings[0].id, 'js-blocking');
  // A Node crash ends in its version under the stack: it read "its stderr ends: Node.js v20.20.2".
  result.serverExit = { code: 1, signal: null, stderr: '/app/server.js:3\n  throw new Error(\'boom at 2000\');\n  ^\n\nError: boom at 2000\n    at Timeout._onTimeout (/app/server.js:3:9)\n    at listOnTimeout (node:internal/timers:573:17)\n\nNode.js v20.20.2' };
  const crashed = wordDiagnosis(diagnoseEvidence(buildEvidence(result))).verdict;
  assert.equal(crashed.evidence[0], 'its stderr said: Error: boom at 2000');
  assert.equal(crashed.figures.stderrLastLine, 'Node.js v20.20.2', 'the last line is kept in --json as it was');
});

test('a server that answered nothing for whole seconds mid-run is "paused", not healthy', () => {
  // Seen: frozen (kill -STOP, -CONT) 2.2 s of a 4 s diagnose, it read "healthy: no stall found at this load" beside a
  // max latency of 2,220 ms.
  const result = syntheticResult({ elu: 0.3, latency: { p50Ms: 0.7, p99Ms: 8.5, rps: 11754 } });
  result.load.series = [{ second: 1, requests: 23000 }, { second: 2, requests: 1000 }, { second: 3, requests: 0 }, { second: 4, requests: 23000 }];
  const { verdict } = wordDiagnosis(diagnoseEvidence(buildEvidence(result)));
  assert.equal(verdict.id, 'paused');
  assert.equal(verdict.title, 'the server answered nothing for 1 second of the 4 measured (second 3), where its other seconds answered ~23,000 each');
  assert.match(verdict.next[0], /find what stopped it/);
  // Every second answered: no pause.
  result.load.series = [{ second: 1, requests: 23000 }, { second: 2, requests: 1000 }, { second: 3, requests: 5 }, { second: 4, requests: 23000 }];
  assert.notEqual(diagnoseEvidence(buildEvidence(result)).verdict.id, 'paused');
  // Nothing answered in the first second, then ~18,000 a second: still getting ready after the warm-up, not a pause.
  result.load.series = [{ second: 1, requests: 0 }, { second: 2, requests: 18513 }, { second: 3, requests: 44761 }];
  const late = wordDiagnosis(diagnoseEvidence(buildEvidence(result))).verdict;
  assert.equal(late.id, 'paused');
  assert.equal(late.title, 'the server answered nothing in the first second of the 3 measured, where its other seconds answered ~18,513 each');
  assert.match(late.next[0], /diagnose again with a longer --warmup/);
});

test('a worker process that died while measured is the verdict: a cluster whose worker threw every 2 s read "healthy … nothing to fix at this load"', () => {
  const result = syntheticResult({ elu: 0.1, p50Ms: 1.2, p99Ms: 58, maxMs: 83, requests: 600, errors: 2 });
  assert.equal(wordDiagnosis(diagnoseEvidence(buildEvidence(result))).verdict.id, 'healthy');
  result.serverStderr = { lines: [{ text: 'file:///srv/cluster.js:38', count: 1 }, { text: "throw new Error('boom')", count: 1 }, { text: '^', count: 1 }], other: 0, total: 3 };
  result.workerDeaths = [
    { id: 1, pid: 4101, threadId: null, code: null, signal: null, atMs: 1000, replacedBy: 4102, replacedByThreadId: null },
    { id: 1, pid: 4102, threadId: null, code: null, signal: null, atMs: 3000, replacedBy: 4103, replacedByThreadId: null },
    // In the warm-up: not a death of the measured phase.
    { id: 2, pid: 4100, threadId: null, code: null, signal: null, atMs: -200, replacedBy: 4099, replacedByThreadId: null },
  ];
  const { verdict } = wordDiagnosis(diagnoseEvidence(buildEvidence(result)));
  assert.equal(verdict.id, 'worker-died');
  assert.equal(verdict.title, '2 worker processes died while measured');
  assert.equal(verdict.evidence[0], 'the first: pid 4101 (gone at 1.0 s); each was replaced by a new process');
  assert.equal(verdict.evidence[1], "its stderr says: throw new Error('boom')");
  assert.match(verdict.evidence[2], /^2 requests failed: /);
  result.workerDeaths = result.workerDeaths.slice(2);
  assert.equal(wordDiagnosis(diagnoseEvidence(buildEvidence(result))).verdict.id, 'healthy', 'a death in the warm-up only');
});

test('the thresholds in --json are the ones in src/base/thresholds.js, by the same name and value', () => {
  assert.ok(Object.keys(THRESHOLDS).length >= 18);
  for (const [name, value] of Object.entries(THRESHOLDS)) assert.equal(value, thresholds[name], name);
});

test('the rules are wordless: ids and figures, the words come from report/', () => {
  const { verdict, findings, unseen } = diagnoseEvidence(buildEvidence(syntheticResult({ probe: false, cpuPct: 99, latency: { p50Ms: 60, p99Ms: 200, rps: 150 } })));
  for (const f of [verdict, ...findings]) {
    assert.deepEqual(Object.keys(f).sort(), ['figures', 'id', 'kind', 'where'], f.id);
  }
  assert.deepEqual(unseen.map((g) => g.id), ['probe']);
});

test('borderline: a CPU quota that throttled the server in 25% of periods is the verdict, named with its CPUs', async () => {
  const { quotaThrottled } = await import('../../src/analysis/verdict-quota.js');
  const quota = { quotaCpus: 1, throttledFraction: 0.25, throttledMs: 4200, roles: ['server', 'spawnbench'], cgroup: '/bench' };
  assert.equal(quotaThrottled({ ...evidence(), quota })?.id, 'cpu-quota');
  assert.equal(quotaThrottled({ ...evidence(), quota: { ...quota, throttledFraction: 0.2499 } }), null);
  assert.equal(quotaThrottled({ ...evidence(), quota: null }), null);
  const late = { elu: 0.99, loopDelayP50Ms: 40, loopDelayP99Ms: 150, loopDelayMaxMs: 200 };
  const { verdict, findings } = wordDiagnosis(diagnoseEvidence({ ...evidence({ process: late }), quota: { ...quota, throttledFraction: 0.87 } }));
  assert.equal(verdict.id, 'cpu-quota');
  assert.match(verdict.title, /the container's CPU quota \(1\.0 CPU\) is the limit: throttled in 87% of periods/);
  assert.match(verdict.next.join('\n'), /more workers only split the same quota/);
  assert.equal(findings[0].id, 'js-blocking');
  assert.equal(THRESHOLDS.QUOTA_THROTTLED_FRACTION, thresholds.QUOTA_THROTTLED_FRACTION);
});

test('a quota\'s stops are said to last up to its own period, not always 100 ms: a 1 s period stopped the server 700 ms at a time', () => {
  const late = { elu: 1, loopDelayP50Ms: 10, loopDelayP99Ms: 672, loopDelayMaxMs: 717 };
  const quota = { quotaCpus: 0.3, throttledFraction: 1, throttledMs: 1969, roles: ['server'], cgroup: '/long' };
  const evidenceOf = (periodMs) => diagnoseEvidence({ ...evidence({ process: late }), quota: { ...quota, periodMs } });
  // cpu.cfs_period_us 1000000: it said "(up to 100 ms)" beside a loop delay p99 of 672 ms.
  const long = wordDiagnosis(evidenceOf(1000)).verdict.evidence.join('\n');
  assert.match(long, /stops until the next period \(up to 1,000 ms, its period\)/);
  assert.doesNotMatch(long, /100 ms/);
  assert.match(wordDiagnosis(evidenceOf(100)).verdict.evidence.join('\n'), /up to 100 ms, its period/);
  // A result written before the period was recorded.
  assert.match(wordDiagnosis(evidenceOf(null)).verdict.evidence.join('\n'), /up to one period, 100 ms by default/);
  // The period reaches the evidence from the sampled throttling.
  const throttled = { roles: ['server'], quotaCpus: 0.3, cgroup: '/long', periods: 3, fraction: 1, throttledMs: 1969, periodMs: 1000 };
  const result = syntheticResult({ seed: 1 });
  result.samples = { ...result.samples, throttling: [throttled] };
  assert.equal(buildEvidence(result).quota?.periodMs, 1000);
});

test('under a CPU quota that throttled the server, its wait for a CPU is the quota\'s: not "the machine is short of CPU" while the cores had room', () => {
  const quota = { quotaCpus: 0.3, throttledFraction: 1, throttledMs: 2074, roles: ['server'], cgroup: '/sw' };
  const mainThread = { pid: 7, onCpu: 0.18, waitingForCpu: 0.73, runnable: 0.91 };
  const base = { ...evidence({ mainThread }), quota, cores: 2 };
  // Cores 26% and 31% busy: it said "the machine is short of CPU … diagnose on a quieter machine … the other findings are unreliable".
  const quiet = diagnoseEvidence({ ...base, machine: { cores: 2, cpus: [26, 31], busyPct: 28.5 } });
  assert.equal(quiet.verdict.id, 'cpu-quota');
  assert.deepEqual(quiet.findings.map((f) => f.id).filter((id) => id === 'cpu-starved'), []);
  assert.equal(waitingForCpu({ ...base, machine: { cores: 2, cpus: [26, 31], busyPct: 28.5 } }), null);
  // The cores full as well: the machine is short too, and says so.
  assert.equal(waitingForCpu({ ...base, machine: { cores: 2, cpus: [97, 99], busyPct: 98 } })?.id, 'cpu-starved');
  // No quota: the wait is the machine's.
  assert.equal(waitingForCpu({ ...base, quota: null, machine: { cores: 2, cpus: [26, 31], busyPct: 28.5 } })?.id, 'cpu-starved');
});

test('requests that failed because the server\'s commands could not start (EAGAIN under ulimit -u): the finding names the limit and how to raise it', () => {
  const errorTexts = [{ status: 500, kind: 'non2xx', count: 167, texts: [{ text: 'spawn echo EAGAIN', count: 167 }], other: 0 }];
  const spawnFailures = { total: 167, failures: [{ command: 'echo', code: 'EAGAIN', count: 167, limit: 'processes', limitValue: 40 }] };
  const failing = { ...evidence({ load: { requests: 295, attempts: 295, errors: 167, errorRate: 0.57, statuses: { 200: 128, 500: 167 } } }), errorTexts };
  const words = wordDiagnosis(diagnoseEvidence({ ...failing, spawnFailures }));
  const found = [words.verdict, ...words.findings].find((f) => f.id === 'errors');
  // It said "next: look at the server's log for these requests; check --path, --method, --header and --body".
  assert.match(found.evidence.join('\n'), /its commands could not start: spawn echo: EAGAIN ×167: the process limit \(ulimit -u 40\) was reached/);
  assert.deepEqual(found.next, ['raise the process limit the server runs under (ulimit -u), or start fewer commands at once (a pool of workers)']);
  const plain = wordDiagnosis(diagnoseEvidence(failing));
  const other = [plain.verdict, ...plain.findings].find((f) => f.id === 'errors');
  assert.match(other.next[0], /check --path, --method, --header and --body/, 'without spawn failures the request is what to check');
});

test('a quota that binds spawnbench alone is a limit on the measurement, not the verdict', async () => {
  const { quotaThrottled } = await import('../../src/analysis/verdict-quota.js');
  const found = quotaThrottled({ ...evidence(), quota: { quotaCpus: 0.5, throttledFraction: 0.6, throttledMs: 900, roles: ['spawnbench'], cgroup: '/me' } });
  assert.deepEqual([found.id, found.kind], ['generator-quota', 'limit']);
  assert.match(wordFinding(found).title, /spawnbench's own CPU quota \(0\.5 CPU\) held back the load generator/);
});

test('a diagnose stopped in its warm-up, with no response measured, says it was stopped, not "the measured phase was too short"', () => {
  const stopped = syntheticResult({ requests: 0, latency: { p50Ms: null, p99Ms: null, rps: 0 } });
  stopped.plan.load.durationMs = 3000;
  stopped.stoppedEarly = true;
  const { verdict } = wordDiagnosis(diagnoseEvidence(buildEvidence(stopped)));
  assert.equal(verdict.id, 'no-responses');
  assert.match(verdict.title, /stopped early/);
  assert.match(verdict.evidence.join(' '), /stopped \(Ctrl-C or a signal\) before a response of the measured phase \(3s planned\) arrived/);
  assert.doesNotMatch([verdict.title, ...verdict.evidence, ...verdict.next].join(' '), /too short|longer --duration/);
  // Run to its end, the same result still reads as too short for its requests.
  stopped.stoppedEarly = false;
  assert.match(wordDiagnosis(diagnoseEvidence(buildEvidence(stopped))).verdict.next.join(' '), /longer --duration/);
});

test('a diagnose stopped in its warm-up is "stopped early" whatever the warm-up\'s samples show, not a verdict on 0 requests', () => {
  // Seen: Ctrl-C in the warm-up of a server spinning 2 ms a request: "Requests 0 in 0.0 s" and the verdict "the event
  // loop is blocked by JavaScript" (or "the machine is short of CPU"), with "nothing was measured" under "Also found".
  const stopped = syntheticResult({ requests: 0, elu: 0.99, p50Ms: 40, p99Ms: 180, maxMs: 250, cpuPct: 99, latency: { p50Ms: null, p99Ms: null, rps: 0 } });
  stopped.stoppedEarly = true;
  const { verdict, findings } = diagnoseEvidence(buildEvidence(stopped));
  assert.equal(verdict.id, 'no-responses');
  assert.match(wordFinding(verdict).title, /nothing was measured: the diagnose was stopped early/);
  assert.ok(findings.some((f) => f.id === 'js-blocking'), 'what the warm-up showed is still listed after it');
});

test('a main thread that waited for a core while the server\'s own threads took the cores is not "the machine is short of CPU … diagnose on a quieter machine"', () => {
  // Seen: pbkdf2 on libuv's 4 threads, 1.5 of 2 cores; the main thread waited 22%; other programs 0.2 cores.
  const starved = { pid: 7, onCpu: 0.06, waitingForCpu: 0.31, runnable: 0.37 };
  const own = { ...evidence({ mainThread: starved, process: { elu: 0.2, cpuPct: 165 }, generator: { cpuPct: 10 } }), otherUsers: { users: [{ name: 'node', count: 5, cores: 0.3 }], cores: 0.4 }, cores: 2 };
  const finding = waitingForCpu(own);
  assert.equal(finding?.id, 'cpu-starved');
  const words = wordFinding(finding);
  assert.match(words.title, /the server's own threads took the cores from its event loop/);
  assert.match(words.evidence.join(' '), /threads and processes beside its main thread used 1\.6 of the 2 CPUs, other programs \(the load generator included\) 0\.5: node ×5 used 0\.3/);
  assert.doesNotMatch(words.next.join(' '), /quieter machine, or drive/);
  // Other programs took more than the server's threads beside its loop: the machine is short of CPU, as before.
  const shared = { ...own, processes: [{ ...own.processes[0], cpuPct: 40 }], otherUsers: { users: [{ name: 'ffmpeg', count: 1, cores: 1.4 }], cores: 1.4 } };
  const sharedWords = wordFinding(waitingForCpu(shared));
  assert.match(sharedWords.title, /the machine is short of CPU \(ffmpeg took 1\.4 of the 2 CPUs\)/);
  assert.match(sharedWords.next.join(' '), /quieter machine/);
  // The cores full, and the server's 0.9 leaving 1.1 of them to others, though the processes seen add up to 0.8 (pbkdf2
  // under --url --pid): it said "a quieter machine would change little" beside the threads verdict's "other programs
  // 1.1 … diagnose on a quieter machine".
  const url = { ...own, processes: [{ ...own.processes[0], cpuPct: 90 }], otherUsers: { users: [{ name: 'node', count: 1, cores: 0.8 }], cores: 0.8 }, generator: { cpuPct: 0 }, machine: { cores: 2, busyPct: 100 } };
  const urlWords = wordFinding(waitingForCpu(url));
  assert.doesNotMatch(urlWords.title, /own threads took the cores/);
  assert.match(urlWords.next.join(' '), /quieter machine/);
  // A server that spawns per request: its commands used 0.5 of the 2 cores, other programs 0.14.
  const spawner = { ...own, processes: [{ ...own.processes[0], cpuPct: 66.5 }], mainThread: { pid: 7, onCpu: 0.47, waitingForCpu: 0.21, runnable: 0.69 }, spawnedCpuPct: 50.5, otherUsers: { users: [{ name: 'node', count: 2, cores: 0.14 }], cores: 0.14 }, generator: { cpuPct: 1.5 }, machine: { cores: 2, busyPct: 84.9 } };
  const spawnerWords = wordFinding(waitingForCpu(spawner));
  assert.match(spawnerWords.title, /the server's own threads took the cores/);
  assert.doesNotMatch(spawnerWords.next.join(' '), /quieter machine, or drive/);
});

test('no problem found in under a second measured is "too little measured", not "healthy: nothing to fix"', () => {
  // Seen: a handler burning 2 ms per request read healthy over -n 20 (0.1 s) and -d 200ms; over 1 s, "blocked by JavaScript".
  const short = evidence({ load: { measuredMs: 100, requests: 20, rps: 200 } });
  const { verdict } = wordDiagnosis(diagnoseEvidence(short));
  assert.equal(verdict.id, 'too-short');
  assert.equal(verdict.title, 'too little measured to call it healthy: 0.1 s and 20 responses');
  assert.match(verdict.next.join(' '), /diagnose again for longer: -d 10s/);
  assert.doesNotMatch([verdict.title, ...verdict.evidence, ...verdict.next].join(' '), /nothing to fix/);
  // Stopped by Ctrl-C 0.3 s into a -d 4s diagnose: it said "diagnose again for longer: -d 10s (the default)".
  const stopped = wordDiagnosis(diagnoseEvidence(evidence({ load: { measuredMs: 300, requests: 10_999, rps: 36_000, stoppedEarly: true, plannedMs: 4000 } }))).verdict;
  assert.equal(stopped.id, 'too-short');
  assert.deepEqual(stopped.next, ['it was stopped (Ctrl-C or a signal) before its end (4s planned): run it again and let it finish']);
  // A second measured (a timer's few ms short of it too), or a problem found however short: as before.
  assert.equal(diagnoseEvidence(evidence({ load: { measuredMs: 960, requests: 500 } })).verdict.id, 'healthy');
  assert.equal(diagnoseEvidence(evidence({ load: { measuredMs: 100, requests: 20, errors: 20, errorRate: 0.5, statuses: { 500: 20 } } })).verdict.id, 'errors');
});

test('blocked in spawn: the strategies are compared on the command the server spawns, not on echo', () => {
  // "compare strategies on your workload: spawnbench tune --strategy fork-pool" ran the strategies' default workload
  // (echo), not what the server spawns.
  const worded = wordFinding({ id: 'spawn-blocked', kind: 'problem', where: null, figures: { blockedFraction: 0.78, spawnsPerSec: 240, msPerSpawn: 3.25, routes: [], spawnMechanism: 'posix_spawn' } });
  const compare = worded.next.find((n) => n.includes('--strategy fork-pool'));
  assert.equal(compare, 'compare strategies on the command it spawns: spawnbench tune --strategy fork-pool --workload-cmd "<the command it spawns>"');
});

test('spawnbench itself stopped while measuring (Ctrl-Z, SIGSTOP): that is the verdict, not "healthy" on the diluted figures', () => {
  // Stopped 1.2 s of a 3 s diagnose, a server that served ~30,000 req/s read "healthy … served 10,661 req/s …
  // capacity seen: at least 10,661 req/s".
  const stopped = { ...evidence({ load: { rps: 10661, requests: 31988, attempts: 31988 } }), generatorStopped: { ms: 1222, longestMs: 1222 } };
  const { verdict } = wordDiagnosis(diagnoseEvidence(stopped));
  assert.equal(verdict.id, 'generator-stopped');
  assert.equal(verdict.title, "spawnbench itself did not run for 1.2 s while measuring: the figures are not the server's");
  assert.deepEqual(verdict.next, ['diagnose again without stopping it']);
  assert.equal(diagnoseEvidence({ ...stopped, generatorStopped: null }).verdict.id, 'healthy');
});

test('healthy under a CPU quota on the server that did not throttle yet: the quota bounds the capacity, and is named', () => {
  // Seen: a 2 ms route at 148 req/s in a 0.5-CPU v1 quota (the server only): "roughly 415 req/s … where the main thread
  // runs out first (… 0.3 of 2 cores)"; a closed loop in the same quota served 239.
  const quota = { quotaCpus: 0.5, throttledFraction: 0, throttledMs: 0, roles: ['server'], cgroup: '/q' };
  const run = { ...evidence({ load: { mode: 'open', rps: 150, requests: 300, attempts: 300, p50Ms: 2.3, p99Ms: 5.5 }, process: { role: 'main', elu: 0.36, cpuPct: 30 }, generator: { cpuPct: 6 } }), machine: { cores: 2, cpus: [25, 20], busyPct: 22 }, quota };
  const { verdict } = wordDiagnosis(diagnoseEvidence(run));
  assert.equal(verdict.id, 'healthy');
  assert.equal(verdict.figures.capacityLimit, 'cpu');
  assert.equal(Math.round(verdict.figures.capacityRps), 250);
  assert.match(verdict.evidence.join('\n'), /capacity seen: roughly 250 req\/s if work grows linearly with load, where its 0\.5-CPU quota runs out first \(150 req\/s used main thread 36%, 0\.3 of its 0\.5-CPU quota\)/);
  // A quota on spawnbench only bounds nothing of the server's.
  const own = wordDiagnosis(diagnoseEvidence({ ...run, quota: { ...quota, roles: ['spawnbench'] } })).verdict;
  assert.notEqual(own.figures.capacityLimit, 'cpu');
});

test('a process of its own that is no worker of it (a helper it started beside it) is no pool: the hand-off is not the verdict', () => {
  // Seen: sh -c 'node helper.js & exec node server.js' (the helper at a few % of a core) of a server spinning 2 ms a request: "the main thread's hand-off
  // is the limit: it is busy 100% while 1 worker process have room … more threads will not help".
  const result = syntheticResult({ elu: 1, cpuPct: 100, p50Ms: 10, p99Ms: 14, latency: { p50Ms: 20, p99Ms: 30, rps: 495 } });
  const main = result.samples.processes[0];
  const helper = structuredClone(main);
  Object.assign(helper, { key: '4300', pid: 4300, label: 'pid 4300', role: 'worker' });
  Object.assign(helper.summary, { elu: 0.05, busy: 0.05, cpuPct: 5, loopDelayP50Ms: 0.1, loopDelayP99Ms: 1, loopDelayMaxMs: 2, routes: null });
  result.samples.processes.push(helper);
  result.machine = { cores: 2, cpu: { budget: 2 } };
  result.samples.system = { cpus: [60, 50] };
  const verdictOf = (server) => wordDiagnosis(diagnoseEvidence(buildEvidence({ ...result, server }))).verdict.id;
  assert.equal(verdictOf(null), 'handoff-limited', 'with no tree read (a --url), every process of the group is taken as a worker');
  const single = { pid: 4242, launchers: [], workers: [], threads: 0, kind: 'single', clusterPolicy: null, poolThreads: { count: 4, cpuTicks: 0 } };
  assert.notEqual(verdictOf(single), 'handoff-limited');
  assert.equal(buildEvidence({ ...result, server: single }).processes.find((p) => p.pid === 4300)?.role, 'child');
  // A worker its tree names stays one.
  assert.equal(buildEvidence({ ...result, server: { ...single, workers: [4300], kind: 'processes' } }).processes.find((p) => p.pid === 4300)?.role, 'worker');
});
