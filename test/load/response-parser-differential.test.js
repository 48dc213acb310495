// The generator's own HTTP response parser against Node's (llhttp, through
// http.request over an in-memory socket), on a few thousand seeded responses:
// status codes with and without bodies, Content-Length, chunked (random chunk
// sizes, extensions, trailers) and close-delimited bodies, HTTP/1.0 and 1.1,
// 1xx heads before the final one, random extra headers in random letter case,
// binary bodies; each fed to spawnbench's parser cut at random places (down to
// one byte at a time). Both must agree on the status, every body byte and where
// the response ends; keep-alive must match what the response asked for.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import { Duplex } from 'node:stream';
import { NEED_MORE, PARSE_ERROR, ResponseParser } from '../../src/load/response-parser.js';
import { seededRandom as prng } from '../../strategies/lib/random.js';

const CASES = 3000;
const SEED = 0x5eed;

const STATUSES = [200, 200, 200, 201, 204, 206, 301, 304, 400, 404, 429, 500, 502, 503];
const TOKEN = 'abcdefghijklmnopqrstuvwxyz0123456789-';

/** Random letter case, as servers write header names ("content-length", "Content-Length", "CONTENT-LENGTH"). */
function anyCase(rand, text) {
  return [...text].map((c) => (rand() < 0.5 ? c.toUpperCase() : c.toLowerCase())).join('');
}

function randomToken(rand, min, max) {
  const n = min + Math.floor(rand() * (max - min + 1));
  let s = '';
  for (let i = 0; i < n; i++) s += TOKEN[Math.floor(rand() * TOKEN.length)];
  return s;
}

function randomBody(rand) {
  const size = rand() < 0.2 ? 0 : rand() < 0.7 ? Math.floor(rand() * 200) : Math.floor(rand() * 20_000);
  const body = Buffer.alloc(size);
  for (let i = 0; i < size; i++) body[i] = Math.floor(rand() * 256);
  return body;
}

/** Chunked framing of `body`: random chunk sizes (hex in either case), optional extensions and trailers. */
function chunked(rand, body) {
  const parts = [];
  let pos = 0;
  while (pos < body.length) {
    const n = Math.min(body.length - pos, 1 + Math.floor(rand() * (rand() < 0.5 ? 16 : 4096)));
    const hex = rand() < 0.5 ? n.toString(16) : n.toString(16).toUpperCase();
    const ext = rand() < 0.2 ? `;${randomToken(rand, 1, 6)}=${randomToken(rand, 1, 6)}` : '';
    parts.push(Buffer.from(`${hex}${ext}\r\n`, 'latin1'), body.subarray(pos, pos + n), Buffer.from('\r\n', 'latin1'));
    pos += n;
  }
  const trailers = rand() < 0.3 ? `x-${randomToken(rand, 1, 8)}: ${randomToken(rand, 0, 12)}\r\n` : '';
  parts.push(Buffer.from(`0\r\n${trailers}\r\n`, 'latin1'));
  return Buffer.concat(parts);
}

/**
 * One response as bytes, and what it declares.
 * @returns {{ bytes: Buffer, framing: 'length'|'chunked'|'close'|'none', keepAlive: boolean, version: string, status: number }}
 */
function randomResponse(rand) {
  const status = STATUSES[Math.floor(rand() * STATUSES.length)];
  const version = rand() < 0.15 ? '1.0' : '1.1';
  const noBody = status === 204 || status === 304;
  let framing = noBody ? 'none' : ['length', 'length', 'chunked', 'close'][Math.floor(rand() * 4)];
  if (version === '1.0' && framing === 'chunked') framing = 'length';
  const headers = [];
  for (let i = Math.floor(rand() * 6); i > 0; i--) headers.push(`x-${randomToken(rand, 1, 10)}: ${randomToken(rand, 0, 30)}`);
  if (rand() < 0.5) headers.push(`${anyCase(rand, 'content-type')}: text/plain`);
  let connection = null;
  if (framing === 'close') connection = version === '1.1' || rand() < 0.5 ? 'close' : null;
  else if (version === '1.0') connection = rand() < 0.6 ? 'keep-alive' : null;
  else if (rand() < 0.15) connection = rand() < 0.5 ? 'close' : 'keep-alive';
  if (connection) headers.push(`${anyCase(rand, 'connection')}: ${anyCase(rand, connection)}`);
  const body = noBody ? Buffer.alloc(0) : randomBody(rand);
  let payload = Buffer.alloc(0);
  if (framing === 'length') {
    headers.push(`${anyCase(rand, 'content-length')}: ${body.length}`);
    payload = body;
  } else if (framing === 'chunked') {
    headers.push(`${anyCase(rand, 'transfer-encoding')}: ${anyCase(rand, 'chunked')}`);
    payload = chunked(rand, body);
  } else if (framing === 'close') {
    payload = body;
  } else if (rand() < 0.5) {
    headers.push(`${anyCase(rand, 'content-length')}: 0`);
  }
  // Shuffle the headers: framing headers are not always last.
  for (let i = headers.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [headers[i], headers[j]] = [headers[j], headers[i]];
  }
  const informational = version === '1.1' && rand() < 0.1 ? `HTTP/1.1 ${rand() < 0.5 ? '100 Continue' : '103 Early Hints\r\nlink: </a.css>; rel=preload'}\r\n\r\n` : '';
  const head = `${informational}HTTP/${version} ${status} ${randomToken(rand, 0, 12)}\r\n${headers.map((h) => `${h}\r\n`).join('')}\r\n`;
  const keepAlive = framing !== 'close' && (connection === 'keep-alive' || (version === '1.1' && connection !== 'close'));
  return { bytes: Buffer.concat([Buffer.from(head, 'latin1'), payload]), framing, keepAlive, version, status, body };
}

