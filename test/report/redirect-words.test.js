import { test } from 'node:test';
import assert from 'node:assert/strict';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { wordFinding } from '../../src/report/diagnose-words.js';

test('requests that all got a redirect (/ sends to /login) say to measure the page it leads to, not only "fix what makes them fail"', () => {
  const advice = /** @type {any} */ ({ kind: 'none', why: 'errors', reasons: [{ id: 'errors-why', figures: { status: 302, kind: 'non2xx', count: 100, text: null } }] });
  const why = adviceParagraphs(advice).find((p) => p.includes('Why requests failed'));
  assert.match(why ?? '', /302 ×100, a redirect, which spawnbench does not follow: give --path the page it leads to/);
  const other = /** @type {any} */ ({ ...advice, reasons: [{ id: 'errors-why', figures: { status: 500, kind: 'non2xx', count: 100, text: null } }] });
  assert.doesNotMatch(adviceParagraphs(other).join('\n'), /redirect/);

  const finding = wordFinding(/** @type {any} */ ({ id: 'errors', kind: 'cause', where: null, figures: { errorRate: 1, errors: 100, attempts: 100, failedStatuses: { 302: 100 } } }));
  assert.match(finding.next.join('\n'), /redirects, which spawnbench does not follow: give --path the page they lead to/);
  const mixed = wordFinding(/** @type {any} */ ({ id: 'errors', kind: 'cause', where: null, figures: { errorRate: 1, errors: 100, attempts: 100, failedStatuses: { 302: 50, 500: 50 } } }));
  assert.match(mixed.next.join('\n'), /check --path, --method/);
});

test('requests the server found too large (431 headers, 413 body) say what to send instead, not only "fix what makes them fail"', () => {
  // A HAR replayed with a 20 kB cookie: "Why requests failed: 431 ×20." and nothing to do.
  const advice = /** @type {any} */ ({ kind: 'none', why: 'errors', reasons: [{ id: 'errors-why', figures: { status: 431, kind: 'non2xx', count: 20, text: '' } }] });
  const why = adviceParagraphs(advice).find((p) => p.includes('Why requests failed'));
  assert.match(why ?? '', /431 ×20.*request headers are larger than the server takes .*--max-http-header-size/);
  const body = { ...advice, reasons: [{ id: 'errors-why', figures: { status: 413, kind: 'non2xx', count: 20, text: null } }] };
  assert.match(adviceParagraphs(body).join('\n'), /request body is larger than the server takes: send a smaller --body/);
  const finding = wordFinding(/** @type {any} */ ({ id: 'errors', kind: 'cause', where: null, figures: { errorRate: 1, errors: 20, attempts: 20, failedStatuses: { 431: 20 } } }));
  assert.match(finding.next.join('\n'), /^431: its request headers are larger than the server takes/);
});

test('a single process whose connections its open-files limit closed is not told "the limit is the load offered … more connections"', () => {
  // A spawn-per-request server under ulimit -n 45 reset 12.5% of 30 connections: the headline read "One process is
  // enough: the limit is the load offered, not the server: nothing it runs on was saturated (more connections, …)".
  const filesLimit = { openFiles: 45, connections: 30, failed: 1096, needed: 62 };
  const advice = /** @type {any} */ ({ kind: 'size', size: 1, policy: null, knob: null, basis: 'one-run', confidence: 'low', reasons: [
    { id: 'one-process-enough', figures: { limit: 'load', share: null } },
    { id: 'errors-why', figures: { status: null, kind: 'reset', count: 1096, text: 'closed by the server with no answer, on a new connection', filesLimit } },
  ] });
  const [head] = adviceParagraphs(advice);
  assert.equal(head, 'One process may be enough, but the server\'s open-files limit was the limit: 45 (ulimit -n), too few for 30 connections; raise it (ulimit -n 62 or more) and run again.');
  advice.reasons[1].figures = { status: 500, kind: 'non2xx', count: 10, text: null };
  assert.match(adviceParagraphs(advice)[0], /the limit is the load offered/);
});
