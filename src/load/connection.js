/**
 * One keep-alive connection of a generator thread: one request in flight at a
 * time, reconnects whenever the server closes, counts every failure by kind.
 *
 * Hot path (per request): write the pre-built request bytes (request-writer.js:
 * through the socket's handle, one reused WriteWrap, where Node allows it), read into the
 * thread's one reused read buffer (net's `onread`, no Buffer per packet), feed the
 * hand-written parser (response-parser.js), compare the body in place, record the
 * latency. No timers per request (one sweep per thread finds timeouts), and no
 * closure, Buffer or object of ours allocated per request.
 *
 * Why hand-written rather than node:http's client or undici: measured with
 * `npm run bench:generator` (hello-world fixture, 50 connections, 2 rounds of 10 s
 * per tool, this project's shared 2-vCPU machine), CPU per request of the whole
 * generator process: this generator 10.9 µs, node:http with a keep-alive Agent
 * 61.4 µs (5.6× more: an IncomingMessage, a headers object and stream plumbing
 * per response), autocannon 16.1 µs, wrk 9.5 µs. Most of what is left is the
 * kernel's: the write() of each request is ~80% of this thread's busy time.
 */
import net from 'node:net';
import tls from 'node:tls';
import { performance } from 'node:perf_hooks';
import { NEED_MORE, PARSE_ERROR, ResponseParser } from './response-parser.js';
import { BODY_SAMPLE_BYTES, CONNECT, ERROR_KINDS, PARSE, RESET, TIMEOUT, TLS } from './counters.js';
import { RequestWriter } from './request-writer.js';
import { cleanText, firstLine } from '../base/untrusted-text.js';

// Bodies up to this many bytes are compared in a JS loop: cheaper than the
// native Buffer#compare call for a few bytes such as "hi\n" (~20 vs ~170 ns).
const SMALL_COMPARE_BYTES = 64;

/**
 * The text of a request that got no byte of an answer because the server closed the kept-alive connection it was sent on
 * (after a response that did not say Connection: close).
 */
export const KEPT_ALIVE_CLOSE_TEXT = 'closed by the server with no answer, on a kept-alive connection (its response before did not say Connection: close)';

/**
 * The text of a request that got no byte of an answer because the server closed the new connection it was sent on: a
 * server that holds fewer connections than it is sent (server.maxConnections) closes the others so.
 */
export const NEW_CONNECTION_CLOSE_TEXT = 'closed by the server with no answer, on a new connection';

/** The text of a request that got no response within --timeout (a timeout has no errno). */
export const TIMEOUT_TEXT = 'no response within --timeout';

/**
 * Shared state of a generator thread that every connection reads.
 * @typedef {object} ConnectionContext
 * @property {string} host
 * @property {number} port
 * @property {{ servername?: string, rejectUnauthorized: boolean, session: Buffer|null }|null} tls
 *   https targets: the handshake options and the last session ticket, offered on every reconnect
 * @property {Buffer[]} requestBytes each mix entry's request (one without --mix)
 * @property {boolean[]} noBody per entry: its method is HEAD
 * @property {() => number} draw the entry the next request sends (0 without a mix)
 * @property {boolean} fastWrites write through the handle (request-writer.js) where this Node allows it
 * @property {Buffer} readBuffer reused by every socket of the thread
 * @property {Buffer|null} expectedBody
 * @property {number} [timeoutMs] --timeout: a response that ends later is a timeout
 * @property {import('./counters.js').IntervalStats} stats current interval's counters
 * @property {number|null} lastAnswerAt performance.now() of the last response read, of any phase (null: none yet)
 * @property {number} generation the phase requests are counted in (changes at each phase)
 * @property {boolean} counting false before 'go' and after the end: errors are not counted
 * @property {boolean} stopping
 * @property {Set<number>} sampledStatuses statuses whose body sample was taken
 * @property {(conn: Connection, now: number) => void} onIdle ready for a request
 * @property {(measured: boolean) => void} onOutcome a request ended (response or error)
 * @property {() => void} onConnectFailed
 * @property {(fn: () => void) => void} retryLater reconnect after a back-off
 */

