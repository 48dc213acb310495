import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTarget, startLoad } from '../../src/load/index.js';
import { buildRequest } from '../../src/load/request.js';
import { UsageError } from '../../src/base/errors.js';

test('parseTarget splits an http URL', () => {
  assert.deepEqual(parseTarget('http://127.0.0.1:3000/run?x=1'), {
    url: 'http://127.0.0.1:3000/run?x=1',
    host: '127.0.0.1',
    port: 3000,
    path: '/run?x=1',
    hostHeader: '127.0.0.1:3000',
    tls: false,
  });
  assert.equal(parseTarget('http://localhost').port, 80);
  assert.deepEqual(parseTarget('https://localhost/x'), { url: 'https://localhost/x', host: 'localhost', port: 443, path: '/x', hostHeader: 'localhost', tls: true });
  assert.equal(parseTarget('http://[::1]:8080/').host, '::1');
});

test('parseTarget rejects what is not an http or https URL, in one line naming --url', () => {
  for (const bad of ['127.0.0.1:3000', 'ftp://x/', '', 'http://user:pw@host/', 'https://user:pw@host/']) {
    assert.throws(() => parseTarget(bad), (error) => {
      assert.ok(error instanceof UsageError);
      assert.match(error.message, /^--url must/);
      assert.doesNotMatch(error.message, /\n/);
      return true;
    });
  }
});

test('startLoad checks its options before starting anything', () => {
  assert.throws(() => startLoad({ url: 'nope' }), UsageError);
  assert.throws(() => startLoad({ url: 'http://127.0.0.1:1/', connections: 0 }), /--connections/);
  assert.throws(() => startLoad({ url: 'http://127.0.0.1:1/', rate: -1 }), /--rate/);
  assert.throws(() => startLoad({ url: 'http://127.0.0.1:1/', requests: 5, durationMs: 1000 }), /--duration or --requests/);
});

test('request bytes: method, path, host, headers, body length', () => {
  const target = parseTarget('http://127.0.0.1:3000/p?q=1');
  const text = buildRequest(target, { method: 'post', headers: { 'X-Test': 'yes', accept: 'text/plain' }, body: 'abc' }).toString();
  assert.match(text, /^POST \/p\?q=1 HTTP\/1\.1\r\n/);
  assert.match(text, /\r\nHost: 127\.0\.0\.1:3000\r\n/);
  assert.match(text, /\r\nX-Test: yes\r\n/);
  assert.match(text, /\r\naccept: text\/plain\r\n/);
  assert.doesNotMatch(text, /Accept: \*\/\*/);
  assert.match(text, /\r\nContent-Length: 3\r\n\r\nabc$/);
  assert.doesNotMatch(buildRequest(target).toString(), /Content-Length/);
  assert.throws(() => buildRequest(target, { headers: { x: 'a\r\nb' } }), /--header/);
});
