// Tune and compare rows whose requests mostly failed (issue 36): a WARNING line under the
// table in the text and an alarm in the HTML report, as a run's summary has; rows with a
// few errors get none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatTune, formatEvidence } from '../../src/report/tune-text.js';
import { failedSizeSentence, sizeUnit } from '../../src/report/tune-words.js';
import { formatCompare, formatCompareMarkdown } from '../../src/report/compare-text.js';
import { renderHtml } from '../../src/report/html/index.js';
import { createTune } from '../../src/tune/tune-engine.js';
import { compareTable } from '../../src/analysis/compare-table.js';
import { runsOutcome } from '../../src/analysis/request-outcome.js';
import { rowFailureWarning } from '../../src/report/outcome.js';
import { withWords } from '../../src/report/words.js';
import { fakeRuns, MACHINE, tuneBase } from '../tune/fake-run.js';

const BASE = tuneBase({ connections: 30, durationMs: 3000, warmupMs: 1000 });

async function tuneWithFailures() {
  const rps = { 1: 600, 2: 1150, 4: 1500 };
  // Size 4: 3 errors (a refused connect, a reset: no response, so req/s and p99 leave them out) for every response; size 2: 1 in 100.
  const model = (size) => ({ rps: rps[size], errors: size === 4 ? rps[size] * 3 : size === 2 ? rps[size] / 100 : 0 });
  const plan = { command: 'tune', base: BASE, sizes: [1, 2, 4], policies: ['round-robin'], repeat: 1, search: 'exhaustive', output: BASE.output };
  return withWords(await createTune(plan, { createRun: fakeRuns(model).createRun, readMachine: async () => MACHINE }).start());
}

test('tune: a size whose requests mostly failed gets a WARNING line under the table and an alarm in the HTML', async () => {
  const result = await tuneWithFailures();
  const text = formatTune(result);
  assert.match(text, /\nWARNING {4}pool 4 round-robin: 75% of requests failed \(4,500 of 6,000\); they got no response: its req\/s and p99 leave them out\n/);
  assert.doesNotMatch(text, /WARNING {4}pool [12] /, 'a few errors are not a warning');
  const html = renderHtml(result);
  assert.match(html, /<p class="alarm" role="alert">pool 4 round-robin: 75% of requests failed \(4,500 of 6,000\); they got no response: its req\/s and p99 leave them out\.<\/p>/);
});

function compareWithFailures() {
  const compare = {
    tool: 'spawnbench', format: 1, kind: 'compare', machine: MACHINE, notes: [],
    plan: { strategies: ['baseline', 'fork-pool'], workloads: ['echo'], repeat: 2, load: { connections: 30, durationMs: 5000, warmupMs: 1000, threads: 1 }, workloadInfo: { echo: { command: 'echo', args: ['hi'] } } },
    runs: [
      { workload: 'echo', strategy: 'baseline', repeat: 1, rps: 651, p99Ms: 45, errors: 3, requests: 3255, attempts: 3255, succeeded: 3252, failures: [] },
      { workload: 'echo', strategy: 'fork-pool', repeat: 1, rps: 2209, p99Ms: 1, errors: 9000, requests: 11045, attempts: 11045, succeeded: 2045, failures: [] },
      { workload: 'echo', strategy: 'baseline', repeat: 2, rps: 640, p99Ms: 46, errors: 0, requests: 3200, attempts: 3200, succeeded: 3200, failures: [] },
      { workload: 'echo', strategy: 'fork-pool', repeat: 2, rps: 2300, p99Ms: 1, errors: 11500, requests: 11500, attempts: 11500, succeeded: 0, failures: [] },
    ],
  };
  compare.rows = compareTable(compare.runs, compare.plan);
  return compare;
}

test('compare: a row whose requests mostly failed gets a WARNING line (text, Markdown) and an alarm (HTML)', () => {
  const result = compareWithFailures();
  const text = formatCompare(result);
  assert.match(text, /\nWARNING {4}fork-pool: 91% of requests failed \(20,500 of 22,545\); its req\/s and p99 count them(\n|$)/);
  assert.doesNotMatch(text, /WARNING {4}baseline/);
  assert.match(formatCompareMarkdown(result), /\n> \*\*Warning\*\* fork-pool: 91% of requests failed/);
  assert.match(renderHtml(result), /<p class="alarm" role="alert">fork-pool: 91% of requests failed \(20,500 of 22,545\); its req\/s and p99 count them\.<\/p>/);
});

test('runsOutcome: every request failed is said so; a result saved before attempts takes its errors as responses, a ceiling on the share', () => {
  assert.deepEqual(runsOutcome([{ requests: 100, errors: 100, attempts: 100, succeeded: 0 }]), { attempts: 100, failed: 100, answered: 100, failedShare: 1, mostlyFailed: true, noneSucceeded: true });
  // 10 responses and 30 errors: 75% failed if no error got a response, 100% if all 10 responses were errors.
  assert.equal(runsOutcome([{ requests: 10, errors: 30 }]).failedShare, 1);
  assert.equal(runsOutcome([{ requests: 10, errors: 30 }]).noneSucceeded, false, 'its 10 responses may have succeeded');
  assert.equal(runsOutcome([{ requests: 1000, errors: 450 }]).failedShare, 0.45);
  assert.equal(runsOutcome([{ requests: 0, errors: 30 }]).noneSucceeded, true);
  assert.equal(runsOutcome([{ failed: 'could not start', requests: 0, errors: 0 }]).mostlyFailed, false);
});