export class Connection {
  /** @param {ConnectionContext} ctx */
  constructor(ctx) {
    this.ctx = ctx;
    this.parser = new ResponseParser(this);
    this.parser.noBody = ctx.noBody[0];
    /** The mix entry of the request in flight. */
    this.entry = 0;
    this.socket = null;
    /** @type {RequestWriter|null} the socket's writer (request-writer.js) */
    this.writer = null;
    this.connected = false;
    this.connectStartedAt = 0;
    this.lastErrorCode = null;
    /** The socket already carried a whole response: a request on it rides a kept-alive connection. */
    this.reused = false;
    this.inFlight = false;
    this.startedAt = 0;
    this.sentAt = 0;
    this.generation = -1;
    this.status = 0;
    this.verify = false;
    this.bodyOffset = 0;
    this.mismatch = false;
    /** Non-2xx only: the body's first bytes are being kept (2xx responses never touch these). */
    this.sampling = false;
    this.sample = null;
    this.sampleLength = 0;
    this.closed = false;
    /** Set by the loops while the connection sits in their idle list. */
    this.idleListed = false;
    /** True once a connect attempt failed (the thread stops waiting for it before 'go'). */
    this.failedOnce = false;
    /** https: TCP is up, the TLS handshake is not done; a failure now is a TLS error, not a refused connect. */
    this.handshaking = false;
  }

  /** Opens the socket; onIdle is called once it is connected. */
  connect() {
    if (this.closed || this.ctx.stopping) return;
    this.connected = false;
    this.inFlight = false;
    this.lastErrorCode = null;
    this.reused = false;
    this.parser.reset();
    this.connectStartedAt = performance.now();
    this.handshaking = false;
    const secure = this.ctx.tls;
    let socket;
    try {
      socket = secure ? this.connectTls(secure) : net.connect({
        host: this.ctx.host,
        port: this.ctx.port,
        onread: {
          buffer: this.ctx.readBuffer,
          // Returning false would pause the socket (net.connect's onread); it never pauses.
          callback: (nread, buf) => {
            if (socket === this.socket) this.onRead(nread, buf);
            return true;
          },
        },
      });
    } catch (error) {
      this.socket = null;
      this.lastErrorCode = error.code ?? 'ERR';
      this.connectFailed();
      return;
    }
    this.socket = socket;
    this.writer = new RequestWriter(socket, { secure: Boolean(secure), fast: this.ctx.fastWrites });
    socket.setNoDelay(true);
    socket.on(secure ? 'secureConnect' : 'connect', () => {
      if (socket !== this.socket) return;
      this.handshaking = false;
      this.connected = true;
      this.ctx.onIdle(this, performance.now());
    });
    socket.on('error', (/** @type {NodeJS.ErrnoException} */ error) => {
      if (socket === this.socket) this.lastErrorCode = error.code ?? 'ERR';
    });
    socket.on('close', () => {
      if (socket === this.socket) this.onClose();
    });
  }

  /**
   * An https connection: node:tls over the same socket logic. TLS hands decrypted
   * data over as 'data' Buffers (no `onread` into the shared buffer); the session
   * ticket of the last handshake is offered on reconnect, so a server that closes
   * connections costs an abbreviated handshake, not a full one.
   */
  connectTls(secure) {
    const socket = tls.connect({
      host: this.ctx.host,
      port: this.ctx.port,
      servername: secure.servername,
      rejectUnauthorized: secure.rejectUnauthorized,
      session: secure.session ?? undefined,
      ALPNProtocols: ['http/1.1'],
    });
    socket.on('connect', () => {
      if (socket === this.socket) this.handshaking = true;
    });
    socket.on('session', (session) => {
      secure.session = session;
    });
    socket.on('data', (buf) => {
      if (socket === this.socket) this.onRead(buf.length, buf);
    });
    return socket;
  }

  /**
   * Sends the request. `startedAt` is when it should have been sent (open loop)
   * or now (closed loop): latency counts from there.
   */
  send(startedAt, now, generation) {
    this.inFlight = true;
    this.startedAt = startedAt;
    this.sentAt = now;
    this.generation = generation;
    this.status = 0;
    this.sampling = false;
    const entry = this.ctx.draw();
    this.entry = entry;
    this.parser.noBody = this.ctx.noBody[entry];
    this.writer.write(this.ctx.requestBytes[entry]);
  }