/** Random cut points: a few big pieces, many small ones, or one byte at a time. */
function randomPieces(rand, bytes) {
  const style = rand();
  const pieces = [];
  let pos = 0;
  while (pos < bytes.length) {
    const n = style < 0.05 ? 1 : style < 0.5 ? 1 + Math.floor(rand() * 7) : 1 + Math.floor(rand() * 2000);
    pieces.push(bytes.subarray(pos, pos + n));
    pos += n;
  }
  return pieces;
}

/** What surrounds each piece in the buffer the parser is given. */
const JUNK = Buffer.from('junk');

/** spawnbench's parser over `pieces`, then the close when the body runs to it. */
function ours(pieces, closes) {
  const seen = { status: null, body: [], complete: false, error: null, keepAlive: null };
  const parser = new ResponseParser({
    onHead: (status) => { seen.status = status; },
    onBody: (buf, start, end) => { seen.body.push(Buffer.from(buf.subarray(start, end))); },
  });
  for (const [i, piece] of pieces.entries()) {
    // Each piece in a larger buffer at an offset, as the generator's reused read buffer holds it.
    const buf = Buffer.concat([JUNK, piece, JUNK]);
    const result = parser.feed(buf, 4, 4 + piece.length);
    if (result === PARSE_ERROR) {
      seen.error = parser.error;
      break;
    }
    if (result !== NEED_MORE) {
      seen.complete = result === 4 + piece.length && i === pieces.length - 1 ? 'at the end' : `early, at byte ${result - 4} of piece ${i}`;
      break;
    }
  }
  if (!seen.complete && !seen.error && closes && parser.finish()) seen.complete = 'at the end';
  seen.keepAlive = parser.keepAlive;
  return { ...seen, body: Buffer.concat(seen.body) };
}

/** Node's client parser on the same bytes, over an in-memory socket that ends after them when the body runs to the close. */
function nodes(bytes, closes) {
  return new Promise((resolve) => {
    let sent = false;
    const socket = new Duplex({
      read() {},
      write(chunk, encoding, callback) {
        callback();
        if (sent) return;
        sent = true;
        setImmediate(() => {
          socket.push(bytes);
          if (closes) socket.push(null);
        });
      },
    });
    Object.assign(socket, { setNoDelay() {}, setKeepAlive() {}, setTimeout() {}, ref() {}, unref() {} });
    const req = http.request({ host: 'in-memory', path: '/', createConnection: () => socket });
    req.on('response', (res) => {
      const body = [];
      res.on('data', (chunk) => body.push(chunk));
      res.on('end', () => {
        resolve({ status: res.statusCode, body: Buffer.concat(body), complete: 'at the end', error: null });
        socket.destroy();
      });
      res.on('error', (error) => resolve({ status: res.statusCode, body: Buffer.concat(body), complete: false, error: error.message }));
    });
    req.on('error', (error) => resolve({ status: null, body: Buffer.alloc(0), complete: false, error: error.message }));
    req.end();
  });
}

test(`spawnbench's response parser agrees with Node's on ${CASES} generated responses (seed ${SEED})`, async () => {
  const rand = prng(SEED);
  const framings = { length: 0, chunked: 0, close: 0, none: 0 };
  let pieces = 0;
  for (let i = 0; i < CASES; i++) {
    const response = randomResponse(rand);
    framings[response.framing] += 1;
    const closes = response.framing === 'close';
    const cut = randomPieces(rand, response.bytes);
    pieces += cut.length;
    const mine = ours(cut, closes);
    const theirs = await nodes(response.bytes, closes);
    const where = `case ${i} (seed ${SEED}): ${response.framing}, HTTP/${response.version} ${response.status}, ${response.bytes.length} bytes in ${cut.length} pieces; head: ${JSON.stringify(response.bytes.subarray(0, 300).toString('latin1').split('\r\n\r\n')[0])}`;
    assert.equal(theirs.error, null, `Node rejects ${where}`);
    assert.equal(mine.error, null, `spawnbench rejects ${where}`);
    assert.equal(mine.status, theirs.status, `status, ${where}`);
    assert.equal(mine.complete, 'at the end', `end of the response, ${where}`);
    assert.ok(mine.body.equals(theirs.body), `body (${mine.body.length} vs Node's ${theirs.body.length} bytes), ${where}`);
    assert.ok(theirs.body.equals(response.body), `Node's body is the generated one, ${where}`);
    assert.equal(mine.keepAlive, response.keepAlive, `keep-alive, ${where}`);
  }
  // Every framing was exercised, and the cuts went down to single bytes.
  for (const [framing, n] of Object.entries(framings)) assert.ok(n >= CASES / 20, `${framing}: ${n} cases`);
  assert.ok(pieces > CASES * 5, `${pieces} pieces`);
});
