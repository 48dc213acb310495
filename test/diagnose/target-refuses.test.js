// Refused connects are the target's: the load generator's own connects to the server
// under test that were refused (ECONNREFUSED) are "the server refuses connections"
// (target-refuses), never "the downstream refuses", whatever the server's stderr says
// when it held no outbound connection; a refusal that came back in a response body
// is still the downstream's. `diagnose --url` on a closed port says the target refuses.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { buildEvidence } from '../../src/diagnose/evidence.js';
import { wordDiagnosis } from '../../src/report/diagnose-words.js';
import { neighbourReasons } from '../../src/analysis/run-advice.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { findFreePort } from '../../src/runner/free-port.js';
import { syntheticResult } from './synthetic.js';
import { cli } from '../helpers/harness.js';
import { ownCpuPct } from '../../src/analysis/run-figures.js';

const refusedConnects = (count) => [{ status: null, kind: 'connect', count, texts: [{ text: 'ECONNREFUSED', count }], other: 0 }];

/** A diagnose whose failed requests were refused connects, its server's stderr naming a refused downstream connect. */
function refusedResult({ restarts = [], downstreams = [] } = {}) {
  const result = syntheticResult({ errors: 0 });
  result.load.errors = { total: 900, connect: 900, non2xx: 0, mismatch: 0 };
  result.load.errorTexts = refusedConnects(900);
  result.target.port = 4000;
  result.serverStderr = { lines: [{ text: 'Error: connect ECONNREFUSED 127.0.0.1:5432', count: 3 }], other: 0, total: 3 };
  result.samples.downstreams = downstreams;
  result.samples.serverRestarts = restarts;
  return result;
}

test('the generator\'s refused connects are the server\'s refusal, with its restarts by pid', () => {
  const restarts = [{ from: 11, to: 12, t: 1 }, { from: 12, to: 13, t: 2 }];
  const diagnosis = wordDiagnosis(diagnoseEvidence(buildEvidence(refusedResult({ restarts }))));
  assert.equal(diagnosis.verdict.id, 'target-refuses');
  assert.match(diagnosis.verdict.title, /^the server refuses connections: \d+% of requests failed with 'ECONNREFUSED'; the server restarted 2 times: pid 11 → 12 → 13$/);
  assert.match(diagnosis.verdict.evidence.join('\n'), /spawnbench's own connects to port 4000 were refused ×900/);
  assert.doesNotMatch(JSON.stringify(diagnosis), /downstream refuses|PgBouncer/);
  const reasons = neighbourReasons({ errors: 900, cores: 2, errorTexts: refusedConnects(900), stderr: null, downstreams: [], restarts });
  const text = adviceParagraphs({ size: null, policy: null, strategy: null, basis: null, confidence: null, reasons, confirmWith: null }).join('\n');
  assert.match(text, /the server refusing spawnbench's connects \(connect failed ×900 'ECONNREFUSED'\).*restarted 2 times: pid 11 → 12 → 13/s);
  assert.doesNotMatch(text, /downstream|Fewer workers/);
});

test('a restart seen in the process tree is the verdict below the 1% threshold too, not "healthy: nothing to fix"', () => {
  // nodemon's restart mid-run: 270 refused connects and 30 resets of 53,057 (0.6%).
  const result = refusedResult({ restarts: [{ from: 20977, to: 21009, t: 1 }] });
  result.load.requests = 52_757;
  result.load.errors = { total: 300, connect: 270, reset: 30, non2xx: 0, mismatch: 0 };
  result.load.errorTexts = [...refusedConnects(270), { status: null, kind: 'reset', count: 30, texts: [{ text: 'ECONNRESET', count: 30 }], other: 0 }];
  const diagnosis = wordDiagnosis(diagnoseEvidence(buildEvidence(result)));
  assert.equal(diagnosis.verdict.id, 'target-refuses');
  assert.match(diagnosis.verdict.title, /the server restarted 1 time: pid 20977 → 21009$/);
  assert.match(diagnosis.verdict.evidence[0], /^300 failed of 53,057 \(below the threshold 1%, named for the restart\);/);
  // The same errors without a restart stay below the threshold: no verdict of their own.
  result.samples.serverRestarts = [];
  assert.notEqual(diagnoseEvidence(buildEvidence(result)).verdict.id, 'target-refuses');
});

test('a refusal in a response, or stderr beside the server\'s own outbound connections, is still the downstream\'s', () => {
  const inBody = refusedResult();
  inBody.load.errors = { total: 900, connect: 0, non2xx: 900, mismatch: 0 };
  inBody.load.errorTexts = [{ status: 500, kind: 'non2xx', count: 900, texts: [{ text: 'connect ECONNREFUSED 127.0.0.1:5432', count: 900 }], other: 0 }];
  assert.equal(diagnoseEvidence(buildEvidence(inBody)).verdict.id, 'downstream-refuses');
  const withPool = refusedResult({ downstreams: [{ peer: '127.0.0.1:5432', transport: 'tcp', name: 'postgres', pid: 7, connections: 20 }] });
  const { verdict, findings } = diagnoseEvidence(buildEvidence(withPool));
  assert.equal(verdict.id, 'target-refuses', 'the refused connects come first');
  assert.ok(findings.some((f) => f.id === 'downstream-refuses'), 'the stderr beside its outbound connections is the downstream\'s too');
});

test('diagnose --url on a closed port: the target refuses, not a downstream', async () => {
  const port = await findFreePort();
  const { code, out } = await cli('diagnose', '--url', `http://127.0.0.1:${port}/`, '--duration', '500ms', '--warmup', '0s', '--json');
  assert.equal(code, 1);
  const { verdict } = JSON.parse(out).diagnosis;
  assert.equal(verdict.id, 'target-refuses');
  assert.match(verdict.evidence.join('\n'), new RegExp(`nothing listened on port ${port} the whole run`));
  assert.match(verdict.next.join('\n'), new RegExp(`listens on port ${port} \\(the address given to --url\\)`));
});

test('a process that lived part of the run (a server a restart replaced) adds its CPU for that part only', () => {
  const proc = (role, cpuPct, samples) => ({ role, summary: { cpuPct }, series: Array.from({ length: samples }, (_, i) => ({ t: i })) });
  const samples = { processes: [proc('main', 40, 20), proc('replaced', 80, 5), proc('replaced', 60, 10)], spawned: { cpuPct: 0 } };
  assert.equal(ownCpuPct(samples, { cpuPct: 10 }), 40 + 80 * 0.25 + 60 * 0.5 + 10);
});
