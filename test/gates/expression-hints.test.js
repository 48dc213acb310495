import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAssertions } from '../../src/plan/assert-expr.js';

const refusal = (expr) => {
  try {
    parseAssertions([expr]);
  } catch (err) {
    return /** @type {Error} */ (err).message;
  }
  return 'accepted';
};

test('a gate written as the summary prints it (p99.9), with a bare point (.5s) or with == says what to write instead', () => {
  // Each read "not an assertion; write metric, comparison and value, like ...", which lists no p999.
  assert.match(refusal('p99.9<10ms'), /written p999 \(e\.g\. p999<10ms\)/);
  assert.match(refusal('p99<.5s'), /leading 0 .*p99<0\.5s/);
  assert.match(refusal('rps-change>-.5%'), /rps-change>-0\.5%/);
  assert.match(refusal('errors==0'), /one '=' \(e\.g\. errors=0\)/);
  assert.match(refusal('p50<p99'), /not an assertion/);
  // A pasted ≤ or ≥, or =< and =>, read the same "not an assertion".
  assert.match(refusal('p99≤50ms'), /write the comparison as <= or >= \(e\.g\. p99<=50ms\)/);
  assert.match(refusal('rps ≥ 100'), /\(e\.g\. rps>=100\)/);
  assert.match(refusal('p99=<50ms'), /\(e\.g\. p99<=50ms\)/);
  assert.match(refusal('rps=>100'), /\(e\.g\. rps>=100\)/);
});

test('a comma inside a number (1,000 or a decimal comma, 1,5ms) says how to write the number, not "one expression per --assert"', () => {
  assert.match(refusal('rps>=1,000'), /without separators .*\(e\.g\. rps>=1000\)$/);
  assert.match(refusal('rps>=1,000,000'), /\(e\.g\. rps>=1000000\)$/);
  assert.match(refusal('p99<1,5ms'), /with a point for decimals.*\(e\.g\. p99<1\.5ms\)$/);
  assert.match(refusal('errors<=0,5%'), /\(e\.g\. errors<=0\.5%\)$/);
  // Two gates joined by a comma are still two gates.
  assert.match(refusal('p99<50ms,rps>=100'), /one expression per --assert/);
});