test('a row whose failures got no response (resets): its warning does not say its req/s and p99 count them', () => {
  // req/s and p99 count responses: a reset has none, so a row of 70% resets read 'its req/s and p99 count them' beside the survivors' figures.
  const resets = runsOutcome([{ requests: 3000, errors: 7000, attempts: 10_000, succeeded: 3000 }]);
  assert.equal(resets.answered, 0);
  assert.equal(rowFailureWarning('a', resets), 'a: 70% of requests failed (7,000 of 10,000); they got no response: its req/s and p99 leave them out');
  const mixed = runsOutcome([{ requests: 5000, errors: 7000, attempts: 10_000, succeeded: 3000 }]);
  assert.equal(rowFailureWarning('a', mixed), 'a: 70% of requests failed (7,000 of 10,000); its req/s and p99 count the 2,000 that got a response');
  assert.equal(rowFailureWarning('a', runsOutcome([{ requests: 10_000, errors: 7000, attempts: 10_000, succeeded: 3000 }])), 'a: 70% of requests failed (7,000 of 10,000); its req/s and p99 count them');
});

// A tune step that failed because the server crashed: its reason carries the server's stderr on the lines after
// "its stderr ends:"; the row and the sentence broke the table, or ended at "its stderr ends:" with nothing after it.
const medianStat = (median) => ({ median, min: median, max: median, n: 1 });
const CRASH = "'node segv.js' in 1 node:cluster worker exited with code 1 during the run; its stderr ends:\nspawnbench cluster: worker 515 exited (SIGSEGV); stopping the others";

test('a failed step\'s row and sentence are one line each, with the stderr line that says why', () => {
  const rec = { size: null, policy: null, bestCell: null };
  const table = formatEvidence([{ size: 1, policy: null, rps: medianStat(623), p99Ms: medianStat(71), errors: 121, failed: CRASH }], rec);
  assert.equal(table.length, 2, table.join('\n'));
  assert.match(table[1], /failed: 'node segv\.js' in 1 node:cluster worker exited with code 1 during the run; its stderr ends: spawnbench cluster: worker 515 exited \(SIGSEGV\); stopping the others$/);
  const sentence = failedSizeSentence({ size: 1, failed: CRASH, errors: 121, status: null, kind: null, count: 0, text: null, stderr: null, downstream: null });
  assert.match(sentence, /^1 worker: failed \(.*its stderr ends: spawnbench cluster: worker 515 exited \(SIGSEGV\); stopping the others\)\.$/);
  assert.doesNotMatch(sentence, /\n/);
  // tune --processes names its sizes processes, as the sentence above it does ("Every process count measured").
  const processes = failedSizeSentence({ size: 1, failed: CRASH, errors: 121, status: null, kind: null, count: 0, text: null, stderr: null, downstream: null }, sizeUnit({ knobs: { processes: true } }));
  assert.match(processes, /^1 process: failed/);
});

test('compare: a run that failed on a crash has the stderr line that says why in its warning, not "its stderr ends:)"', () => {
  const result = compareWithFailures();
  result.runs[1].failures = ["'node esc.js' exited with code 3 during the run; its stderr ends:\nboom: DATABASE_URL is not set"];
  const text = formatCompare(result);
  assert.match(text, /WARNING {4}fork-pool: 1 of 2 runs failed while measured \('node esc\.js' exited with code 3 during the run; its stderr ends: boom: DATABASE_URL is not set\)/);
});

test('tune --processes: the HTML report has the gain and "To run N processes" sentences the text has', async () => {
  const rps = { 1: 600, 2: 1150, 4: 1160 };
  const plan = { command: 'tune', base: BASE, sizes: [1, 2, 4], policies: ['round-robin'], repeat: 1, search: 'exhaustive', output: BASE.output };
  const tune = await createTune(plan, { createRun: fakeRuns((size) => ({ rps: rps[size], errors: 0 })).createRun, readMachine: async () => MACHINE }).start();
  // The same sweep as a --processes sweep of a user's server, worded as one (its sizes are processes).
  const result = { ...tune, plan: { ...tune.plan, knobs: { processes: true }, base: { ...tune.plan.base, target: { kind: 'command', command: ['node', 'api.js'], port: 3000, path: '/' } } } };
  const text = formatTune(result);
  const sentences = text.split('\n').map((line) => line.trim()).filter((line) => /^(To run 2 processes|2 processes served)/.test(line));
  assert.equal(sentences.length, 2, text);
  // The recommendation's own section, not the text summary the page also carries.
  const html = renderHtml(result).match(/<section><h2>Recommendation<\/h2>([\s\S]*?)<\/section>/)?.[1] ?? '';
  const escaped = (s) => s.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;').replaceAll('"', '&quot;').replaceAll("'", '&#39;');
  for (const sentence of sentences) assert.ok(html.includes(escaped(sentence)), `the HTML's Recommendation section lacks: ${sentence}`);
});
