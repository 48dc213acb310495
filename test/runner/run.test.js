// One real short run per outcome, in-process through the CLI: success, a workload
// that cannot start, strategies that crash at start, never listen, or crash mid-run.
// Each test proves the strategy's process group is empty afterwards.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { processesInGroup, processesMatching } from '../helpers/processes.js';
import { cli, waitFor } from '../helpers/harness.js';

const FIXTURE_STRATEGIES = fileURLToPath(new URL('../../fixtures/strategies/', import.meta.url));
/** An open loop at a low rate: what is checked is a run's output and its exit paths, not a saturated server's figures. */
// No warm-up and 2 s: a starved server's second-long stall cannot leave the measured phase empty
// (requests due in a warm-up and answered after it count as warm-up; see test/gates/cli.test.js).
const SHORT = ['--duration', '2s', '--warmup', '0', '--connections', '4', '--rate', '20'];

let savedPath;
before(() => {
  savedPath = process.env.SPAWNBENCH_STRATEGY_PATH;
  process.env.SPAWNBENCH_STRATEGY_PATH = FIXTURE_STRATEGIES;
});
after(() => {
  if (savedPath === undefined) delete process.env.SPAWNBENCH_STRATEGY_PATH;
  else process.env.SPAWNBENCH_STRATEGY_PATH = savedPath;
});

async function assertGroupGone(pgid) {
  await waitFor(() => processesInGroup(pgid).length === 0, { what: () => `group ${pgid} to empty: left ${processesInGroup(pgid)}` });
  assert.equal(trackedGroupCount(), 0);
}

/** A result file in a folder of its own, removed after the test. */
function resultFile(t) {
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-runner-run-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  return join(dir, 'result.json');
}

// One run each for the text and the result file: --out writes the document --json prints (the crash-mid-run cases read --json's).
test('baseline: the text summary names the strategy, rps, latency and errors; --out writes one JSON document with requests and per-kind errors', async (t) => {
  const file = resultFile(t);
  const { code, out, err } = await cli('--strategy', 'baseline', ...SHORT, '--workload', 'large', '--out', file);
  assert.equal(code, 0, err);
  assert.match(out, /strategy baseline/);
  assert.match(out, /Requests\s+[\d,]+ in [\d.]+ s\s+[\d,]+ req\/s/);
  assert.match(out, /Latency\s+p50 .* p90 .* p99 .* max/);
  assert.match(out, /Errors\s+none/);
  assert.match(out, /libuv \d+\.\d+/);
  const result = JSON.parse(readFileSync(file, 'utf8'));
  assert.equal(result.tool, 'spawnbench');
  assert.ok(result.load.requests > 0);
  assert.ok(result.load.rps > 0);
  assert.equal(result.load.errors.total, 0);
  for (const kind of ['connect', 'reset', 'timeout', 'mismatch', 'non2xx']) assert.equal(typeof result.load.errors[kind], 'number', kind);
  assert.equal(result.load.statuses['200'], result.load.requests);
  assert.ok(result.machine.libuv && result.machine.cores >= 1);
  await assertGroupGone(result.strategy.pid);
});

test('a workload command that does not exist: the run completes, 500s counted, exit 1', async (t) => {
  const file = resultFile(t);
  const { code, out } = await cli('--strategy', 'baseline', ...SHORT, '--workload-cmd', 'spawnbench-no-such-command --x', '--out', file);
  assert.equal(code, 1);
  assert.match(out, /workload command not found: spawnbench-no-such-command/);
  const result = JSON.parse(readFileSync(file, 'utf8'));
  assert.ok(result.load.statuses['500'] > 0);
  assert.equal(result.load.errors.non2xx, result.load.statuses['500']);
  assert.ok(result.failures.includes('workload command not found: spawnbench-no-such-command'));
  await assertGroupGone(result.strategy.pid);
});

test('a strategy that crashes at start: its stderr in a clear message, exit 1', async () => {
  const { code, err } = await cli('--strategy', 'crash-at-start', ...SHORT);
  assert.equal(code, 1);
  assert.match(err, /^spawnbench: strategy 'crash-at-start' exited with code 3 before it was ready; its stderr ends:\nfixture: cannot start: configuration is broken/m);
  assert.doesNotMatch(err, /\n\s+at /);
  assert.equal(trackedGroupCount(), 0);
});

test('a strategy that never reports its port times out, and is killed', async () => {
  const { code, err } = await cli('--strategy', 'never-ready', ...SHORT, '--ready-timeout', '1s');
  assert.equal(code, 1);
  assert.match(err, /strategy 'never-ready' did not report a listening port within 1s/);
  assert.equal(trackedGroupCount(), 0);
  await waitFor(() => processesMatching('fixtures/strategies/never-ready').length === 0, { what: 'never-ready to be gone' });
});

// One run for both: the crash's outcome and what --log-file records of it.
test('a strategy that crashes mid-run: the run ends with what it measured, exit 1, nothing left; --log-file records options, strategy start and stop, and its output; nothing on the terminal', async (t) => {
  const file = join(mkdtempSync(join(tmpdir(), 'spawnbench-log-')), 'run.log');
  t.after(() => rmSync(dirname(file), { recursive: true, force: true }));
  const { code, out, err } = await cli('--strategy', 'crash-mid-run', '--duration', '20s', '--warmup', '0s', '--connections', '2', '--log-file', file, '--json');
  assert.equal(code, 1);
  const result = JSON.parse(out); // stdout is still exactly one JSON document
  assert.ok(result.failures.some((f) => /strategy 'crash-mid-run' was killed by SIGKILL during the run/.test(f)), result.failures.join('\n'));
  assert.ok(result.load.durationMs < 15_000, 'the load stopped when the strategy died');
  // A server that died is not sized: its recommendation says so, not a size from the figures it left.
  assert.deepEqual(result.serverExit, { code: null, signal: 'SIGKILL' });
  assert.deepEqual(result.recommendation.reasons.map((r) => r.id).slice(0, 1), ['server-exited']);
  assert.equal(result.recommendation.size, null);
  // The fixture left a `sleep 300` child behind when it died: the group kill took it.
  await assertGroupGone(result.strategy.pid);

  assert.doesNotMatch(err, /"level"/);
  const entries = readFileSync(file, 'utf8').trim().split('\n').map((l) => JSON.parse(l));
  const messages = entries.map((e) => e.msg);
  for (const m of ['run start', 'strategy start', 'strategy ready', 'load start', 'strategy stopped', 'run done']) {
    assert.ok(messages.includes(m), `log has '${m}': ${messages.join(' | ')}`);
  }
  assert.ok(entries.find((e) => e.msg === 'run start').plan.load.connections === 2, 'options are logged');
  assert.ok(messages.includes('fixture: crashing now'), 'strategy stderr is logged');
  assert.ok(entries.some((e) => e.msg === 'strategy exited mid-run'), 'the crash is logged');
});
