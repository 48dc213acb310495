// UV_THREADPOOL_SIZE is a knob wherever libuv's pool works, set or not (libuv's
// default is 4), and VIPS_CONCURRENCY where it is set: `run -- <command>` names the
// knob, its value this run and the value to try, with the tune that confirms it.
// Made-up runs (own-runs.js), so the advice never depends on the machine.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { resolveSizeKnob } from '../../src/analysis/size-knob.js';
import { withOtherThreads } from '../../src/analysis/server-shape.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { describeSizeKnob } from '../../src/report/own-server.js';
import { currentOf } from '../../src/report/run-advice-summary.js';
import { ownRun } from './own-runs.js';

const advise = (run) => adviseRun(adviceInput(run));
const words = (run) => adviceParagraphs(advise(run), currentOf(run));
const main = { elu: 0.2, blocked: 0, cpuPct: 10, loopCpuPct: 10, waitPct: 0 };

/**
 * A pbkdf2-like single process: its pool at `poolPct` % of one core (in the process's CPU too, as
 * /proc counts every thread of it), the cores at `cpus`.
 */
const pooled = ({ poolPct, cpus, env = {}, count = 4 }) =>
  ownRun({ pool: false, rps: 60, cpus, spawnedCpuPct: 0, env, poolThreads: { count, cpuPct: poolPct }, main: { ...main, cpuPct: poolPct + main.cpuPct } });