  /** Parser callback: a final response head arrived. */
  onHead(status) {
    this.status = status;
    this.verify = this.ctx.expectedBody !== null && status >= 200 && status < 300;
    this.bodyOffset = 0;
    this.mismatch = false;
    if (status < 200 || status > 299) {
      // Every non-2xx body's first bytes are kept, for its first line (counted by
      // text) and the first body of each status; one buffer per connection, made once.
      this.sample ??= Buffer.allocUnsafe(BODY_SAMPLE_BYTES);
      this.sampling = true;
      this.sampleLength = 0;
    }
  }

  /** Parser callback: body bytes [start, end) of buf (valid during the call only). */
  onBody(buf, start, end) {
    if (this.verify && !this.mismatch) {
      const expected = this.ctx.expectedBody;
      const length = end - start;
      const offset = this.bodyOffset;
      if (offset + length > expected.length) {
        this.mismatch = true;
      } else if (length <= SMALL_COMPARE_BYTES) {
        for (let i = 0; i < length; i++) {
          if (buf[start + i] !== expected[offset + i]) {
            this.mismatch = true;
            break;
          }
        }
      } else if (expected.compare(buf, start, end, offset, offset + length) !== 0) {
        this.mismatch = true;
      }
      this.bodyOffset = offset + length;
    } else if (this.sampling && this.sampleLength < BODY_SAMPLE_BYTES) {
      const take = Math.min(end - start, BODY_SAMPLE_BYTES - this.sampleLength);
      buf.copy(this.sample, this.sampleLength, start, start + take);
      this.sampleLength += take;
    }
  }

  onRead(nread, buf) {
    const ctx = this.ctx;
    // The bytes of the responses counted: a warm-up request answered in the measured phase is neither.
    if (ctx.counting && this.generation === ctx.generation) ctx.stats.bytes += nread;
    if (!this.inFlight) {
      // Bytes nobody asked for: the stream can no longer be trusted.
      this.fail(PARSE);
      return;
    }
    const at = this.parser.feed(buf, 0, nread);
    if (at === NEED_MORE) return;
    if (at === PARSE_ERROR) {
      // What broke HTTP/1.1 (a second Content-Length, a head too large): without it, "is it the right port?" was all.
      this.lastErrorCode = this.parser.error ?? null;
      this.fail(PARSE);
      return;
    }
    if (at < nread) {
      // The response asked for is whole, and bytes follow it although only one
      // request was sent: a second response nobody asked for. The first counts as
      // it is; the rest is one parse error, and the connection is reopened, since
      // whatever else it carries would be taken for the answers to later requests.
      this.record(performance.now());
      this.fail(PARSE);
      return;
    }
    this.complete();
  }

  complete() {
    const ctx = this.ctx;
    const now = performance.now();
    // A response that ended after --timeout is a timeout: the sweep that says so runs only every 10 ms or more,
    // and a response between the two was a success whose latency passed the timeout (--timeout 1ms: p99 12.7 ms).
    if (now - this.sentAt > ctx.timeoutMs) {
      this.fail(TIMEOUT);
      return;
    }
    const keepAlive = this.record(now);
    if (this.closed || ctx.stopping) return;
    if (keepAlive) ctx.onIdle(this, now);
    else this.reconnect();
  }

  /**
   * Counts the response that just ended (if its phase is measured) and readies the
   * parser for the next one.
   * @returns {boolean} whether the server keeps the connection open
   */
  record(now) {
    const ctx = this.ctx;
    this.inFlight = false;
    // When the server last answered anyone: a request left waiting while others were answered was lost, not a stall.
    ctx.lastAnswerAt = now;
    const measured = this.generation === ctx.generation && ctx.counting;
    if (measured) {
      const mismatch = this.verify && (this.mismatch || this.bodyOffset !== ctx.expectedBody.length);
      ctx.stats.response(this.status, now - this.startedAt, mismatch, this.entry);
      if (this.sampling) this.keepSample();
    }
    const keepAlive = this.parser.keepAlive;
    this.parser.reset();
    this.reused = true;
    ctx.onOutcome(measured);
    return keepAlive;
  }

