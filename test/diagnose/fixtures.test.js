// test: run alone (its verdicts read the whole machine's CPU: another test file's servers
// would be "other CPU users" and turn a verdict into cpu-starved)
// Each fixture server gets its verdict end to end: spawnbench diagnose starts it,
// loads it, stops it, and names the cause. The fixtures exaggerate their fault,
// so the cause is found on a loaded 2-core machine too: there the honest verdict
// may be "the machine is short of CPU" (the server waited for a core half of the
// time), and the fixture's fault must then be the first problem found after it.
// No retry and no skip: each test asserts, with the measured figures in the message.
// Every server's process group is proven gone afterwards. (A server started through a shell,
// whose check reads no verdict, is in through-shell.test.js, which shares the machine.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { cli, fixtureServer as server } from '../helpers/harness.js';
import { assertGroupGone } from './helpers.js';
import { faultOf, figuresOf } from './fault.js';

const SHORT = ['--duration', '1500ms', '--warmup', '300ms', '--json'];

const diagnose = (...args) => cli('diagnose', ...args);

/** One diagnose of a fixture, its process group proven gone. */
async function verdictOf(t, name, ...extra) {
  const { code, out, err } = await diagnose(...SHORT, ...extra, '--', process.execPath, server(name));
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.equal(result.kind, 'diagnose');
  await assertGroupGone(result.target.pid);
  t.diagnostic(figuresOf(result));
  return result;
}

test('cpu-burn: "blocked by JavaScript", and --cpu-prof names burnCpu as the top function', async (t) => {
  const result = await verdictOf(t, 'cpu-burn', '--cpu-prof');
  const verdict = faultOf(result);
  assert.equal(verdict.id, 'js-blocking', figuresOf(result));
  assert.ok(verdict.figures.loopDelayP99Ms >= 50);
  assert.match(verdict.next.join(' '), /--cpu-prof/);
  const profile = result.cpuProfile;
  assert.ok(profile.files.length >= 1 && existsSync(profile.top.file), 'the profile was written when the server was stopped');
  assert.ok(profile.top.functions.length <= 10);
  assert.equal(profile.top.functions[0].name, 'burnCpu');
  assert.match(profile.top.functions[0].url, /cpu-burn\.js$/);
  await rm(profile.dir, { recursive: true, force: true });
});

test('spawn-per-request: "blocked inside spawn" with the fork-pool next step', async (t) => {
  const result = await verdictOf(t, 'spawn-per-request');
  const verdict = faultOf(result);
  assert.equal(verdict.id, 'spawn-blocked', figuresOf(result));
  assert.ok(verdict.figures.blockedFraction >= 0.1);
  assert.match(verdict.next.join(' '), /spawnbench tune --strategy fork-pool/);
  // The fixture runs on this Node, whose libuv decides how it spawns (every Node release so far forks).
  const forks = process.versions.uv.split('.').map(Number)[1] < 53;
  assert.equal(verdict.figures.spawnMechanism, forks ? 'fork' : 'posix_spawn');
  assert.equal(/posix_spawn instead of fork/.test(verdict.next.join(' ')), forks);
});

test('alloc-heavy: "GC pressure"', async (t) => {
  // The fixture fills its rolling cache before it listens: before it is full, Node 24
  // collects little of the old generation and GC can stay under the 10% threshold.
  const result = await verdictOf(t, 'alloc-heavy');
  assert.equal(faultOf(result).id, 'gc-pressure', figuresOf(result));
});

/**
 * slow-downstream's one diagnose, shared by its verdict case and the text report's: the text
 * summary on stdout and the same result as JSON through --out (one run instead of two).
 */
let slowDownstreamRun = null;
function slowDownstream() {
  slowDownstreamRun ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'spawnbench-fixtures-'));
    try {
      const file = join(dir, 'result.json');
      const { code, out: text, err } = await diagnose('--duration', '1500ms', '--warmup', '300ms', '--out', file, '--', process.execPath, server('slow-downstream'));
      assert.equal(code, 0, err);
      const result = JSON.parse(readFileSync(file, 'utf8'));
      assert.equal(result.kind, 'diagnose');
      await assertGroupGone(result.target.pid);
      return { text, result };
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  })();
  return slowDownstreamRun;
}

test('slow-downstream: "waiting on I/O or a downstream"', async (t) => {
  const { result } = await slowDownstream();
  t.diagnostic(figuresOf(result));
  assert.equal(faultOf(result).id, 'downstream-wait', figuresOf(result));
  assert.ok(result.load.latency.p50Ms >= 40);
});

test('healthy: "healthy", with the capacity seen', async (t) => {
  // An open loop: 1 s at 200 req/s is 200 requests, twice the rps asserted, and no verdict reads the duration.
  // A few percent of its main thread is too light a load to scale a capacity from (or, on crowded cores, "at least").
  const result = await verdictOf(t, 'healthy', '--rate', '200', '--connections', '10', '--duration', '1s');
  const verdict = faultOf(result);
  assert.ok(['healthy', 'cpu-starved'].includes(verdict.id), `no fault of the server's own is found: ${figuresOf(result)}`);
  assert.ok(result.load.rps > 100, figuresOf(result));
  const { evidence } = result.diagnosis.verdict;
  if (verdict.id === 'healthy') assert.match(evidence.join('\n'), /capacity seen: (not known from so light a load|at least)/);
  else assert.match(evidence.join('\n'), /waited for a CPU \d+% of the time/);
});

test('the text report: verdict, evidence and next step after the figures', async () => {
  const { text } = await slowDownstream();
  // An idle server waits for nothing, so a crowded machine does not change this verdict.
  assert.match(text, /^spawnbench diagnose · '.*slow-downstream\.js' \(pid \d+\) on http:\/\/127\.0\.0\.1:\d+\//);
  assert.match(text, /Latency\s+p50 /);
  assert.match(text, /\nVerdict\s+requests wait on I\/O or a downstream/);
  assert.match(text, /next: time the calls each request waits on/);
  assert.equal(trackedGroupCount(), 0);
});
