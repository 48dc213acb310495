// A server that crashed as the measured phase began: the crash is the verdict, and no finding
// beside it says "the measured phase was too short … give a longer --duration" of the requests
// it never answered (diagnose of a server that stopped listening and exited with code 1 said both).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { diagnoseEvidence } from '../../src/analysis/verdicts.js';
import { buildEvidence } from '../../src/diagnose/evidence.js';
import { wordDiagnosis } from '../../src/report/diagnose-words.js';
import { syntheticResult } from './synthetic.js';

test('no response and a server that exited: the exit is the verdict, with no "too short" finding', () => {
  const result = syntheticResult({ elu: 0.05, requests: 0, errors: 0 });
  result.load.bytes = 0;
  const before = wordDiagnosis(diagnoseEvidence(buildEvidence(result)));
  assert.ok([before.verdict, ...before.findings].some((f) => f.id === 'no-responses'), 'without an exit, no response is a finding');
  result.serverExit = { code: 1, signal: null, stderr: 'Error: listen EADDRINUSE' };
  const { verdict, findings } = wordDiagnosis(diagnoseEvidence(buildEvidence(result)));
  assert.equal(verdict.id, 'server-exited');
  assert.deepEqual(findings.filter((f) => f.id === 'no-responses'), []);
  assert.doesNotMatch(JSON.stringify(findings), /too short|longer --duration/);
});
