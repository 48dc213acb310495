/**
 * Reasons from the server's own words and neighbours, on made-up figures: tune's
 * failed sizes (text, downstream jump) and its "still rising" only when no larger
 * size failed; diagnose's "the downstream refuses" and a "short of CPU" that names
 * who took the cores; the run's recommendation carrying both; untrusted texts
 * cleaned in the terminal and escaped in HTML.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { recommend } from '../../src/analysis/recommend.js';
import { wordRecommendation } from '../../src/report/tune-words.js';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { buildEvidence } from '../../src/diagnose/evidence.js';
import { wordDiagnosis } from '../../src/report/diagnose-words.js';
import { neighbourReasons } from '../../src/analysis/run-advice.js';
import { openFilesShort } from '../../src/analysis/error-reasons.js';
import { NEW_CONNECTION_CLOSE_TEXT } from '../../src/load/connection.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { formatSummary } from '../../src/report/summary.js';
import { renderHtml } from '../../src/report/html/index.js';
import { sweep } from './sweeps.js';
import { syntheticResult } from '../diagnose/synthetic.js';
import { syntheticRun } from './synthetic-runs.js';

const PG = '127.0.0.1:5432';
const TOO_MANY = 'sorry, too many clients already';
const refusals = (count) => [{ status: 500, kind: 'non2xx', count, texts: [{ text: TOO_MANY, count }], other: 0 }];
const pool = (connections) => [{ peer: PG, transport: 'tcp', name: 'postgres', pid: 77, connections, meanConnections: connections }];

/** The table: 2 workers best, 3 and 4 failing against max_connections 25. */
function databaseSweep() {
  const rps = { 1: 3840, 2: 4596, 3: 1293, 4: 708 };
  const errors = { 1: 0, 2: 0, 3: 821, 4: 991 };
  return sweep({ sizes: [1, 2, 3, 4], repeats: 1, rps: (n) => rps[n], errors: (n) => errors[n] })
    .map((s) => ({ ...s, errorTexts: s.errors ? refusals(s.errors) : [], stderr: [], downstreams: pool(Math.min(10 * s.size, 30)) }));
}

test('tune: a failed size says why, with the downstream jump, and larger pools are not asked for', () => {
  const rec = wordRecommendation(recommend(databaseSweep()));
  assert.equal(rec.size, 2);
  assert.ok(!rec.reasons.includes('still-rising'), rec.reasons.join());
  assert.deepEqual(rec.basis.failedSizes.map((f) => [f.size, f.status, f.count, f.text, f.downstream.from, f.downstream.to]), [
    [3, 500, 821, TOO_MANY, 20, 30],
    [4, 500, 991, TOO_MANY, 20, 30],
  ]);
  const text = rec.sentences.join('\n');
  assert.match(text, /^3 workers: 500 ×821 'sorry, too many clients already'; connections to postgres \(127\.0\.0\.1:5432\) 20 → 30\.$/m);
  assert.doesNotMatch(text, /still rising|larger pools/);
});

test('tune: "still rising" stays when the largest size measured did not fail', () => {
  const steps = sweep({ sizes: [1, 2, 4], repeats: 1, rps: (n) => 1000 * n });
  assert.ok(recommend(steps).reasons.includes('still-rising'));
});

