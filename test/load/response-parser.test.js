import { test } from 'node:test';
import assert from 'node:assert/strict';
import { NEED_MORE, PARSE_ERROR, ResponseParser } from '../../src/load/response-parser.js';

/** Feeds `pieces` in order; returns what the handler saw and how the last feed ended. */
function parse(pieces, { noBody = false } = {}) {
  const seen = { status: 0, body: '', result: NEED_MORE };
  const parser = new ResponseParser({
    onHead(status) {
      seen.status = status;
    },
    onBody(buf, start, end) {
      seen.body += buf.toString('latin1', start, end);
    },
  });
  parser.noBody = noBody;
  for (const piece of pieces) {
    const buf = Buffer.from(piece, 'latin1');
    seen.result = parser.feed(buf, 0, buf.length);
    if (seen.result !== NEED_MORE) break;
  }
  seen.keepAlive = parser.keepAlive;
  seen.parser = parser;
  return seen;
}

/** Every way of cutting `text` in two, plus one byte at a time. */
function cuts(text) {
  const all = [[...text]];
  for (let i = 1; i < text.length; i++) all.push([text.slice(0, i), text.slice(i)]);
  return all;
}

const LENGTH = 'HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n\r\nhi\n';
const CHUNKED =
  'HTTP/1.1 200 OK\r\ntransfer-encoding: chunked\r\n\r\n1\r\nh\r\n2;name=value\r\ni\n\r\n0\r\nx-trailer: 1\r\n\r\n';

test('content-length body in one packet', () => {
  const seen = parse([LENGTH]);
  assert.equal(seen.result, LENGTH.length);
  assert.equal(seen.status, 200);
  assert.equal(seen.body, 'hi\n');
  assert.equal(seen.keepAlive, true);
});

test('content-length body cut at every position, and byte by byte', () => {
  for (const pieces of cuts(LENGTH)) {
    const seen = parse(pieces);
    assert.equal(seen.body, 'hi\n', JSON.stringify(pieces));
    assert.equal(seen.result, Buffer.byteLength(pieces.at(-1)), JSON.stringify(pieces));
  }
});

test('chunked body with extensions and trailers, cut at every position', () => {
  for (const pieces of cuts(CHUNKED)) {
    const seen = parse(pieces);
    assert.equal(seen.status, 200);
    assert.equal(seen.body, 'hi\n', JSON.stringify(pieces));
    assert.equal(seen.result, Buffer.byteLength(pieces.at(-1)), JSON.stringify(pieces));
  }
});

test('a response ending mid-packet returns where it ended', () => {
  const seen = parse([`${LENGTH}extra`]);
  assert.equal(seen.result, LENGTH.length);
});

test('a reused buffer with stale bytes after the end is not read', () => {
  const parser = new ResponseParser({ onHead() {}, onBody() {} });
  const buf = Buffer.alloc(256);
  const head = 'HTTP/1.1 200 OK\r\nContent-Length: 3\r\n';
  buf.write(`${head}\r\n\r\nstale`, 'latin1');
  assert.equal(parser.feed(buf, 0, head.length), NEED_MORE);
  const rest = Buffer.from('\r\nhi\n');
  assert.equal(parser.feed(rest, 0, rest.length), rest.length);

  // Cut between the blank line's CR and LF, with a stale LF right after the end.
  parser.reset();
  buf.write(`${head}\r\nhi\n`, 'latin1');
  assert.equal(parser.feed(buf, 0, head.length + 1), NEED_MORE);
  const lf = Buffer.from('\nhi\n');
  assert.equal(parser.feed(lf, 0, lf.length), lf.length);
});

test('keep-alive: one parser reads response after response', () => {
  const parser = new ResponseParser({ onHead() {}, onBody() {} });
  for (let i = 0; i < 3; i++) {
    const buf = Buffer.from(i === 1 ? CHUNKED : LENGTH);
    assert.equal(parser.feed(buf, 0, buf.length), buf.length);
    assert.equal(parser.keepAlive, true);
    parser.reset();
  }
});

