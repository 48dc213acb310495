/**
 * The probe's side of its channel: one Unix-socket connection per thread, lines
 * of JSON out. It is a socket of its own, never `process.send` or `parentPort`,
 * so a report can never reach the strategy's message handlers. The socket is
 * `unref()`d (it never keeps the host alive) and every failure is swallowed: the
 * probe goes quiet rather than disturb the server it measures.
 */
import net from 'node:net';

/**
 * 64 KiB: ~200 reports. If spawnbench stops reading, reports are dropped rather
 * than letting the host's memory grow.
 */
const MAX_PENDING_BYTES = 64 * 1024;

/**
 * Connects to the channel.
 * @param {string} socketPath
 * @param {() => void} onClose called once when the channel is gone (spawnbench closed it or never listened)
 * @returns {{ send: (report: object) => void, close: () => void }}
 */
export function connectReporter(socketPath, onClose) {
  let open = true;
  const socket = net.createConnection(socketPath);
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

  return {
    send(report) {
      if (!open || socket.writableLength > MAX_PENDING_BYTES) return;
      socket.write(`${JSON.stringify(report)}\n`);
    },
    close: finish,
  };
}
