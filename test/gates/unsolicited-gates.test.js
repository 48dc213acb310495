// errors<=1% is a share of the requests that failed. A server that answered every request twice
// sent as many responses no request asked for (load.unsolicited, each a bad response in Errors,
// failing no request): the gate read "measured 103%" of the requests. It now reads the requests
// that failed (0%), and fails all the same, saying the stream broke.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { evaluateAssertions, gateFigures } from '../../src/analysis/assert-evaluate.js';
import { parseAssertion } from '../../src/plan/assert-expr.js';
import { formatAssertionLine } from '../../src/report/assert-text.js';
import { againstBaseline } from '../../src/analysis/against-deltas.js';

const run = (load) => ({
  kind: 'run', plan: { target: { kind: 'command', command: ['node', 'server.js'] }, load: {} }, samples: null,
  load: { durationMs: 1000, rps: load.requests, statuses: { 200: load.requests }, latency: { p50Ms: 1, p90Ms: 1, p99Ms: 2, p999Ms: 2, maxMs: 3 }, ...load },
});
const errors = (o) => ({ total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0, tls: 0, ...o });
const gate = (result, expr) => evaluateAssertions([parseAssertion(expr)], gateFigures(result))[0];

test('errors<=1% on a server that answered each request twice: 0% of requests failed, and the gate fails saying why', () => {
  const twice = run({ requests: 1073, errors: errors({ total: 1103, parse: 1103 }), unsolicited: 1103 });
  const share = gate(twice, 'errors<=1%');
  assert.deepEqual([share.measured, share.pass, share.why], [0, false, 'unsolicited']);
  assert.match(formatAssertionLine(share), /errors<=1% {2}FAIL {2}measured 0\.0% \(the server also sent responses no request asked for/);
  assert.equal(gate(twice, 'errors=0').measured, 1103, 'the count is the Errors line');
});

test('errors<=1% without unsolicited responses reads failed ÷ requests as before', () => {
  const some = run({ requests: 1000, errors: errors({ total: 10, non2xx: 10 }) });
  const share = gate(some, 'errors<=1%');
  assert.deepEqual([share.measured, share.pass, share.why], [1, true, undefined]);
});

test('--against a baseline of such a server: its share of failed requests is 0%, not 102.8%', () => {
  const twice = run({ requests: 1073, errors: errors({ total: 1103, parse: 1103 }), unsolicited: 1103, series: [] });
  const fixed = run({ requests: 1000, errors: errors(), series: [] });
  const delta = againstBaseline(fixed, twice).deltas.find((d) => d.metric === 'errors');
  assert.deepEqual([delta.before, delta.after, delta.noise.shareBefore, delta.noise.shareAfter], [1103, 0, 0, 0]);
});
