/**
 * spawnbench's side of the probe channel: a Unix socket server in a fresh temp
 * directory, and the environment that makes a strategy's Node processes load the
 * probe and report to it.
 */
import { EventEmitter } from 'node:events';
import net from 'node:net';
import { rm } from 'node:fs/promises';
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { makeOwnedTempDir } from '../sample/owned-temp-dir.js';
import { SOCKET_ENV, INTERVAL_ENV, ROOT_ENV, COMMANDS_ENV, ROUTES_ENV, PROTOCOL_VERSION, parseInterval } from './protocol.js';
import { SAMPLE_INTERVAL_MS } from '../base/thresholds.js';

/** URL of the file injected with --import. A file URL has no spaces or quotes, so NODE_OPTIONS needs no quoting. */
export const PROBE_URL = new URL('./preload.js', import.meta.url).href;

/**
 * The arguments a runtime needs before the entry script to load the probe itself.
 * Node: none (NODE_OPTIONS in `env` does it). Bun ignores NODE_OPTIONS but takes
 * `--preload`; there the probe measures time blocked in spawn, loop delay, GC and
 * memory, not ELU (Bun 1.4 reports zeros). Deno has no preload: null.
 * @param {'node'|'bun'|'deno'} runtime
 * @returns {string[]|null}
 */
export function preloadArgs(runtime) {
  if (runtime === 'node') return [];
  if (runtime === 'bun') return ['--preload', fileURLToPath(PROBE_URL)];
  return null;
}

/**
 * 1 MiB: a report is ~300 bytes; a longer line without a newline is not a probe
 * talking, and is dropped with its connection.
 */
const MAX_LINE_BYTES = 1024 * 1024;

/**
 * Opens the channel probes report to.
 *
 * @param {{ intervalMs?: number, routes?: boolean }} [options] `intervalMs`: how often each probed thread reports (default 250);
 *   `routes`: attribute the event loop's time to the HTTP routes served (default true; off only to measure its cost)
 * @returns {Promise<EventEmitter & {
 *   env: Record<string, string>,
 *   socketPath: string,
 *   intervalMs: number,
 *   close: () => Promise<void>,
 * }>} The channel. `env` is merged into the strategy's environment: NODE_OPTIONS is the
 *   current `process.env.NODE_OPTIONS` with `--import=<probe>` appended (pass your own base with
 *   `channel.nodeOptions(base)`), plus SPAWNBENCH_PROBE_SOCKET, SPAWNBENCH_PROBE_INTERVAL and an
 *   empty SPAWNBENCH_PROBE_ROOT and SPAWNBENCH_PROBE_COMMANDS_FROM (the started process is the root of
 *   the probed tree, and no command of it is yet known for a per-request command).
 *   Emits `report` (one probe report, see protocol.js) and `connection` / `disconnection`
 *   (`{ count }` live connections). `close()` stops the server, drops the probes' connections
 *   and removes the temp directory.
 */
export async function openProbeChannel({ intervalMs = SAMPLE_INTERVAL_MS, routes = true } = {}) {
  const interval = parseInterval(intervalMs);
  const dir = await makeOwnedTempDir('probe');
  const socketPath = path.join(dir, 'probe.sock');
  const channel = new EventEmitter();
  const sockets = new Set();

  const server = net.createServer((socket) => {
    sockets.add(socket);
    channel.emit('connection', { count: sockets.size });
    readLines(socket, (line) => {
      let report;
      try {
        report = JSON.parse(line);
      } catch {
        return;
      }
      if (report?.v === PROTOCOL_VERSION) channel.emit('report', report);
    });
    socket.on('error', () => socket.destroy());
    socket.on('close', () => {
      sockets.delete(socket);
      channel.emit('disconnection', { count: sockets.size });
    });
  });
  try {
    await new Promise((resolve, reject) => {
      server.once('error', reject);
      server.listen(socketPath, () => resolve());
    });
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  server.unref();
  // A process that exits without close() (process.exit, an uncaught error) still
  // leaves no socket directory behind.
  const removeOnExit = () => rmSync(dir, { recursive: true, force: true });
  process.once('exit', removeOnExit);

  const nodeOptions = (base = process.env.NODE_OPTIONS) => [base, `--import=${PROBE_URL}`].filter(Boolean).join(' ');
  let closing = null;
  return Object.assign(channel, {
    socketPath,
    intervalMs: interval,
    env: { NODE_OPTIONS: nodeOptions(), [SOCKET_ENV]: socketPath, [INTERVAL_ENV]: String(interval), [ROOT_ENV]: '', [COMMANDS_ENV]: '', [ROUTES_ENV]: routes ? '1' : '0' },
    nodeOptions,
    close() {
      closing ??= (async () => {
        for (const socket of sockets) socket.destroy();
        await new Promise((resolve) => server.close(() => resolve()));
        await rm(dir, { recursive: true, force: true });
        process.off('exit', removeOnExit);
      })();
      return closing;
    },
  });
}

/**
 * Calls `onLine` for each newline-terminated line read from `socket`.
 * @param {import('node:net').Socket} socket
 * @param {(line: string) => void} onLine
 */
function readLines(socket, onLine) {
  let pending = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk) => {
    pending += chunk;
    let newline = pending.indexOf('\n');
    while (newline !== -1) {
      onLine(pending.slice(0, newline));
      pending = pending.slice(newline + 1);
      newline = pending.indexOf('\n');
    }
    if (pending.length > MAX_LINE_BYTES) socket.destroy();
  });
}
