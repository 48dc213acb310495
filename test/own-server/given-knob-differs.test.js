// --size-env names a variable the server may not read (a typo: WORKERZ for WORKERS). With
// `--size-env WORKERZ --pool-size 4`, a cluster that forked its own 2 workers was recommended
// "Set WORKERZ=2 (this run: 4 workers)": 4 was the variable's value, not what ran. The given knob
// is still the one worded, and what was seen is said beside it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { resolveSizeKnob } from '../../src/analysis/size-knob.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';

const command = ['node', 'cluster.js'];
const given = (value) => ({ kind: 'env', name: 'WORKERZ', value, command });
const cluster = (n) => ({ kind: 'cluster', workers: Array.from({ length: n }, (_, i) => 100 + i), threads: 0 });
const advice = (knob) => ({ size: 2, policy: null, basis: 'model', confidence: 'low', reasons: [], knob, confirmWith: null });

test('a given variable whose value is not the workers seen: the headline says what ran', () => {
  const knob = resolveSizeKnob({ given: given(4), found: null, shape: cluster(2), command });
  assert.equal(knob.seenDiffers, 2);
  assert.equal(adviceParagraphs(advice(knob), { poolSize: knob.size })[0], 'Set WORKERZ=2 (this run: WORKERZ=4, yet 2 workers seen: check that the server reads WORKERZ).');
});

test('a given variable the workers seen agree with: worded as before', () => {
  const knob = resolveSizeKnob({ given: given(3), found: null, shape: cluster(3), command });
  assert.equal(knob.seenDiffers, undefined);
  assert.equal(adviceParagraphs(advice(knob), { poolSize: knob.size })[0], 'Set WORKERZ=2 (this run: 3 workers).');
});

test('{size} in arguments the server ignores: the headline says what ran, not the value it was given', () => {
  // Seen: run -p 4 -- node cluster.js --workers {size}, a cluster that forks 2 whatever it is told:
  // "Start it with 3 in place of {size} (this run: 4 workers)".
  const placeholder = (value) => ({ kind: 'placeholder', name: null, sizeArg: true, value, command: ['node', 'cluster.js', '--workers', '{size}'] });
  const knob = resolveSizeKnob({ given: placeholder(4), found: null, shape: cluster(2), command });
  assert.equal(knob.seenDiffers, 2);
  assert.match(adviceParagraphs(advice(knob), { poolSize: knob.size })[0], /\(this run: 4 in place of \{size\}, yet 2 workers seen: check that the server takes its size from that argument\)\.$/);
  assert.equal(resolveSizeKnob({ given: placeholder(2), found: null, shape: cluster(2), command }).seenDiffers, undefined);
});