test('tune: the limit sentence names a downstream that took a large share of the cores', () => {
  const steps = databaseSweep().map((s) => ({
    ...s,
    signals: { ...s.signals, systemCpuPct: 98, cores: 2, otherUsers: [{ name: 'postgres', count: 14, cores: 1.3 }] },
  }));
  const rec = wordRecommendation(recommend(steps));
  assert.match(rec.bottleneck.text, /postgres ×14 used 1\.3 of the 2 CPUs; postgres is the server's own downstream \(127\.0\.0\.1:5432\), so the server and it compete for the same CPUs/);
});

/** A diagnose result of the 4-worker API: 36% failed with PostgreSQL's words, postgres busy. */
function refusedDiagnose({ waitingForCpu = 0.6 } = {}) {
  const result = syntheticResult({ errors: 991, requests: 2753, elu: 0.5 });
  result.load.errorTexts = refusals(991);
  result.serverStderr = { lines: [{ text: `GET /: ${TOO_MANY}`, count: 991 }], other: 0, total: 991 };
  result.samples.downstreams = pool(30);
  result.samples.otherUsers = { users: [{ name: 'postgres', count: 14, cores: 1.2 }], rest: { names: 0, cores: 0 }, cores: 1.2 };
  result.machine = { cores: 2 };
  result.mainThread = { pid: 4242, onCpu: 0.3, waitingForCpu, runnable: 0.3 + waitingForCpu };
  return result;
}

test('diagnose: "the downstream refuses" quotes the database and names the downstream', () => {
  const diagnosis = wordDiagnosis(diagnoseEvidence(buildEvidence(refusedDiagnose())));
  assert.equal(diagnosis.verdict.id, 'downstream-refuses');
  assert.equal(diagnosis.verdict.where, PG);
  assert.match(diagnosis.verdict.title, /the downstream refuses: 36% of requests failed with 'sorry, too many clients already'/);
  assert.match(diagnosis.verdict.evidence.join('\n'), /30 connections to postgres \(127\.0\.0\.1:5432\)/);
});

test('diagnose: short of CPU names who took it and, for the server\'s own database, says they compete', () => {
  const diagnosis = wordDiagnosis(diagnoseEvidence(buildEvidence(refusedDiagnose())));
  const starved = diagnosis.findings.find((f) => f.id === 'cpu-starved');
  assert.match(starved.title, /short of CPU.*postgres took 1\.2 of the 2 CPUs/);
  assert.match(starved.evidence.join('\n'), /the server and its database compete for the same CPUs/);
  assert.doesNotMatch(starved.next.join('\n'), /quieter machine/);
  assert.match(starved.next.join('\n'), /size the server's pool for the CPUs postgres leaves/);
});

test('diagnose: a refusal needs errors; a busy stranger keeps the quieter-machine advice', () => {
  const calm = syntheticResult({ errors: 0 });
  calm.load.errorTexts = [];
  assert.notEqual(diagnoseEvidence(buildEvidence(calm)).verdict.id, 'downstream-refuses');
  const stranger = refusedDiagnose();
  stranger.samples.downstreams = [];
  stranger.samples.otherUsers.users = [{ name: 'ffmpeg', count: 1, cores: 1.5 }];
  const starved = wordDiagnosis(diagnoseEvidence(buildEvidence(stranger))).findings.find((f) => f.id === 'cpu-starved') ??
    wordDiagnosis(diagnoseEvidence(buildEvidence(stranger))).verdict;
  assert.match(starved.title, /ffmpeg took 1\.5/);
  assert.match(starved.next.join('\n'), /quieter machine/);
});

test('run: the recommendation carries the error text, the refusal and the other CPU users', () => {
  const input = {
    errors: 991, cores: 2, errorTexts: refusals(991), stderr: null, downstreams: pool(30),
    otherUsers: [{ name: 'postgres', count: 14, cores: 1.2 }],
  };
  const reasons = neighbourReasons(input);
  assert.deepEqual(reasons.map((r) => r.id), ['errors-why', 'other-users']);
  const text = adviceParagraphs({ size: null, policy: null, strategy: null, basis: null, confidence: null, reasons, confirmWith: null }).join('\n');
  assert.match(text, /downstream refusing the server \(postgres \(127\.0\.0\.1:5432\), 30 connections at once\): 500 ×991 'sorry, too many clients already'/);
  assert.match(text, /postgres ×14 used 1\.2 of the 2 CPUs/);
});

test('untrusted texts: escape sequences stripped in the terminal, lines bounded, <script> escaped in HTML', () => {
  const hostile = `\u001b[2J\u001b]0;pwned\u0007<script>alert(1)</script>\u001b[31m red`;
  const result = syntheticRun();
  result.load.errors = { ...result.load.errors, total: 5, non2xx: 5 };
  result.load.statuses = { ...result.load.statuses, 500: 5 };
  result.load.errorTexts = [{ status: 500, kind: 'non2xx', count: 5, texts: [{ text: hostile, count: 5 }], other: 0 }];
  result.serverStderr = { lines: [{ text: `${hostile}${'x'.repeat(5000)}`, count: 3 }], other: 0, total: 3 };
  result.samples.downstreams = [{ peer: '127.0.0.1:1', transport: 'tcp', name: '<b>db</b>', pid: 1, connections: 2, meanConnections: 2 }];
  const text = formatSummary(result);
  assert.doesNotMatch(text, /\u001b|\u0007/);
  assert.match(text, /500 ×5: <script>alert\(1\)<\/script> red/);
  for (const line of text.split('\n')) assert.ok(Buffer.byteLength(line) < 400, `a line of ${Buffer.byteLength(line)} bytes`);
  const html = renderHtml(result);
  assert.doesNotMatch(html, /<script>|<b>db<\/b>/);
  assert.match(html, /&lt;script&gt;alert\(1\)&lt;\/script&gt; red/);
  assert.doesNotMatch(html, /\u001b|\u0007/);
});

test('an other CPU user is the server\'s downstream by its processes, not by a shared name', async () => {
  const { downstreamOf } = await import('../../src/analysis/error-reasons.js');
  const downstreams = [{ peer: PG, name: 'postgres', pid: 77, connections: 20 }, { peer: '127.0.0.1:9000', name: 'node', pid: 500, connections: 1 }];
  // postgres's backends: children of the postmaster (pid 77) that listens.
  assert.equal(downstreamOf({ name: 'postgres', pids: [101, 102], parents: [77] }, downstreams)?.peer, PG);
  // Other people's node processes are not the node the server talks to.
  assert.equal(downstreamOf({ name: 'node', pids: [300, 301], parents: [1] }, downstreams), null);
  assert.equal(downstreamOf({ name: 'node', pids: [500], parents: [1] }, downstreams)?.peer, '127.0.0.1:9000');
});

test('a server whose open-files limit is below the connections, with its connections reset: the limit is named in run and diagnose, not "check --path"', () => {
  // Seen: `sh -c "ulimit -n 40; exec node server.js"` under -c 100: 70% reset ('closed before the response ended').
  const resets = [{ status: null, kind: 'reset', count: 2434, texts: [{ text: 'closed before the response ended', count: 2434 }], other: 0 }];
  const load = { connections: 100, requests: 1067, errors: { total: 2434, reset: 2434, connect: 0 } };
  const files = openFilesShort(load, { processes: null, openFiles: 40 });
  assert.deepEqual(files, { openFiles: 40, connections: 100, failed: 2434, needed: 132 });
  // Room for the connections and Node's own files, no resets, or resets below 1%: not the limit.
  assert.equal(openFilesShort(load, { processes: null, openFiles: 132 }), null);
  assert.equal(openFilesShort({ ...load, errors: { total: 0, reset: 0, connect: 0 } }, { openFiles: 40 }), null);
  assert.equal(openFilesShort({ ...load, requests: 100_000, errors: { total: 9, reset: 9, connect: 0 } }, { openFiles: 40 }), null);
  assert.equal(openFilesShort(load, null), null);

  const reasons = neighbourReasons({ errors: 2434, cores: 2, errorTexts: resets, stderr: null, downstreams: [], openFilesLimit: files });
  const text = adviceParagraphs({ size: null, policy: null, strategy: null, basis: null, confidence: null, reasons, confirmWith: null }).join(' ').replace(/\s+/g, ' ');
  assert.match(text, /The errors are the server's open-files limit \(reset ×2,434 'closed before the response ended'\): it is 40 \(ulimit -n\), too few for 100 connections/);
  assert.match(text, /ulimit -n 132 or more\), or use fewer --connections/);

  const diagnosed = syntheticResult({ requests: 1067 });
  diagnosed.load = { ...diagnosed.load, connections: 100, errors: { total: 2434, reset: 2434, non2xx: 0, mismatch: 0 }, errorTexts: resets };
  diagnosed.openFilesLimit = files;
  const { verdict } = wordDiagnosis(diagnoseEvidence(buildEvidence(diagnosed)));
  assert.equal(verdict.id, 'errors');
  assert.match(verdict.evidence.join(' '), /open-files limit is 40 \(ulimit -n\), too few for 100 connections/);
  assert.match(verdict.next.join(' '), /raise the server's open-files limit where it starts \(ulimit -n 132 or more\)/);
  assert.doesNotMatch(verdict.next.join(' '), /--path/);
});

test('a server that closes new connections unanswered while it answers others: it holds fewer connections than sent, said in run and diagnose', () => {
  // Seen: a server with server.maxConnections = 5 under -c 10: 38% reset, "Why requests failed: reset ×8,001 'closed before the response ended'", no word of the connections.
  const resets = [{ status: null, kind: 'reset', count: 8001, texts: [{ text: NEW_CONNECTION_CLOSE_TEXT, count: 8001 }], other: 0 }];
  const reasons = neighbourReasons({ errors: 8001, requests: 20907, cores: 2, errorTexts: resets, stderr: null, downstreams: [], openFilesLimit: null, load: { connections: 10 }, outcome: { succeeded: 12906 } });
  const text = adviceParagraphs({ size: null, policy: null, strategy: null, basis: null, confidence: null, reasons, confirmWith: null }).join(' ').replace(/\s+/g, ' ');
  assert.match(text, /The errors are the server closing new connections unanswered \(reset ×8,001 'closed by the server with no answer, on a new connection'\) while it answered on others: it holds fewer connections at once than the 10 it was sent .*Use fewer --connections, or raise that limit\./);
  // Nothing answered: no such word (the server may answer nobody at all).
  const none = neighbourReasons({ errors: 8001, requests: 8001, cores: 2, errorTexts: resets, stderr: null, downstreams: [], openFilesLimit: null, load: { connections: 10 }, outcome: { succeeded: 0 } });
  assert.equal(none.find((r) => r.id === 'errors-why').figures.turnedAway, null);

  const diagnosed = syntheticResult({ requests: 20907 });
  diagnosed.load = { ...diagnosed.load, connections: 10, errors: { total: 8001, reset: 8001, non2xx: 0, mismatch: 0 }, errorTexts: resets };
  const { verdict } = wordDiagnosis(diagnoseEvidence(buildEvidence(diagnosed)));
  assert.equal(verdict.id, 'errors');
  assert.match(verdict.evidence.join(' '), /it holds fewer connections at once than the 10 it was sent/);
  assert.match(verdict.next.join(' '), /use fewer --connections, or raise the limit that closes the others \(server\.maxConnections/);
  assert.doesNotMatch(verdict.next.join(' '), /--path/);
});

test('429s are the server\'s rate limit: run says what it let through and the --rate under it, diagnose says so, not "check --path"', () => {
  // Seen: a token-bucket limit at 300 req/s under -c 10: "429 ×39,605 'Too Many Requests'" and only "Fix what makes them fail".
  const limited = [{ status: 429, kind: 'non2xx', count: 39605, texts: [{ text: 'Too Many Requests', count: 39605 }], other: 0 }];
  const reasons = neighbourReasons({ errors: 39605, requests: 40508, cores: 2, errorTexts: limited, stderr: null, downstreams: [], openFilesLimit: null, load: { connections: 10 }, outcome: { succeeded: 903, succeededRps: 301 } });
  const text = adviceParagraphs({ size: null, policy: null, strategy: null, basis: null, confidence: null, reasons, confirmWith: null }).join(' ').replace(/\s+/g, ' ');
  assert.match(text, /Why requests failed: 429 ×39,605 'Too Many Requests', the server's rate limit \(it let ~301 req\/s through\): lift it for the measurement, or measure under it with --rate 270\./);

  const diagnosed = syntheticResult({ requests: 40508 });
  diagnosed.load = { ...diagnosed.load, statuses: { 200: 903, 429: 39605 }, errors: { total: 39605, reset: 0, non2xx: 39605, mismatch: 0 }, errorTexts: limited };
  const { verdict } = wordDiagnosis(diagnoseEvidence(buildEvidence(diagnosed)));
  assert.equal(verdict.id, 'errors');
  assert.match(verdict.next.join(' '), /429 is the server's rate limit, not a fault: lift it for the measurement, or measure under it with a lower --rate/);
  assert.doesNotMatch(verdict.next.join(' '), /--path/);
});

test('a Node crash in the server\'s stderr: the error\'s own line is the one said, not its location printed first', async () => {
  // Seen: "Why requests failed: reset ×31 'ECONNRESET'; its stderr said 'node:internal/fs/utils:351' ×1".
  const { topError } = await import('../../src/analysis/error-reasons.js');
  const load = { errorTexts: [{ status: null, kind: 'reset', count: 31, texts: [{ text: 'ECONNRESET', count: 31 }] }] };
  const crash = ['node:internal/fs/utils:351', '    throw err;', '    ^', 'Error: EFBIG: file too large, write', '    at Object.writeSync (node:fs:941:3)', 'Node.js v20.20.2'];
  assert.equal(topError(load, { lines: crash.map((text) => ({ text, count: 1 })) }).stderr.text, 'Error: EFBIG: file too large, write');
  // A line more frequent than the error's stays the one said.
  assert.equal(topError(load, { lines: [{ text: 'pool timeout', count: 40 }, { text: 'Error: x', count: 1 }] }).stderr.text, 'pool timeout');
});