test('the pool fills the cores, UV_THREADPOOL_SIZE not set: the knob at its default 4, more threads will not help, and its tune', () => {
  const run = pooled({ poolPct: 185, cpus: [98, 99] });
  assert.equal(run.sizeKnob.name, 'UV_THREADPOOL_SIZE');
  assert.equal(run.sizeKnob.value, 4);
  assert.equal(run.sizeKnob.unset, true);
  assert.match(describeSizeKnob(run.sizeKnob)[0], /^size 4 from UV_THREADPOOL_SIZE, not set \(the default\)/);
  const advice = advise(run);
  const reason = advice.reasons.find((r) => r.id === 'thread-knob');
  assert.equal(reason.figures.limit, 'cores');
  // The cores are full: more threads only share them, fewer can lose some (sharp by hand: 2 threads 270 req/s, 4 threads 290).
  assert.equal(reason.figures.trySize, 4, 'the value it has');
  // 60 req/s: a step needs 200 / 60 ≈ 3.3 s for enough responses to rank, so the tune carries -d 4s.
  assert.deepEqual(advice.confirmWith.argv, ['tune', '--sizes', '1,2,3,4', '--size-env', 'UV_THREADPOOL_SIZE', '-c', '30', '-d', '4s', '--', 'node', 'server.js']);
  const text = words(run).join('\n');
  assert.match(text, /^One process is enough: the limit is the cores/);
  assert.match(text, /UV_THREADPOOL_SIZE was 4 \(not set: the default\); libuv's threadpool used 1\.9 of the 2 cores with 4 threads/);
  assert.match(text, /more threads or more processes only share them\. More cores, cheaper work per request/);
  assert.doesNotMatch(text, /No size knob was found/);
  assert.doesNotMatch(text, /nothing it runs on was saturated|the cores .* had room/i);
});

test('the cores full while one process\'s own figures left them room (other programs took them): its limit reads the cores, once', () => {
  // The process used 0.3 cores; the cores were full all the same.
  const run = ownRun({ pool: false, rps: 20, cpus: [99, 99], spawnedCpuPct: 0, poolThreads: { count: 4, cpuPct: 25 }, main: { ...main, cpuPct: 30 } });
  const advice = advise(run);
  assert.equal(advice.reasons.find((r) => r.id === 'thread-knob').figures.limit, 'cores');
  const text = words(run).join('\n');
  assert.match(text, /^One process is enough: the limit is the cores/);
  assert.doesNotMatch(text, /load offered|nothing it runs on was saturated/i);
});

test('UV_THREADPOOL_SIZE=1 with a core to spare: set it to 2 at start, and the tune sweeps 1 and 2', () => {
  const run = pooled({ poolPct: 97, cpus: [60, 50], env: { UV_THREADPOOL_SIZE: '1' }, count: 1 });
  assert.equal(run.sizeKnob.value, 1);
  assert.equal(run.sizeKnob.unset, undefined, 'set: not a default');
  const advice = advise(run);
  const reason = advice.reasons.find((r) => r.id === 'thread-knob');
  assert.equal(reason.figures.limit, 'threadpool');
  assert.equal(reason.figures.trySize, 2);
  assert.ok(!advice.reasons.some((r) => r.id === 'one-process-enough' && r.figures.limit === 'load'), 'not "nothing was saturated" beside it');
  assert.deepEqual(advice.confirmWith.argv.slice(0, 5), ['tune', '--sizes', '1,2,3,4', '--size-env', 'UV_THREADPOOL_SIZE']);
  const [headline, ...rest] = words(run);
  assert.equal(headline, 'Set UV_THREADPOOL_SIZE=2 at start (this run: 1): its threads were all busy and the cores had room.');
  assert.match(rest.join('\n'), /try UV_THREADPOOL_SIZE=2 \(read once when the pool starts: set it in the server's environment at start\)/);
  // libuv's threads are threads, never workers.
  const sentence = rest.find((line) => line.includes('UV_THREADPOOL_SIZE'));
  assert.doesNotMatch(`${headline}\n${sentence}`, /worker/i);
});

test('an idle pool is no knob, set or not; a pool that works is one whichever way it is set', () => {
  assert.equal(pooled({ poolPct: 2, cpus: [20, 20] }).sizeKnob.name, null);
  assert.equal(pooled({ poolPct: 2, cpus: [20, 20], env: { UV_THREADPOOL_SIZE: '4' } }).sizeKnob.ignored[0].why, 'threadpool-idle');
  const neither = pooled({ poolPct: 60, cpus: [40, 40] });
  assert.equal(advise(neither).reasons.find((r) => r.id === 'thread-knob').figures.limit, 'neither');
});

test('VIPS_CONCURRENCY: a knob when set; when not, where libvips\'s threads were seen working', () => {
  const set = ownRun({ pool: false, rps: 60, cpus: [50, 50], env: { VIPS_CONCURRENCY: '2' }, main });
  assert.equal(set.sizeKnob.name, 'VIPS_CONCURRENCY');
  assert.equal(set.sizeKnob.value, 2);
  assert.deepEqual(advise(set).confirmWith.argv.slice(0, 5), ['tune', '--sizes', '1,2,3,4', '--size-env', 'VIPS_CONCURRENCY']);
  const shape = { pid: 100, launchers: [], workers: [], threads: 0, kind: 'single', clusterPolicy: null, poolThreads: { count: 0, cpuTicks: 0, cpuPct: 0 } };
  const processes = [{ pid: 100, role: 'main', summary: { cpuPct: 150, otherThreads: { count: 12, cpuPct: 140, poolSize: 4, kinds: { threadpool: { count: 4, cpuPct: 3 }, libvips: { count: 2, cpuPct: 135 } } } } }];
  const seen = withOtherThreads(shape, processes);
  const knob = resolveSizeKnob({ given: null, found: null, shape: seen, command: ['node', 'thumbs.js'] });
  assert.equal(knob.name, 'VIPS_CONCURRENCY');
  assert.equal(knob.value, 2);
});

test('the pool counted from the sampler\'s kinds: its threads alone, not V8\'s', () => {
  const shape = { pid: 100, launchers: [], workers: [], threads: 0, kind: 'single', clusterPolicy: null, poolThreads: { count: 0, cpuTicks: 0, cpuPct: 0 } };
  const processes = [{ pid: 100, role: 'main', summary: { cpuPct: 190, otherThreads: { count: 10, cpuPct: 182, poolSize: 4, kinds: { threadpool: { count: 4, cpuPct: 180 }, v8: { count: 5, cpuPct: 2 } } } } }];
  const seen = withOtherThreads(shape, processes);
  assert.equal(seen.poolThreads.count, 4);
  assert.equal(seen.poolThreads.cpuPct, 180);
  assert.equal(seen.poolThreads.size, 4);
});

test('a pool thread kept off a CPU by other programs is still busy: its runnable time counts, not its CPU alone', async () => {
  const { threadKnobReason } = await import('../../src/analysis/thread-knob-advice.js');
  const knob = { kind: 'env', name: 'UV_THREADPOOL_SIZE', value: 1, seen: { kind: 'single', workers: 0, threads: 0, poolThreads: 1, poolCpuPct: 82 } };
  const input = { knob, capacity: 2, cores: 2, systemCpuPct: 74 };
  // Measured under load: the one pool thread had 0.82 of a core of CPU, and waited for one the rest of the time.
  assert.equal(threadKnobReason({ ...input, poolRunnablePct: 99 })?.figures.limit, 'threadpool');
  assert.equal(threadKnobReason({ ...input, poolRunnablePct: 99 })?.figures.trySize, 2);
  assert.equal(threadKnobReason({ ...input, poolRunnablePct: 82 })?.figures.limit, 'neither', 'off-CPU for its own reasons (I/O): not full');
  assert.equal(threadKnobReason(input)?.figures.limit, 'neither', 'without the runnable figure, its CPU decides');
});

test('the cores full, other processes holding more of them than the pool: whether more threads would be faster is not told from one run', () => {
  // Seen: pbkdf2 on 0.6 of 2 cores beside other programs on 1.1: "more threads or more processes only share them",
  // where wrk by hand in the same minutes served 195–308 req/s at UV_THREADPOOL_SIZE=4 and 264–351 at 8.
  const run = pooled({ poolPct: 60, cpus: [100, 100] });
  run.samples.otherUsers = { users: [{ name: 'node', count: 9, cores: 1.1 }], cores: 1.1 };
  const advice = advise(run);
  assert.equal(advice.reasons.find((r) => r.id === 'thread-knob').figures.sharedCores, 1.1);
  const text = words(run).join('\n');
  assert.match(text, /^Cannot tell whether more threads would be faster: the cores were full, and other processes used 1\.1 of them\./);
  assert.match(text, /UV_THREADPOOL_SIZE was 4 \(not set: the default\); libuv's threadpool used 0\.6 of the 2 cores with 4 threads, and the cores were 100% busy, other processes using 1\.1 of them: more threads would win a larger share/);
  assert.doesNotMatch(text, /only share them/);
  assert.deepEqual(advice.confirmWith.argv.slice(0, 5), ['tune', '--sizes', '1,2,3,4', '--size-env', 'UV_THREADPOOL_SIZE']);
});