  /** A non-2xx response was measured: its first line counted by text, its first body per status kept. */
  keepSample() {
    const ctx = this.ctx;
    this.sampling = false;
    ctx.stats.errorText(this.status, 'non2xx', firstLine(this.sample, this.sampleLength), this.entry);
    if (ctx.sampledStatuses.has(this.status)) return;
    ctx.sampledStatuses.add(this.status);
    ctx.stats.bodySamples[this.status] = this.sample.toString('utf8', 0, this.sampleLength);
  }

  /** A failed request's errno (ECONNREFUSED, ECONNRESET, …) as its text, where there is one. */
  keepErrorCode(kind, entry = -1) {
    if (this.lastErrorCode) this.ctx.stats.errorText(0, ERROR_KINDS[kind], cleanText(this.lastErrorCode), entry);
  }

  /** Counts a failure of the request in flight (if any), then reconnects. */
  fail(kind) {
    const ctx = this.ctx;
    if (this.inFlight) {
      this.inFlight = false;
      const measured = this.generation === ctx.generation && ctx.counting;
      if (measured) {
        ctx.stats.error(kind, this.entry);
        this.keepErrorCode(kind, this.entry);
      }
      ctx.onOutcome(measured);
    } else if (kind === PARSE && ctx.counting) {
      // Bytes or a response no request asked for: a parse error, but no request failed (it was counted as one:
      // "6,450 more got no response: 50% succeeded" where every request had its answer).
      ctx.stats.error(kind);
      ctx.stats.unsolicited++;
    }
    this.reconnect();
  }

  /** Called by the thread's sweep with the current time: times out slow requests and connects. */
  checkTimeout(now, timeoutMs) {
    if (this.inFlight) {
      if (now - this.sentAt > timeoutMs) {
        // A timeout has no errno: without a text it was missing from the error texts, and a few connect
        // ETIMEDOUTs beside 1,630 timeouts were named as why requests failed.
        this.lastErrorCode = TIMEOUT_TEXT;
        this.fail(TIMEOUT);
      }
    } else if (!this.connected && this.socket !== null && now - this.connectStartedAt > timeoutMs) {
      this.lastErrorCode = 'ETIMEDOUT';
      const socket = this.socket;
      this.socket = null;
      socket.destroy();
      this.connectFailed();
    }
  }

  reconnect() {
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
    this.connect();
  }

  onClose() {
    const socket = this.socket;
    this.socket = null;
    socket.destroy();
    if (!this.connected) {
      this.connectFailed();
      return;
    }
    if (this.inFlight) {
      if (this.parser.finish()) {
        // The body was delimited by the close: the response is complete.
        this.complete();
        return;
      }
      // A close with no socket error has no errno to show: without a text, such resets were missing from the
      // error texts ("reset 7,129" above "reset ×3,538: ECONNRESET", the verdict's "most frequent" too).
      // No byte of an answer on a connection that had answered before, without Connection: close: the server closed a
      // kept-alive connection under the request sent on it ("closed before the response ended" said a response was cut).
      // So too on a new connection: "closed before the response ended" was said of a server that closed the connections
      // past its server.maxConnections, where no response had begun.
      const unanswered = this.status === 0 && (this.lastErrorCode === null || this.lastErrorCode === 'ECONNRESET' || this.lastErrorCode === 'EPIPE');
      this.lastErrorCode = unanswered ? (this.reused ? KEPT_ALIVE_CLOSE_TEXT : NEW_CONNECTION_CLOSE_TEXT) : this.lastErrorCode ?? 'closed before the response ended';
      this.fail(RESET);
      return;
    }
    this.connect();
  }

  connectFailed() {
    const ctx = this.ctx;
    this.failedOnce = true;
    if (this.handshaking && !this.lastErrorCode) this.lastErrorCode = 'TLS_HANDSHAKE_CLOSED';
    if (ctx.counting) {
      ctx.stats.error(this.handshaking ? TLS : CONNECT);
      this.keepErrorCode(this.handshaking ? TLS : CONNECT);
      if (this.lastErrorCode) ctx.stats.notes.add(this.lastErrorCode);
      ctx.onConnectFailed();
    }
    if (!this.closed && !ctx.stopping) ctx.retryLater(() => this.connect());
  }

  /** Closes the socket for good (end of run). */
  close() {
    this.closed = true;
    this.inFlight = false;
    const socket = this.socket;
    this.socket = null;
    socket?.destroy();
  }
}
