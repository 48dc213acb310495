/**
 * Incremental HTTP/1.1 response parser for the generator's hot path.
 *
 * Why hand-written: the generator only needs the status, where the body ends
 * (Content-Length, chunked, or connection close) and whether the connection stays
 * open. node:http's client builds an IncomingMessage, a headers object and stream
 * machinery for every response; bench/generator.js measured it at several times
 * this generator's CPU per request (figures in connection.js). This parser
 * reads bytes straight out of the socket's reused read buffer, copies nothing on
 * the common path (a whole head in one packet) and allocates nothing per body.
 *
 * Any packet boundary is handled: a head split across packets is gathered in a
 * small side buffer, and the chunked-encoding framing is a byte-at-a-time state
 * machine, so chunk-size lines and CRLFs may be cut anywhere.
 */

/** Result of feed(): every byte was consumed and the response is not complete yet. */
export const NEED_MORE = -1;
/** Result of feed(): the bytes are not a valid response; `parser.error` says why. */
export const PARSE_ERROR = -2;

// Largest response head accepted, in bytes. Node's own server caps request heads at
// 16 KB (--max-http-header-size); 64 KB leaves room for generous servers while
// garbage that never sends a blank line is rejected quickly.
const HEAD_MAX_BYTES = 64 * 1024;
// A head whose lines end in LF alone (no CR) is not HTTP/1.1, and parseHead, which
// looks for CRLF, would wait for its end until the request timed out. It is looked
// for only when a head is incomplete (NEED_MORE, the rare path), so a whole head in
// one read costs no extra byte comparison.
const BARE_LF = 'line ending without CR in head';
// Longest chunk-size line, in hex digits: 12 digits is 256 TB, more than any body;
// a longer line is garbage and would lose precision in a double.
const CHUNK_SIZE_MAX_DIGITS = 12;

const HEAD = 0;
const BODY_LENGTH = 1;
const CHUNK_SIZE = 2;
const CHUNK_EXT = 3;
const CHUNK_SIZE_LF = 4;
const CHUNK_DATA = 5;
const CHUNK_DATA_CR = 6;
const CHUNK_DATA_LF = 7;
const TRAILER = 8;
const BODY_UNTIL_CLOSE = 9;

const CR = 13;
const LF = 10;
const STATUS_PREFIX = Buffer.from('HTTP/1.', 'latin1');
const CONTENT_LENGTH = Buffer.from('content-length', 'latin1');
const TRANSFER_ENCODING = Buffer.from('transfer-encoding', 'latin1');
const CONNECTION = Buffer.from('connection', 'latin1');
const CHUNKED = Buffer.from('chunked', 'latin1');
const CLOSE = Buffer.from('close', 'latin1');
const KEEP_ALIVE = Buffer.from('keep-alive', 'latin1');

/** -1 for a byte that is not a hex digit, else its value. */
const HEX = new Int8Array(256).fill(-1);
for (let i = 0; i < 10; i++) HEX[48 + i] = i;
for (let i = 0; i < 6; i++) {
  HEX[65 + i] = 10 + i;
  HEX[97 + i] = 10 + i;
}

/**
 * One parser per connection, reused for every response on it (call reset() after
 * each completed response and after a reconnect).
 *
 * The handler receives `onHead(status)` once per final (non-1xx) response and
 * `onBody(buf, start, end)` for each piece of body bytes (valid only during the call).
 */
export class ResponseParser {
  /**
   * @param {{onHead(status: number): void, onBody(buf: Buffer, start: number, end: number): void}} handler
   */
  constructor(handler) {
    this.handler = handler;
    /** True when the request was HEAD: the response has no body whatever its headers say. */
    this.noBody = false;
    this.reset();
  }

  /** Prepares for the next response on the connection. */
  reset() {
    this.state = HEAD;
    this.pending = null;
    this.status = 0;
    this.keepAlive = true;
    this.remaining = 0;
    this.chunkSize = 0;
    this.chunkDigits = 0;
    this.trailerLineLength = 0;
    this.sawCR = false;
    this.error = null;
    /** True once any byte of this response arrived (distinguishes "closed while idle"). */
    this.started = false;
  }

  /**
   * Consumes bytes [start, end) of buf.
   * @returns {number} the offset just after the response when it completed there,
   *   NEED_MORE when all bytes were consumed without completing, or PARSE_ERROR.
   */
  feed(buf, start, end) {
    let pos = start;
    if (pos < end) this.started = true;
    while (pos < end) {
      switch (this.state) {
        case HEAD: {
          pos = this.feedHead(buf, pos, end);
          if (pos < 0) return pos;
          if (this.state === HEAD) {
            // A 1xx informational head ended: the final response follows.
            continue;
          }
          if (this.remaining === 0 && this.state === BODY_LENGTH) return pos;
          break;
        }
        case BODY_LENGTH: {
          const n = Math.min(this.remaining, end - pos);
          this.handler.onBody(buf, pos, pos + n);
          this.remaining -= n;
          pos += n;
          if (this.remaining === 0) return pos;
          break;
        }
        case BODY_UNTIL_CLOSE:
          this.handler.onBody(buf, pos, end);
          return NEED_MORE;
        case CHUNK_DATA: {
          const n = Math.min(this.remaining, end - pos);
          this.handler.onBody(buf, pos, pos + n);
          this.remaining -= n;
          pos += n;
          if (this.remaining === 0) this.state = CHUNK_DATA_CR;
          break;
        }
        default: {
          const done = this.feedFramingByte(buf[pos]);
          pos++;
          if (done === PARSE_ERROR) return PARSE_ERROR;
          if (done === 1) return pos;
        }
      }
    }
    return NEED_MORE;
  }