test('Connection: close and HTTP/1.0 end keep-alive', () => {
  assert.equal(parse(['HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 0\r\n\r\n']).keepAlive, false);
  assert.equal(parse(['HTTP/1.0 200 OK\r\nContent-Length: 0\r\n\r\n']).keepAlive, false);
  assert.equal(parse(['HTTP/1.0 200 OK\r\nConnection: Keep-Alive\r\nContent-Length: 0\r\n\r\n']).keepAlive, true);
});

test('a body without length or chunking ends when the server closes', () => {
  const seen = parse(['HTTP/1.1 200 OK\r\n\r\nhi', '\n']);
  assert.equal(seen.result, NEED_MORE);
  assert.equal(seen.body, 'hi\n');
  assert.equal(seen.parser.finish(), true);
  assert.equal(seen.keepAlive, false);
});

test('a truncated content-length body is not complete at close', () => {
  const seen = parse(['HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nhi']);
  assert.equal(seen.result, NEED_MORE);
  assert.equal(seen.parser.finish(), false);
});

test('1xx heads are skipped; 204, 304 and HEAD have no body', () => {
  const early = parse(['HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok']);
  assert.equal(early.status, 200);
  assert.equal(early.body, 'ok');
  for (const status of ['204 No Content', '304 Not Modified']) {
    const text = `HTTP/1.1 ${status}\r\nContent-Length: 5\r\n\r\n`;
    assert.equal(parse([text]).result, text.length);
  }
  const head = 'HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\n';
  assert.equal(parse([head], { noBody: true }).result, head.length);
});

test('non-2xx statuses are parsed with their body', () => {
  const seen = parse(['HTTP/1.1 500 Internal Server Error\r\nContent-Length: 6\r\n\r\nboom!\n']);
  assert.equal(seen.status, 500);
  assert.equal(seen.body, 'boom!\n');
});

test('garbage is rejected as soon as it cannot be HTTP', () => {
  const seen = parse(['garbage without a blank line']);
  assert.equal(seen.result, PARSE_ERROR);
  assert.match(seen.parser.error, /HTTP/);
  for (const bad of [
    'HTTP/1.1 2x0 OK\r\n\r\n',
    'HTTP/2.0 200 OK\r\n\r\n',
    'HTTP/1.1 200 OK\r\nno colon here\r\n\r\n',
    'HTTP/1.1 200 OK\r\nContent-Length: 1x\r\n\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nhi\r\n',
  ]) {
    assert.equal(parse([bad]).result, PARSE_ERROR, JSON.stringify(bad));
  }
});

test('a head that never ends is rejected once it passes the size cap', () => {
  const parser = new ResponseParser({ onHead() {}, onBody() {} });
  const start = Buffer.from('HTTP/1.1 200 OK\r\n');
  assert.equal(parser.feed(start, 0, start.length), NEED_MORE);
  const filler = Buffer.from(`x-filler: ${'a'.repeat(1000)}\r\n`);
  let result = NEED_MORE;
  for (let i = 0; i < 100 && result === NEED_MORE; i++) result = parser.feed(filler, 0, filler.length);
  assert.equal(result, PARSE_ERROR);
});

test('a head with LF-only line endings is rejected as soon as its first bare LF arrives', () => {
  const lfOnly = 'HTTP/1.1 200 OK\nContent-Length: 3\n\nhi\n';
  const whole = parse([lfOnly]);
  assert.equal(whole.result, PARSE_ERROR);
  assert.match(whole.parser.error, /without CR/);
  // Cut anywhere after the first LF, the piece that holds it is already rejected.
  const firstLf = lfOnly.indexOf('\n');
  for (let i = firstLf + 1; i < lfOnly.length; i++) {
    assert.equal(parse([lfOnly.slice(0, i), lfOnly.slice(i)]).result, PARSE_ERROR, `cut at ${i}`);
  }
  const parser = new ResponseParser({ onHead() {}, onBody() {} });
  const first = Buffer.from('HTTP/1.1 200 OK\r\nContent-Length: 3\n');
  assert.equal(parser.feed(first, 0, first.length), PARSE_ERROR, 'a bare LF after a CRLF line');
  // A CRLF cut between two reads is not a bare LF: the cut-everywhere test above still passes.
});
