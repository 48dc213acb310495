// --mix: each request drawn by weight from the mix (seeded), counted per entry with its own
// histogram; a bad mix is one line naming the entry and the field. In-process servers only.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLoad } from '../../src/load/index.js';
import { readMixFile, pathTemplate } from '../../src/load/mix-file.js';
import { checkMix, mixTable, drawFrom } from '../../src/load/mix.js';
import { buildRunPlan } from '../../src/plan/run-plan.js';
import { UsageError } from '../../src/base/errors.js';
import { startHttpServer } from './helpers.js';
import { cli } from '../helpers/harness.js';

const servers = [];
const dir = mkdtempSync(join(tmpdir(), 'spawnbench-mix-test-'));
after(async () => {
  await Promise.all(servers.map((s) => s.close()));
  rmSync(dir, { recursive: true, force: true });
});

/** A server that answers /slow after 20 ms, /fail with a 500 and its line, the rest at once; it notes each request line. */
async function routes() {
  const seen = [];
  const server = await startHttpServer((req, res) => {
    let body = '';
    req.on('data', (c) => { body += c; });
    req.on('end', () => {
      seen.push(`${req.method} ${req.url}${body ? ` ${body}` : ''}`);
      if (req.url === '/slow') setTimeout(() => res.end('slow\n'), 20);
      else if (req.url === '/fail') {
        res.statusCode = 500;
        res.end('report failed: no data\nsecond line\n');
      } else res.end('ok\n');
    });
  });
  servers.push(server);
  return { server, seen };
}

const MIX = [
  { method: 'GET', path: '/health', weight: 60 },
  { name: 'items', method: 'GET', path: '/items/7?x=1', weight: 25 },
  { method: 'GET', path: '/slow', weight: 10 },
  { method: 'POST', path: '/convert', body: 'hello', weight: 5 },
];

test('shares follow the weights within ±2 points over 2,400 requests, each entry counted on its own', async () => {
  const { server, seen } = await routes();
  const result = await startLoad({ url: server.url, mix: MIX, connections: 4, requests: 2400, warmupMs: 0 }).done;
  assert.equal(result.requests, 2400);
  assert.equal(result.endpoints.length, 4);
  assert.deepEqual(result.endpoints.map((e) => e.name), ['GET /health', 'items', 'GET /slow', 'POST /convert']);
  const total = result.endpoints.reduce((sum, e) => sum + e.requests, 0);
  assert.equal(total, 2400);
  for (const [i, e] of result.endpoints.entries()) {
    assert.ok(Math.abs(e.share * 100 - MIX[i].weight) <= 2, `${e.name}: ${e.share} of the requests for a weight of ${MIX[i].weight}%`);
    assert.equal(e.weight, MIX[i].weight);
    assert.equal(typeof e.histogram, 'string');
    assert.ok(e.rps > 0);
  }
  // What the server saw is what the generator counted, entry by entry.
  const count = (line) => seen.filter((s) => s === line).length;
  assert.equal(count('GET /health'), result.endpoints[0].requests);
  assert.equal(count('GET /items/7?x=1'), result.endpoints[1].requests);
  assert.equal(count('POST /convert hello'), result.endpoints[3].requests);
  // Each entry's percentiles are its own: only /slow waits 20 ms.
  const slow = result.endpoints[2];
  assert.ok(slow.p50Ms >= 19, `GET /slow p50 ${slow.p50Ms} ms`);
  assert.ok(result.endpoints[0].p50Ms < slow.p50Ms, `GET /health p50 ${result.endpoints[0].p50Ms} ms`);
  assert.ok(slow.p99Ms >= slow.p50Ms && slow.maxMs >= slow.p99Ms);
});

test('errors are counted on the entry that had them, with the first line of its bodies', async () => {
  const { server } = await routes();
  const mix = [{ method: 'GET', path: '/health', weight: 3 }, { method: 'GET', path: '/fail', weight: 1 }];
  const result = await startLoad({ url: server.url, mix, connections: 2, requests: 400, warmupMs: 0 }).done;
  const [health, fail] = result.endpoints;
  assert.equal(health.errors.total, 0);
  assert.equal(fail.errors.non2xx, fail.requests);
  assert.deepEqual(fail.statuses, { 500: fail.requests });
  assert.equal(fail.errorTexts[0].status, 500);
  assert.equal(fail.errorTexts[0].texts[0].text, 'report failed: no data');
  assert.equal(result.errors.total, fail.requests, 'the totals are as they were');
});

