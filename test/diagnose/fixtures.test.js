// Each fixture server gets its verdict end to end: spawnbench diagnose starts it,
// loads it briefly, stops it, and names the cause. Runs are short and the
// fixtures exaggerate their fault, so the verdict does not depend on this
// machine's speed. Every server's process group is proven gone afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { runCli } from '../../src/cli.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { fakeIo } from '../helpers/io.js';
import { processesInGroup, waitFor } from '../helpers/processes.js';
import { unlessCrowded } from './crowded.js';

const server = (name) => fileURLToPath(new URL(`../../fixtures/servers/${name}.js`, import.meta.url));
const SHORT = ['--duration', '1500ms', '--warmup', '300ms', '--json'];

async function diagnose(...args) {
  const io = fakeIo();
  const code = await runCli(['diagnose', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

async function assertGroupGone(pgid) {
  const gone = await waitFor(() => processesInGroup(pgid).length === 0, { timeoutMs: 5000 });
  assert.ok(gone, `processes left in group ${pgid}: ${processesInGroup(pgid)}`);
  assert.equal(trackedGroupCount(), 0);
}

/** One diagnose of a fixture (repeated while the machine is too crowded to judge, see crowded.js). */
function verdictOf(t, name, ...extra) {
  return unlessCrowded(t, async () => {
    const { code, out, err } = await diagnose(...SHORT, ...extra, '--', process.execPath, server(name));
    assert.equal(code, 0, err);
    const result = JSON.parse(out);
    assert.equal(result.kind, 'diagnose');
    await assertGroupGone(result.target.pid);
    if (result.cpuProfile && result.diagnosis.verdict.id === 'cpu-starved') await rm(result.cpuProfile.dir, { recursive: true, force: true });
    return result;
  });
}

test('cpu-burn: "blocked by JavaScript", and --cpu-prof names burnCpu as the top function', async (t) => {
  const result = await verdictOf(t, 'cpu-burn', '--cpu-prof');
  if (!result) return;
  const { verdict } = result.diagnosis;
  assert.equal(verdict.id, 'js-blocking', JSON.stringify(result.diagnosis));
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
  if (!result) return;
  const { diagnosis } = result;
  assert.equal(diagnosis.verdict.id, 'spawn-blocked', JSON.stringify(diagnosis));
  assert.ok(diagnosis.verdict.figures.blockedFraction >= 0.1);
  assert.match(diagnosis.verdict.next.join(' '), /spawnbench tune --strategy fork-pool/);
  // The fixture runs on this Node, whose libuv decides how it spawns (every Node release so far forks).
  const forks = process.versions.uv.split('.').map(Number)[1] < 53;
  assert.equal(diagnosis.verdict.figures.spawnMechanism, forks ? 'fork' : 'posix_spawn');
  assert.equal(/posix_spawn instead of fork/.test(diagnosis.verdict.next.join(' ')), forks);
});

test('alloc-heavy: "GC pressure"', async (t) => {
  // A 1 s warm-up fills the fixture's rolling cache first: before it is full, Node 24
  // collects little of the old generation and GC can stay under the 10% threshold.
  const result = await verdictOf(t, 'alloc-heavy', '--warmup', '1s');
  if (!result) return;
  const { diagnosis } = result;
  assert.equal(diagnosis.verdict.id, 'gc-pressure', JSON.stringify(diagnosis));
});

test('slow-downstream: "waiting on I/O or a downstream"', async (t) => {
  const result = await verdictOf(t, 'slow-downstream');
  if (!result) return;
  const { diagnosis, load } = result;
  assert.equal(diagnosis.verdict.id, 'downstream-wait', JSON.stringify(diagnosis));
  assert.ok(load.latency.p50Ms >= 40);
});

test('healthy: "healthy", with the capacity seen', async (t) => {
  const result = await verdictOf(t, 'healthy', '--rate', '200', '--connections', '10');
  if (!result) return;
  const { diagnosis } = result;
  assert.equal(diagnosis.verdict.id, 'healthy', JSON.stringify(diagnosis));
  assert.match(diagnosis.verdict.evidence.join('\n'), /capacity seen: /);
  assert.ok(diagnosis.verdict.figures.rps > 100);
});

test('the text report: verdict, evidence and next step after the figures', async () => {
  const io = fakeIo();
  const code = await runCli(['diagnose', '--duration', '1s', '--warmup', '200ms', '--', process.execPath, server('slow-downstream')], io);
  assert.equal(code, 0, io.err());
  const text = io.out();
  // An idle server waits for nothing, so a crowded machine does not change this verdict.
  assert.match(text, /^spawnbench diagnose · '.*slow-downstream\.js' \(pid \d+\) on http:\/\/127\.0\.0\.1:\d+\//);
  assert.match(text, /Latency\s+p50 /);
  assert.match(text, /\nVerdict\s+requests wait on I\/O or a downstream/);
  assert.match(text, /next: time the calls each request waits on/);
  assert.equal(trackedGroupCount(), 0);
});

test('a server started through a shell: the probe reaches the node child, and its profile is saved before the group is killed', async () => {
  const { code, out, err } = await diagnose('--duration', '700ms', '--warmup', '0', '--json', '--cpu-prof', '--',
    '/bin/sh', '-c', `"${process.execPath}" "${server('healthy')}"`);
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.ok(result.samples.probe.available, 'probe reports from the node child');
  assert.ok(result.cpuProfile.top, `no profile in ${result.cpuProfile.dir}`);
  assert.equal(result.cpuProfile.files.length, 1, 'one profile: sh is not a Node process');
  await assertGroupGone(result.target.pid);
  await rm(result.cpuProfile.dir, { recursive: true, force: true });
});
