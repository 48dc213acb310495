/**
 * The probe's side of its channel: one Unix-socket connection per thread, lines
 * of JSON out. It is a socket of its own, never `process.send` or `parentPort`,
 * so a report can never reach the strategy's message handlers. The socket is
 * `unref()`d (it never keeps the host alive) and every failure is swallowed: the
 * probe goes quiet rather than disturb the server it measures.
 */
import net from 'node:net';
import { writeSync } from 'node:fs';

/**
 * 64 KiB: ~200 reports. If spawnbench stops reading, reports are dropped rather
 * than letting the host's memory grow.
 */
const MAX_PENDING_BYTES = 64 * 1024;

/**
 * Connects to the channel.
 *
 * A report is written straight to the socket's descriptor when nothing is
 * queued: measured cold, as the probe runs it (4 times a second), a
 * `socket.write()` of a report line took 160 µs and `fs.writeSync()` on its fd
 * 53 µs, ~0.04% of a core. A short write or a full socket hands the rest to the
 * stream, which keeps the order (direct writes wait until its queue is empty).
 *
 * @param {string} socketPath
 * @param {() => void} onClose called once when the channel is gone (spawnbench closed it or never listened)
 * @returns {{ send: (report: object) => void, close: () => void }}
 */
export function connectReporter(socketPath, onClose) {
  let open = true;
  // Its `_handle` (internal): the pipe's handle, whose descriptor writeDirect writes to.
  const socket = /** @type {net.Socket & { _handle?: { fd?: number } | null }} */ (net.createConnection(socketPath));
  socket.unref();
  const finish = () => {
    if (!open) return;
    open = false;
    socket.destroy();
    onClose();
  };
  socket.on('error', finish);
  socket.on('close', finish);
  // spawnbench sends nothing; reading keeps the socket from stalling if it ever does.
  socket.resume();

  /** Writes what it can of `line` to the descriptor; returns the unwritten rest ('' when all went). */
  const writeDirect = (line) => {
    // Read each time: `_handle` is null from the moment the socket is destroyed, before its fd is reused.
    const fd = socket.connecting ? -1 : (socket._handle?.fd ?? -1);
    if (fd < 0) return line;
    try {
      // A string, not a Buffer: the binding encodes it without a JS allocation (~30 µs cold saved).
      const written = writeSync(fd, line);
      return written === Buffer.byteLength(line) ? '' : Buffer.from(line).subarray(written);
    } catch (error) {
      if (error.code === 'EAGAIN') return line;
      finish();
      return '';
    }
  };

  return {
    send(report) {
      if (!open || socket.writableLength > MAX_PENDING_BYTES) return;
      const line = `${JSON.stringify(report)}\n`;
      const rest = socket.writableLength === 0 ? writeDirect(line) : line;
      if (open && rest.length > 0) socket.write(rest);
    },
    close: finish,
  };
}