test('--seed: the same seed draws the same sequence, another seed another', async () => {
  const sequence = async (seed) => {
    const { server, seen } = await routes();
    await startLoad({ url: server.url, mix: MIX.slice(0, 2), connections: 1, requests: 200, warmupMs: 0, seed }).done;
    return seen.join('|');
  };
  const [a, b, c] = [await sequence(7), await sequence(7), await sequence(8)];
  assert.equal(a, b);
  assert.notEqual(a, c);
});

test('the draw: a cumulative table and one number', () => {
  const table = mixTable([{ weight: 60 }, { weight: 25 }, { weight: 10 }, { weight: 5 }]);
  assert.deepEqual([...table].map((x) => Math.round(x * 100)), [60, 85, 95, 100]);
  assert.deepEqual([0, 0.59, 0.6, 0.849, 0.85, 0.96, 0.99999].map((r) => drawFrom(table, r)), [0, 0, 1, 1, 2, 3, 3]);
  assert.equal(drawFrom(mixTable([{ weight: 0 }, { weight: 1 }]), 0), 1, 'a weight of 0 is never drawn');
});

test('a repeated --path is an equal-weight mix; --mix on a strategy is refused', () => {
  const plan = buildRunPlan({ url: 'http://127.0.0.1:9/', path: ['/a', '/b'] });
  assert.deepEqual(plan.load.mix.map((e) => [e.name, e.weight]), [['GET /a', 1], ['GET /b', 1]]);
  assert.equal(buildRunPlan({ url: 'http://127.0.0.1:9/', path: '/a' }).load.mix, null);
  assert.throws(() => buildRunPlan({ mix: MIX }), /--mix drives your own server/);
});

test('HAR: ids, query strings and the capture\'s host folded away; hop-by-hop, host and pseudo-headers dropped', () => {
  assert.equal(pathTemplate('/items/7?x=1'), '/items/:id');
  assert.equal(pathTemplate('/u/3f9a2b7c-1d4e-4a5b-9c8d-0e1f2a3b4c5d/files/a3f9b27c1d4e4a5b9c8d'), '/u/:id/files/:id');
  assert.equal(pathTemplate('/v1/report'), '/v1/report');
  const mix = readMixFile(new URL('../../fixtures/mix/api.har', import.meta.url).pathname);
  const byName = Object.fromEntries(mix.map((e) => [e.name, e]));
  assert.deepEqual(Object.keys(byName).sort(), ['GET /health', 'GET /items/:id', 'GET /report', 'POST /convert']);
  assert.deepEqual([12, 5, 2, 1], ['GET /health', 'GET /items/:id', 'GET /report', 'POST /convert'].map((n) => byName[n].weight));
  const convert = byName['POST /convert'];
  assert.equal(convert.body, 'hello');
  assert.equal(convert.headers['content-type'], 'text/plain');
  assert.equal(convert.headers.cookie, 'session=3f2a9c1d; theme=dark');
  for (const e of mix) {
    for (const name of Object.keys(e.headers)) assert.ok(!name.startsWith(':') && !['host', 'connection', 'content-length'].includes(name), `${e.name}: ${name}`);
  }
  assert.match(byName['GET /report'].path, /^\/report\?from=/);
});

test('HAR: a form kept as postData.params only (no text) is sent encoded again, not as an empty body; a multipart one is refused', () => {
  // Seen: a Firefox-style capture of a login POST went out with an empty body, and was measured all the same.
  const har = (postData, headers = []) => JSON.stringify({ log: { entries: [{ request: { method: 'POST', url: 'https://example.com/login?next=%2F', headers, postData } }] } });
  const file = join(dir, 'params.har');
  writeFileSync(file, har({ mimeType: 'application/x-www-form-urlencoded', params: [{ name: 'user', value: 'bob' }, { name: 'pw', value: 'x y&z' }] }));
  const [login] = readMixFile(file);
  assert.equal(login.body, 'user=bob&pw=x+y%26z');
  assert.equal(login.headers['content-type'], 'application/x-www-form-urlencoded');
  writeFileSync(file, har({ mimeType: 'multipart/form-data; boundary=x', params: [{ name: 'f', fileName: 'a.png' }] }));
  assert.throws(() => readMixFile(file), (error) => error instanceof UsageError && /^--mix params\.har: entry 1: "postData" holds params but no text, and a multipart\/form-data; boundary=x cannot be rebuilt from them; export the capture with request bodies/.test(error.message));
  writeFileSync(file, har({ mimeType: 'text/plain', text: 'hi', params: [{ name: 'ignored', value: '1' }] }));
  assert.equal(readMixFile(file)[0].body, 'hi', 'the text wins where both are kept (Chrome)');
});

