/**
 * Who may write to a worker's channel. An abstract Unix socket has no file and so no
 * permissions: any local process (any user) can connect to it, and its name is listed
 * in /proc/net/unix. So the channel is guarded by a secret instead: the main process
 * makes a fresh random one for each worker, gives it to that worker privately (in its
 * environment: not on its command line, not in the socket's name), and the worker
 * sends it as its first frame. The main process reads nothing else from a connection
 * until that frame has matched (constant-time compare), accepts one such connection
 * per worker, and drops every other connection before any of its bytes can reach a
 * response, counting and logging each refusal.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { HEADER_BYTES, HELLO } from './frames.js';

/** The environment variable that carries a worker's secret (hex). The worker deletes it at once. */
export const SECRET_ENV = 'SPAWNBENCH_COMM_SECRET';
/** Bytes of randomness per worker secret: 256 bits, not guessable in any number of tries. */
export const SECRET_BYTES = 32;
/**
 * How long a connection may take to present the secret, in ms. A worker sends it in the
 * same tick it connects; the limit only stops an outsider from holding sockets open.
 */
export const HELLO_TIMEOUT_MS = 5_000;
/**
 * Connections still owing their first frame that one channel holds at a time; beyond it the
 * oldest is dropped, so a flood of silent connections cannot crowd out the worker's own.
 */
export const MAX_PENDING_HELLOS = 4;

/** A fresh secret for one worker. */
export function newSecret() {
  return randomBytes(SECRET_BYTES);
}

/**
 * Guards one worker's listener.
 * @param {object} options
 * @param {Buffer} options.secret this worker's secret
 * @param {(socket: import('node:net').Socket, rest: Buffer) => void} options.onAccepted the worker's own
 *   connection, with any bytes that came after its first frame
 * @param {(reason: string) => void} options.onRefused a connection was dropped
 * @returns {(socket: import('node:net').Socket) => void} the listener's connection handler
 */
export function guardChannel({ secret, onAccepted, onRefused }) {
  const expected = helloFrame(secret);
  let accepted = false;
  const pending = new Map(); // socket -> settle(), oldest first
  return (socket) => {
    socket.on('error', () => {});
    if (accepted) return refuse(socket, 'the worker is already connected');
    if (pending.size >= MAX_PENDING_HELLOS) {
      const [oldest, settleOldest] = pending.entries().next().value;
      settleOldest();
      refuse(oldest, 'too many connections waiting to present the secret');
    }
    let received = Buffer.alloc(0);
    let settled = false;
    const settle = () => {
      settled = true;
      pending.delete(socket);
      clearTimeout(timer);
      socket.off('data', onData);
      socket.off('close', onClose);
    };
    const timer = setTimeout(() => {
      settle();
      refuse(socket, `no secret within ${HELLO_TIMEOUT_MS / 1000}s`);
    }, HELLO_TIMEOUT_MS);
    timer.unref();
    const onClose = () => {
      if (settled) return;
      settle();
      onRefused('closed before presenting the secret');
    };
    const onData = (chunk) => {
      received = Buffer.concat([received, chunk]);
      if (received.length < expected.length) {
        // A prefix that already differs is refused now, without waiting for the rest.
        if (!timingSafeEqual(received, expected.subarray(0, received.length))) {
          settle();
          refuse(socket, 'its first frame is not the secret');
        }
        return;
      }
      settle();
      const first = received.subarray(0, expected.length);
      if (accepted || !timingSafeEqual(first, expected)) {
        return refuse(socket, accepted ? 'the worker is already connected' : 'its first frame is not the secret');
      }
      accepted = true;
      onAccepted(socket, received.subarray(expected.length));
    };
    pending.set(socket, settle);
    socket.on('data', onData);
    socket.on('close', onClose);
  };

  function refuse(socket, reason) {
    socket.destroy();
    onRefused(reason);
  }
}

/** The first frame a worker sends: [0][HELLO][length][secret]. */
export function helloFrame(secret) {
  const frame = Buffer.alloc(HEADER_BYTES + secret.length);
  frame.writeUInt32BE(0, 0);
  frame.writeUInt8(HELLO, 4);
  frame.writeUInt32BE(secret.length, 5);
  secret.copy(frame, HEADER_BYTES);
  return frame;
}
