// Shares the machine with other test files: a server that waits on a downstream keeps its main
// thread idle, so it waits for a CPU a small part of the time however crowded the cores are,
// and its verdicts ("waiting on I/O or a downstream", or from outside without --pid "slow, cause
// not visible") do not turn into "the machine is short of CPU". The verdicts that need the
// cores (a CPU-bound server, spawn, GC) are in fixtures.test.js and url.test.js, which run alone.
// Every server's process group is proven gone afterwards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { processesInGroup, processesMatching } from '../helpers/processes.js';
import { cli, startFixtureServer, waitFor, fixtureServer as server } from '../helpers/harness.js';
import { faultOf, figuresOf } from './fault.js';

const diagnose = (...args) => cli('diagnose', ...args);

async function assertGroupGone(pgid) {
  await waitFor(() => processesInGroup(pgid).length === 0, { what: () => `group ${pgid} to empty: left ${processesInGroup(pgid)}` });
  assert.equal(trackedGroupCount(), 0);
}

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

test('the text report: verdict, evidence and next step after the figures', async () => {
  const { text } = await slowDownstream();
  // An idle server waits for nothing, so a crowded machine does not change this verdict.
  assert.match(text, /^spawnbench diagnose · '.*slow-downstream\.js' \(pid \d+\) on http:\/\/127\.0\.0\.1:\d+\//);
  assert.match(text, /Latency\s+p50 /);
  assert.match(text, /\nVerdict\s+requests wait on I\/O or a downstream/);
  assert.match(text, /next: time the calls each request waits on/);
  assert.equal(trackedGroupCount(), 0);
});

/** diagnose --url: the same fixture started here, on a free port, seen from outside. */
const servers = {};
before(async () => {
  servers['slow-downstream'] = await startFixtureServer('slow-downstream');
});

after(async () => {
  for (const { stop, file } of Object.values(servers)) {
    await stop();
    assert.equal(processesMatching(file).length, 0);
  }
});

async function diagnoseUrl(name, ...extra) {
  const { code, out, err } = await cli('diagnose', '--url', servers[name].url, '--duration', '1500ms', '--warmup', '300ms', '--json', ...extra);
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

test('--url without --pid: slow responses, cause not visible, and "pass --pid" as the next step', async () => {
  const result = await diagnoseUrl('slow-downstream');
  assert.equal(result.diagnosis.verdict.id, 'slow-unexplained', JSON.stringify(result.diagnosis));
  assert.match(result.diagnosis.notSeen.join('\n'), /pass its process id with --pid/);
  // --json carries the metric table's figures: those from the load, and none that need the probe.
  const metrics = Object.fromEntries(result.metrics.map((m) => [m.id, m]));
  assert.equal(metrics.rps.value, result.load.rps);
  assert.equal(metrics.p99.value, result.load.latency.p99Ms);
  assert.deepEqual(metrics['blocked-in-spawn'], { id: 'blocked-in-spawn', value: null, unit: 'fraction', better: 'lower', format: 'percent', process: null });
  assert.equal(metrics.elu.value, null);
});

test('--url with --pid of an idle server: waiting on a downstream', async () => {
  const result = await diagnoseUrl('slow-downstream', '--pid', String(servers['slow-downstream'].child.pid));
  assert.equal(result.diagnosis.verdict.id, 'downstream-wait', JSON.stringify(result.diagnosis));
});