test('HAR: a capture of several hosts (a page\'s CDN, analytics) is refused, naming them; a body\'s content-encoding is dropped, since postData.text is the plain body', () => {
  const entry = (url, extra = {}) => ({ request: { method: 'GET', url, headers: [], ...extra } });
  const file = join(dir, 'page.har');
  // Seen: the CDN's GET /static/app.js went to the server under test, 20% of the load, measured as its traffic.
  writeFileSync(file, JSON.stringify({ log: { entries: [
    entry('https://api.example.com/items/1'), entry('https://api.example.com/items/2'), entry('https://cdn.other.com/static/app.js'),
  ] } }));
  assert.throws(() => readMixFile(file), (error) => error instanceof UsageError &&
    /^--mix page\.har: holds requests to 2 hosts \(api\.example\.com ×2, cdn\.other\.com ×1\), and every request would go to the one server under test; keep one host's entries, e\.g\. jq .*\/\/api\.example\.com\[:\/\].* page\.har > one-host\.har$/.test(error.message), 'the hosts named');
  // A page's inline image (data:) never went to a server: named as such, not as a host without a name.
  writeFileSync(file, JSON.stringify({ log: { entries: [entry('https://api.example.com/items/1'), entry('data:image/png;base64,iVBORw0KGgo=')] } }));
  assert.throws(() => readMixFile(file), (error) => error instanceof UsageError && /^--mix page\.har: entry 2: "request\.url" is a data: URL, not a request to a server; drop such entries from the capture$/.test(error.message));
  // One host over http and https is one host.
  writeFileSync(file, JSON.stringify({ log: { entries: [entry('http://api.example.com/a'), entry('https://api.example.com/b')] } }));
  assert.equal(readMixFile(file).length, 2);
  // A dev server's capture names this machine three ways: one host (it was "requests to 2 hosts … keep one host's entries").
  writeFileSync(file, JSON.stringify({ log: { entries: [entry('http://localhost:3000/a'), entry('http://127.0.0.1:3000/b'), entry('http://[::1]:3000/c')] } }));
  assert.equal(readMixFile(file).length, 3);
  // Another port of it is another server.
  writeFileSync(file, JSON.stringify({ log: { entries: [entry('http://localhost:3000/a'), entry('http://127.0.0.1:4000/b')] } }));
  assert.throws(() => readMixFile(file), /holds requests to 2 hosts \(localhost:3000 ×1, localhost:4000 ×1\)/);
  // Seen: "Content-Encoding: gzip" went out over the capture's plain JSON text.
  writeFileSync(file, JSON.stringify({ log: { entries: [entry('https://api.example.com/login', {
    method: 'POST', headers: [{ name: 'Content-Type', value: 'application/json' }, { name: 'Content-Encoding', value: 'gzip' }],
    postData: { mimeType: 'application/json', text: '{"u":"a"}' },
  })] } }));
  const [login] = readMixFile(file);
  assert.equal(login.body, '{"u":"a"}');
  assert.equal(login.headers['content-encoding'], undefined);
  assert.equal(login.headers['content-type'], 'application/json');
});

test('HAR: a body kept base64-encoded ("encoding": "base64") goes out decoded where it is text; a binary one is refused', () => {
  const file = join(dir, 'base64.har');
  const har = (text) => JSON.stringify({ log: { entries: [{ request: { method: 'POST', url: 'https://api.example.com/login', headers: [{ name: 'Content-Type', value: 'application/json' }],
    postData: { mimeType: 'application/json', text, encoding: 'base64' } } }] } });
  // Seen: the server got the base64 text itself, eyJ1Ijoiw7wifQ==.
  writeFileSync(file, har(Buffer.from('{"u":"ü"}').toString('base64')));
  assert.equal(readMixFile(file)[0].body, '{"u":"ü"}');
  writeFileSync(file, har(Buffer.from([0xff, 0xd8, 0xff, 0x00]).toString('base64')));
  assert.throws(() => readMixFile(file), (error) => error instanceof UsageError && /^--mix base64\.har: entry 1: "postData" is binary \(base64\), and spawnbench sends bodies as text/.test(error.message));
});

const BAD_FILES = [
  ['a missing path', '[{"method":"GET","path":"/"},{"method":"GET"}]', /entry 2: "path" is missing/],
  ['a method that is not a token', '[{"method":"GE T","path":"/"}]', /entry 1: "method" "GE T" is not an HTTP method/],
  ['a negative weight', '[{"path":"/a"},{"path":"/b","weight":-1}]', /entry 2: "weight" -1 must be a number ≥ 0/],
  ['truncated JSON', '[{"method":"GET","path":"/a"},{"meth', /is not JSON .*is it complete\?/],
  ['a HAR without entries', '{"log":{"version":"1.2","entries":[]}}', /a HAR without entries/],
  ['not an array', '{"method":"GET"}', /must be a JSON array/],
  // 1e308 twice adds up to Infinity: every share was 0% and one entry took every request.
  ['weights whose sum no number holds', '[{"path":"/a","weight":1e308},{"path":"/b","weight":1e308}]', /weights add up to more than a number holds; give smaller weights/],
  // A control character goes raw into the request line (the server answers 400) and into the terminal.
  ['a path with a control character', '[{"path":"/a\\u001b[2J"}]', /entry 1: "path" "\/a\\u001b\[2J" must start with \/ and hold no spaces or control characters/],
  // Seen: '"name" "GET /items/{id}" must be one line without { or }', of an entry that gave no name.
  ['a route template for a path', '[{"path":"/items/{id}"}]', /entry 1: "path" "\/items\/\{id\}" holds \{ or \}: a mix sends each path as it is and fills in no template; give a real one like "\/items\/42"/],
];

for (const [what, text, words] of BAD_FILES) {
  test(`a mix file with ${what}: one line naming the entry and the field`, () => {
    const file = join(dir, `${what.replaceAll(' ', '-')}.json`);
    writeFileSync(file, text);
    assert.throws(() => readMixFile(file), (error) => error instanceof UsageError && words.test(error.message) && !error.message.includes('\n'));
  });
}

test('an unreadable mix file: one line', () => {
  assert.throws(() => readMixFile(join(dir, 'nope.json')), /--mix nope.json: cannot read it \(ENOENT\)/);
  assert.throws(() => checkMix([]), /has no entries/);
  assert.throws(() => checkMix(Array.from({ length: 201 }, (_, i) => ({ path: `/r${i}` }))), /has 201 endpoints, more than 200/);
});

test('run --url with --path given twice: an equal-weight mix of the two, each path its own endpoint', async () => {
  const { server, seen } = await routes();
  const { code, out, err } = await cli('run', '--url', server.url, '--path', '/a', '--path', '/b', '-n', '400', '-w', '0', '-c', '2', '--json', '--no-dashboard');
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.deepEqual(result.load.endpoints.map((e) => [e.name, e.weight]), [['GET /a', 1], ['GET /b', 1]]);
  assert.equal(result.load.endpoints[0].requests + result.load.endpoints[1].requests, 400);
  assert.ok(seen.includes('GET /a') && seen.includes('GET /b'));
  for (const e of result.load.endpoints) assert.ok(Math.abs(e.share - 0.5) < 0.1, `${e.name}: ${e.share}`);
});

test('a header value with a control character (NUL, \\x01, DEL) is refused before the load, in --mix as in -H', () => {
  // Seen: {"headers":{"Cookie":"a\u0000b"}} (and -H $'X: a\x01b') ran, and every request got the server's 400.
  for (const value of ['a\u0000b', 'a\u0001b', 'a\u007fb']) {
    assert.throws(() => checkMix([{ path: '/', headers: { Cookie: value } }]), (error) => error instanceof UsageError && /"headers" 'Cookie' must be a header name with a value on one line, without control characters/.test(error.message));
    assert.throws(() => buildRunPlan({ header: [`X-A: ${value}`] }), (error) => error instanceof UsageError && /--header 'X-A' must not contain a line break or a control character/.test(error.message));
  }
  // A tab and text beyond ASCII are a header value's own.
  assert.equal(checkMix([{ path: '/', headers: { 'X-T': 'a\tb é' } }])[0].headers['x-t'], 'a\tb é');
});

test('a mix path with non-ASCII characters goes out percent-encoded, as --path alone sends it: Node answered the raw bytes 400', async () => {
  const [entry] = checkMix([{ method: 'GET', path: '/ünïcode/日本?q=é' }], 'test');
  assert.equal(entry.path, '/%C3%BCn%C3%AFcode/%E6%97%A5%E6%9C%AC?q=%C3%A9');
  assert.equal(entry.name, 'GET /ünïcode/日本?q=é', 'the name keeps the path as written');
  const seen = new Set();
  const server = await startHttpServer((req, res) => {
    seen.add(req.url);
    res.end('hi\n');
  });
  servers.push(server);
  const mix = checkMix([{ path: '/ünïcode' }, { path: '/a' }], 'test');
  // A count, not a time: 40 draws of two equal entries send both (seeded), as many on a loaded machine.
  const result = await startLoad({ warmupMs: 0, url: server.url, connections: 2, requests: 40, mix, expectedBody: 'hi\n' }).done;
  assert.equal(result.errors.total, 0, JSON.stringify(result.statuses));
  assert.ok(seen.has('/%C3%BCn%C3%AFcode'), [...seen].join(' '));
});

test('a capture larger than a string holds (a HAR with its responses\' bodies) is refused before it is read, saying how to drop the bodies', () => {
  // Seen: "--mix big.har: cannot read it (ERR_STRING_TOO_LONG); give a JSON or .har file", of a .har file.
  const file = join(dir, 'big.har');
  writeFileSync(file, '');
  truncateSync(file, 600 * 2 ** 20); // sparse: nothing is written or read
  assert.throws(() => readMixFile(file), (error) => error instanceof UsageError
    && /^--mix big\.har: is 600 MB, more than spawnbench reads \(\d+ MB\); a capture that large holds its responses' bodies, which a mix does not use: drop them, e\.g\. jq 'del\(\.log\.entries\[\]\.response\.content\.text\)' big\.har > requests\.har$/.test(error.message), String);
  rmSync(file);
});

test('HAR: a bad entry is named by its number in the capture, not by its endpoint\'s place among the endpoints', () => {
  // Seen: a control character in a header of the capture's entry 5 (after /x/1, /x/2, /x/3 folded into one
  // endpoint, and /y) was "entry 3".
  const entry = (url, headers = []) => ({ request: { method: 'GET', url, headers } });
  const file = join(dir, 'bad-header.har');
  writeFileSync(file, JSON.stringify({ log: { entries: [
    entry('http://a.com/x/1'), entry('http://a.com/x/2'), entry('http://a.com/x/3'), entry('http://a.com/y'), entry('http://a.com/z', [{ name: 'X-Bad', value: 'a\nb' }]),
  ] } }));
  assert.throws(() => readMixFile(file), (error) => error instanceof UsageError && /^--mix bad-header\.har: entry 5: "headers" 'x-bad' must be/.test(error.message), String);
});

test('a mix file saved with a byte-order mark (UTF-8 from an editor on Windows, UTF-16 from PowerShell 5) is read, not "not JSON"', () => {
  const json = JSON.stringify([{ name: 'home', path: '/', weight: 3 }, { name: 'api', path: '/api', weight: 1 }]);
  const utf8 = join(dir, 'bom8.json');
  writeFileSync(utf8, Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(json, 'utf8')]));
  const utf16 = join(dir, 'bom16.json');
  writeFileSync(utf16, Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(json, 'utf16le')]));
  for (const file of [utf8, utf16]) assert.deepEqual(readMixFile(file).map((e) => [e.name, e.path, e.weight]), [['home', '/', 3], ['api', '/api', 1]], file);
});
