import { Buffer } from 'node:buffer';
import { setImmediate } from 'node:timers';

/**
 * The comm-channel wire format: each frame is `[request id: u32][type: u8][length: u32][data]`
 * (big-endian), so many requests' output can share one socket and be told apart.
 */
export const HEADER_BYTES = 9;
export const STDOUT = 1; // data: a chunk of the command's stdout
export const STDERR = 2; // data: a chunk of its stderr (dropped by the main process, as baseline does)
export const EXIT = 3; // data: exit code as an i32 (-1 when killed by a signal)
export const SPAWN_ERROR = 4; // data: why the command could not start, UTF-8
export const HELLO = 5; // data: the worker's secret; a connection's first frame, and only there (channel-guard.js)

/**
 * Writes one frame; header and data leave in one write when the socket is corked.
 * @param {import('node:net').Socket} socket
 * @param {number} id
 * @param {number} type
 * @param {Buffer} data
 */
export function writeFrame(socket, id, type, data) {
  const header = Buffer.allocUnsafe(HEADER_BYTES);
  header.writeUInt32BE(id, 0);
  header.writeUInt8(type, 4);
  header.writeUInt32BE(data.length, 5);
  socket.cork();
  socket.write(header);
  if (data.length) socket.write(data);
  socket.uncork();
}

/**
 * A batching frame writer: frames queued in one turn of the event loop leave in
 * one buffer and one write, on the next setImmediate. A worker's answers to
 * many requests (a command's stdout and its exit often land in the same turn)
 * then cost one syscall and one allocation instead of a header buffer and a
 * write each.
 * @param {import('node:net').Socket} socket
 * @returns {(id: number, type: number, data: Uint8Array) => void}
 */
export function createFrameWriter(socket) {
  let queued = []; // flat: id, type, data, id, type, data, …
  let bytes = 0;
  const flush = () => {
    const out = Buffer.allocUnsafe(bytes);
    let at = 0;
    for (let i = 0; i < queued.length; i += 3) {
      const data = queued[i + 2];
      out.writeUInt32BE(queued[i], at);
      out[at + 4] = queued[i + 1];
      out.writeUInt32BE(data.length, at + 5);
      out.set(data, at + HEADER_BYTES);
      at += HEADER_BYTES + data.length;
    }
    queued = [];
    bytes = 0;
    socket.write(out);
  };
  return (id, type, data) => {
    if (bytes === 0) setImmediate(flush);
    queued.push(id, type, data);
    bytes += HEADER_BYTES + data.length;
  };
}

/** The data of an EXIT frame. */
export function exitData(code) {
  const data = Buffer.allocUnsafe(4);
  data.writeInt32BE(code ?? -1, 0);
  return data;
}

/**
 * A reader for a byte stream of frames: feed it chunks as they arrive.
 * @param {(id: number, type: number, data: Buffer) => void} onFrame
 * @returns {(chunk: Buffer) => void}
 */
export function createFrameReader(onFrame) {
  /** @type {Buffer} */
  let pending = Buffer.alloc(0);
  return (chunk) => {
    pending = pending.length ? Buffer.concat([pending, chunk]) : chunk;
    let offset = 0;
    while (pending.length - offset >= HEADER_BYTES) {
      const length = pending.readUInt32BE(offset + 5);
      const end = offset + HEADER_BYTES + length;
      if (end > pending.length) break;
      onFrame(pending.readUInt32BE(offset), pending[offset + 4], pending.subarray(offset + HEADER_BYTES, end));
      offset = end;
    }
    pending = pending.subarray(offset);
  };
}
