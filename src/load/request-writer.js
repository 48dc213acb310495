/**
 * Writes one request's bytes on a plain TCP connection with the least work Node
 * allows, or through the public `socket.write()` where that is not possible.
 *
 * Why: `socket.write()` goes through `Writable.write`, allocates a new WriteWrap
 * and defers its callback with a `nextTick`: 0.37–0.43 µs of the ~1.6 µs user time
 * per request of this generator (perf, issue 28). The handle's own `writeBuffer()`
 * with one WriteWrap per connection, reused while writes complete at once (a
 * request of a few hundred bytes on a connected socket always does), is the same
 * single write(2) without the stream machinery. The stream's byte counters and
 * write queue are not used by the generator, so nothing reads what it skips.
 *
 * The fast path uses Node internals (`process.binding('stream_wrap')`: WriteWrap,
 * streamBaseState), so it is taken only when the feature check below finds them as
 * Node 20 to 26 have them; otherwise, for TLS (a TLSSocket's writes go through its
 * own JS layer, which the fast path must not skip) and for a socket without a stream
 * handle, every write is `socket.write()`. A write that does not finish at
 * once keeps its WriteWrap and buffer until libuv calls back, as Node's own path does.
 */
import { getSystemErrorName } from 'node:util';

/** The internals of the fast path, or null when this Node does not have them as expected. */
const internals = findInternals();

function findInternals() {
  let binding;
  try {
    // process.binding is deprecated (DEP0111) but still allowed for stream_wrap and
    // silent unless --pending-deprecation; with that flag, skip it rather than warn.
    if (process.execArgv.includes('--pending-deprecation') || process.env.NODE_PENDING_DEPRECATION === '1') return null;
    // @ts-expect-error process.binding is deprecated and undocumented, so @types/node leaves it out
    // eslint-disable-next-line n/no-deprecated-api -- the one internal this module exists to use, behind the checks below
    binding = process.binding('stream_wrap');
  } catch {
    return null;
  }
  const { WriteWrap, streamBaseState, kLastWriteWasAsync } = binding ?? {};
  if (typeof WriteWrap !== 'function' || !(streamBaseState instanceof Int32Array)) return null;
  if (!Number.isInteger(kLastWriteWasAsync) || kLastWriteWasAsync < 0 || kLastWriteWasAsync >= streamBaseState.length) return null;
  return { WriteWrap, streamBaseState, kLastWriteWasAsync };
}

/** Whether this Node offers the fast path at all (reported by bench:generator and the tests). */
export const FAST_WRITES_AVAILABLE = internals !== null;

/** An error like the one Node's own write path raises for a libuv error code. */
function writeError(code) {
  const name = getSystemErrorName(code);
  /** @type {NodeJS.ErrnoException} */
  const error = new Error(`write ${name}`);
  error.code = name;
  error.errno = code;
  error.syscall = 'write';
  return error;
}

/**
 * libuv finished a write that did not complete at once: a failure ends the socket as Node's path would.
 * @this {{ socket: import('node:net').Socket|null, buffer: Buffer|null }} the WriteWrap
 * @param {number} status
 */
function onWriteComplete(status) {
  const socket = this.socket;
  this.socket = null;
  this.buffer = null;
  if (status < 0 && socket && !socket.destroyed) socket.destroy(writeError(status));
}

export class RequestWriter {
  /**
   * @param {import('node:net').Socket & { _handle?: { writeBuffer?: Function } | null }} socket its `_handle`
   *   (internal) is the stream handle the fast path writes on
   * @param {{ secure?: boolean, fast?: boolean }} [options] secure: a TLS socket (always the
   *   public path); fast: false forces the public path (tests, A/B measurements)
   */
  constructor(socket, { secure = false, fast = true } = {}) {
    this.socket = socket;
    this.fast = fast && !secure && internals !== null;
    /** The WriteWrap reused while writes complete at once. */
    this.req = null;
    /** How many writes took the fast path (tests and bench:generator read it). */
    this.fastWrites = 0;
  }

  /** Writes the whole buffer (one request); errors end the socket ('error', then 'close'). */
  write(buffer) {
    const handle = this.fast ? this.socket._handle : null;
    if (handle == null || typeof handle.writeBuffer !== 'function') {
      this.socket.write(buffer);
      return;
    }
    const req = this.req ?? this.newReq(handle);
    const err = handle.writeBuffer(req, buffer);
    if (err !== 0) {
      this.socket.destroy(writeError(err));
      return;
    }
    this.fastWrites++;
    if (internals.streamBaseState[internals.kLastWriteWasAsync] !== 0) {
      // libuv holds this request until the kernel takes the rest: it keeps the
      // buffer alive and calls onWriteComplete; the next write gets a new WriteWrap.
      req.socket = this.socket;
      req.buffer = buffer;
      this.req = null;
    }
  }

  newReq(handle) {
    const req = new internals.WriteWrap();
    req.handle = handle;
    req.oncomplete = onWriteComplete;
    req.async = false;
    req.socket = null;
    req.buffer = null;
    this.req = req;
    return req;
  }
}