  /**
   * Called when the server closed the connection.
   * @returns {boolean} true when that close ended the response (a body delimited by close).
   */
  finish() {
    return this.state === BODY_UNTIL_CLOSE;
  }

  /** Chunked framing, one byte at a time. Returns 1 when the response ended, PARSE_ERROR, or 0. */
  feedFramingByte(c) {
    switch (this.state) {
      case CHUNK_SIZE: {
        const v = HEX[c];
        if (v >= 0) {
          if (++this.chunkDigits > CHUNK_SIZE_MAX_DIGITS) return this.fail('chunk size too long');
          this.chunkSize = this.chunkSize * 16 + v;
          return 0;
        }
        if (this.chunkDigits === 0) return this.fail('bad chunk size');
        if (c === CR) this.state = CHUNK_SIZE_LF;
        else if (c === 59 || c === 32 || c === 9) this.state = CHUNK_EXT; // ';', space, tab
        else return this.fail('bad chunk size');
        return 0;
      }
      case CHUNK_EXT:
        if (c === CR) this.state = CHUNK_SIZE_LF;
        return 0;
      case CHUNK_SIZE_LF:
        if (c !== LF) return this.fail('bad chunk size line ending');
        if (this.chunkSize === 0) {
          this.state = TRAILER;
          this.trailerLineLength = 0;
          this.sawCR = false;
        } else {
          this.state = CHUNK_DATA;
          this.remaining = this.chunkSize;
        }
        return 0;
      case CHUNK_DATA_CR:
        if (c !== CR) return this.fail('chunk data longer than its size');
        this.state = CHUNK_DATA_LF;
        return 0;
      case CHUNK_DATA_LF:
        if (c !== LF) return this.fail('bad chunk ending');
        this.state = CHUNK_SIZE;
        this.chunkSize = 0;
        this.chunkDigits = 0;
        return 0;
      case TRAILER:
        if (c === CR) {
          this.sawCR = true;
        } else if (c === LF && this.sawCR) {
          if (this.trailerLineLength === 0) return 1;
          this.trailerLineLength = 0;
          this.sawCR = false;
        } else {
          this.trailerLineLength++;
          this.sawCR = false;
        }
        return 0;
      default:
        return this.fail('parser in an unknown state');
    }
  }

  /** Gathers and parses the head. Returns the offset after it (or after the bytes used), or PARSE_ERROR. */
  feedHead(buf, start, end) {
    if (this.pending === null) {
      const after = this.parseHead(buf, start, end);
      if (after !== NEED_MORE) return after;
      if (!hasStatusPrefix(buf, start, end)) return this.fail('response does not start with HTTP/1.x');
      if (hasBareLineFeed(buf, start, end)) return this.fail(BARE_LF);
      this.pending = Buffer.from(buf.subarray(start, end));
      return end;
    }
    // Rare path: the head is split across reads. Parse again from its first byte.
    const before = this.pending.length;
    const head = Buffer.concat([this.pending, buf.subarray(start, end)]);
    const after = this.parseHead(head, 0, head.length);
    if (after === NEED_MORE) {
      if (head.length > HEAD_MAX_BYTES) return this.fail(`response head over ${HEAD_MAX_BYTES / 1024} KB`);
      if (!hasStatusPrefix(head, 0, head.length)) return this.fail('response does not start with HTTP/1.x');
      if (hasBareLineFeed(head, 0, head.length)) return this.fail(BARE_LF);
      this.pending = head;
      return end;
    }
    this.pending = null;
    if (after === PARSE_ERROR) return PARSE_ERROR;
    return start + (after - before);
  }

