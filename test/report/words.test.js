// The words of a result are made in report/ from the analysis's ids and figures;
// a result file written with its words (every file so far) keeps them as they are.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { withWords } from '../../src/report/words.js';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { recommend } from '../../src/analysis/recommend.js';
import { buildEvidence } from '../../src/diagnose/evidence.js';
import { syntheticResult } from '../diagnose/synthetic.js';
import { sweep, CALM } from '../analysis/sweeps.js';

test('a diagnose result gets title, evidence, next and notSeen from its ids; the input is not changed', () => {
  const result = syntheticResult({ probe: false, cpuPct: 99, latency: { p50Ms: 60, p99Ms: 200, rps: 150 } });
  result.diagnosis = diagnoseEvidence(buildEvidence(result));
  const worded = withWords(result);
  assert.equal(worded.diagnosis.verdict.id, result.diagnosis.verdict.id);
  assert.equal(typeof worded.diagnosis.verdict.title, 'string');
  assert.ok(worded.diagnosis.verdict.evidence.length > 0 && worded.diagnosis.verdict.next.length > 0);
  assert.match(worded.diagnosis.notSeen.join('\n'), /no probe in the server/);
  assert.equal(result.diagnosis.verdict.title, undefined, 'the engine\'s result stays wordless');
  assert.deepEqual(withWords(worded), worded, 'wording twice changes nothing');
});

test('a result file written with its words keeps them', () => {
  const old = {
    kind: 'diagnose',
    diagnosis: {
      verdict: { id: 'healthy', kind: 'healthy', title: 'as written then', where: null, evidence: ['e'], next: ['n'], figures: {} },
      findings: [],
      notSeen: ['as written then'],
    },
  };
  assert.deepEqual(withWords(old).diagnosis, old.diagnosis);
  const tune = { kind: 'tune', recommendation: { sentences: ['as written then'], bottleneck: { text: 'then' } } };
  assert.deepEqual(withWords(tune), tune);
});

test('a tune result gets its sentences and the bottleneck its text; run and compare results pass unchanged', () => {
  const rec = recommend(sweep({ sizes: [1, 2, 4], rps: (size) => ({ 1: 300, 2: 600, 4: 1100 })[size], noise: 0.01, signals: () => ({ ...CALM, systemCpuPct: 97 }) }));
  const worded = withWords({ kind: 'tune', recommendation: rec }).recommendation;
  assert.match(worded.sentences[0], /^Use 4 workers with round-robin/);
  assert.match(worded.bottleneck.text, /^the machine is the limit \(cores 97% busy/);
  assert.match(worded.bottleneck.findings[0].text, /more workers only compete for the same cores/);
  const run = { kind: 'run', load: {} };
  assert.equal(withWords(run), run);
});

test('a sweep\'s open loop, whose pool is sized per step, does not read "over up to null connections"', async () => {
  const { describeLoad } = await import('../../src/report/describe.js');
  const load = { rate: 100, connections: null, threads: 1, requests: null, durationMs: 1000, warmupMs: 0 };
  const line = describeLoad(/** @type {any} */ (load), { per: 'step' });
  assert.doesNotMatch(line, /null|undefined|NaN/);
  assert.match(line, /^open loop at 100 req\/s, 1s after 0s warm-up per step$/);
  assert.match(describeLoad({ ...load, connections: 250 }), /open loop at 100 req\/s over up to 250 connections/);
});
