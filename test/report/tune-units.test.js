// A tune names its sizes for what they are (issue 37, words that fit the server): a pool's
// workers, the processes of `tune --processes`, a thread knob's value (libuv's threads are
// not workers), in every sentence of its recommendation.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sizeUnit, recommendationSentences } from '../../src/report/tune-words.js';
import { recommend } from '../../src/analysis/recommend.js';

/** A sweep where 2 and 3 tie and 1 is slower: 2 is recommended, 3 named as a tie. */
function sweep() {
  const steps = [];
  for (const [size, rps] of [[1, 100], [2, 190], [3, 192]]) {
    for (const r of [0.98, 1, 1.02]) steps.push({ size, policy: null, repeat: 1, rps: rps * r, p50Ms: 10, p99Ms: 30, errors: 0, requests: 2000, durationMs: 10_000, partial: false });
  }
  return recommend(steps, { sizes: [1, 2, 3], policies: [null] });
}

test('sizes are named workers, processes or the thread knob\'s value, never workers for threads or processes', () => {
  const rec = sweep();
  const bottleneck = { text: 'no limit was reached', primary: null };
  const said = (plan) => recommendationSentences(rec, bottleneck, sizeUnit(plan)).join('\n');
  assert.match(said({ knobs: { sizeEnv: 'WORKERS' } }), /^Use 2 workers/);
  const processes = said({ knobs: { processes: true } });
  assert.match(processes, /^Use 2 processes/);
  assert.doesNotMatch(processes, /worker|pool/i);
  const threads = said({ knobs: { sizeEnv: 'UV_THREADPOOL_SIZE' } });
  assert.match(threads, /^Use UV_THREADPOOL_SIZE=2/);
  assert.doesNotMatch(threads, /worker/i, threads);
  assert.match(said(undefined), /^Use 2 workers/, 'a strategy\'s pool');
});