  /**
   * Parses the head starting at `start` in one pass over its bytes. A plain loop:
   * for heads of a few hundred bytes it beats Buffer#indexOf and toString, whose
   * native calls cost more than the scan. Nothing changes state until the head is complete.
   * @returns {number} the offset after the blank line, NEED_MORE if the head is not all there, or PARSE_ERROR
   */
  parseHead(buf, start, end) {
    if (end - start < 12) return NEED_MORE;
    if (!hasStatusPrefix(buf, start, end)) return this.fail('response does not start with HTTP/1.x');
    const minor = buf[start + 7];
    if ((minor !== 48 && minor !== 49) || buf[start + 8] !== 32) return this.fail('bad HTTP version');
    const d0 = buf[start + 9] - 48;
    const d1 = buf[start + 10] - 48;
    const d2 = buf[start + 11] - 48;
    if (d0 < 1 || d0 > 5 || d1 < 0 || d1 > 9 || d2 < 0 || d2 > 9) return this.fail('bad status code');
    const status = d0 * 100 + d1 * 10 + d2;
    let keepAlive = minor === 49; // HTTP/1.1 keeps the connection by default, 1.0 does not
    let contentLength = -1;
    let chunked = false;
    let otherEncoding = false;

    let i = start + 12;
    while (i < end && buf[i] !== CR) i++; // rest of the status line
    for (;;) {
      // buf[i] is the CR ending a line.
      if (i + 2 >= end) return NEED_MORE;
      if (buf[i + 1] !== LF) return this.fail('bad line ending in head');
      i += 2;
      if (buf[i] === CR) {
        if (i + 1 >= end) return NEED_MORE;
        if (buf[i + 1] !== LF) return this.fail('bad line ending in head');
        i += 2;
        break; // blank line: end of head
      }
      const from = i;
      while (i < end && buf[i] !== 58 && buf[i] !== CR) i++;
      if (i === end) return NEED_MORE;
      if (buf[i] === CR || i === from) return this.fail('bad header line');
      const colon = i;
      while (i < end && buf[i] !== CR) i++;
      if (i === end) return NEED_MORE;
      const nameLength = colon - from;
      if (nameLength === 14 && equalsLower(buf, from, CONTENT_LENGTH)) {
        const value = parseDecimal(buf, colon + 1, i);
        if (value < 0 || (contentLength >= 0 && value !== contentLength)) return this.fail('bad content-length');
        contentLength = value;
      } else if (nameLength === 17 && equalsLower(buf, from, TRANSFER_ENCODING)) {
        chunked = endsWithToken(buf, colon + 1, i, CHUNKED);
        otherEncoding = !chunked;
      } else if (nameLength === 10 && equalsLower(buf, from, CONNECTION)) {
        if (containsLower(buf, colon + 1, i, CLOSE)) keepAlive = false;
        else if (containsLower(buf, colon + 1, i, KEEP_ALIVE)) keepAlive = true;
      }
    }

    if (status < 200) {
      // 1xx (Early Hints, Continue): informational; the real response follows.
      if (status === 101) return this.fail('unexpected 101 Switching Protocols');
      return i;
    }
    this.status = status;
    this.keepAlive = keepAlive;
    this.handler.onHead(status);
    if (this.noBody || status === 204 || status === 304) {
      this.state = BODY_LENGTH;
      this.remaining = 0;
    } else if (chunked) {
      this.state = CHUNK_SIZE;
      this.chunkSize = 0;
      this.chunkDigits = 0;
    } else if (contentLength >= 0 && !otherEncoding) {
      this.state = BODY_LENGTH;
      this.remaining = contentLength;
    } else {
      this.state = BODY_UNTIL_CLOSE;
      this.keepAlive = false;
    }
    return i;
  }

  fail(message) {
    this.error = message;
    return PARSE_ERROR;
  }
}

/** True when [from, to) contains the lowercase ASCII `word`, case-insensitively. */
function containsLower(buf, from, to, word) {
  const last = to - word.length;
  for (let i = from; i <= last; i++) if (equalsLower(buf, i, word)) return true;
  return false;
}

/** True when the value [from, to), spaces trimmed, ends with the token `word` (e.g. "gzip, chunked"). */
function endsWithToken(buf, from, to, word) {
  while (to > from && (buf[to - 1] === 32 || buf[to - 1] === 9)) to--;
  const at = to - word.length;
  if (at < from || !equalsLower(buf, at, word)) return false;
  const before = buf[at - 1];
  return at === from || before === 44 || before === 32 || before === 9; // start, ',', space, tab
}

/** True when [from, to) holds an LF not preceded by a CR (an LF at `from` counts: `from` starts the head). */
function hasBareLineFeed(buf, from, to) {
  for (let i = from; i < to; i++) {
    if (buf[i] === LF && (i === from || buf[i - 1] !== CR)) return true;
  }
  return false;
}

/** True when the bytes so far could begin "HTTP/1." (checks as many as there are). */
function hasStatusPrefix(buf, start, end) {
  const n = Math.min(end - start, STATUS_PREFIX.length);
  for (let i = 0; i < n; i++) if (buf[start + i] !== STATUS_PREFIX[i]) return false;
  return true;
}

/** Case-insensitive compare of buf at `at` with a lowercase ASCII name. */
function equalsLower(buf, at, lower) {
  for (let i = 0; i < lower.length; i++) {
    if ((buf[at + i] | 0x20) !== lower[i]) return false;
  }
  return true;
}

/** Decimal value of the header value [from, to) with spaces/tabs around it; -1 if invalid. */
function parseDecimal(buf, from, to) {
  while (from < to && (buf[from] === 32 || buf[from] === 9)) from++;
  while (to > from && (buf[to - 1] === 32 || buf[to - 1] === 9)) to--;
  if (from === to || to - from > 15) return -1;
  let value = 0;
  for (let i = from; i < to; i++) {
    const d = buf[i] - 48;
    if (d < 0 || d > 9) return -1;
    value = value * 10 + d;
  }
  return value;
}
