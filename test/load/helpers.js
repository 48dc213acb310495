/**
 * Servers for the load generator's tests: in-process (nothing to reap) where
 * possible, fixture processes (fixtures/servers/) where the test is about them.
 */
import http from 'node:http';
import net from 'node:net';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { misbehaveHandler } from '../../fixtures/servers/misbehave-responses.js';

const FIXTURES = fileURLToPath(new URL('../../fixtures/servers/', import.meta.url));
// A fixture that has not printed its ready line within this many ms is broken.
const READY_TIMEOUT_MS = 10_000;

async function listen(server) {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  return {
    server,
    port,
    url: `http://127.0.0.1:${port}/`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections?.();
        server.close(() => resolve());
        for (const socket of server.sockets ?? []) socket.destroy();
      }),
  };
}

/** An in-process node:http server; `connections` counts accepted TCP connections. */
export async function startHttpServer(handler) {
  const server = http.createServer(handler);
  server.keepAliveTimeout = 60_000;
  const sockets = new Set();
  let connections = 0;
  server.on('connection', (socket) => {
    connections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  server.sockets = sockets;
  const handle = await listen(server);
  return Object.defineProperty(handle, 'connections', { get: () => connections });
}

/** An in-process raw TCP server answering like `fixtures/servers/misbehave.js --mode <mode>`. */
export async function startMisbehaving(mode) {
  const server = net.createServer();
  const sockets = new Set();
  const handler = misbehaveHandler(mode);
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    handler(socket);
  });
  server.sockets = sockets;
  return listen(server);
}

/** A port nothing listens on (bound, read, released). */
export async function freePort() {
  const server = net.createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Starts fixtures/servers/<name> as a process; resolves once it printed its port.
 * @returns {Promise<{ child: import('node:child_process').ChildProcess, port: number, url: string, stop(): Promise<void> }>}
 */
export async function startFixture(name, args = []) {
  const child = spawn(process.execPath, [`${FIXTURES}${name}`, ...args], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  };
  const timer = setTimeout(() => child.kill('SIGKILL'), READY_TIMEOUT_MS);
  try {
    for await (const line of lines) {
      const message = JSON.parse(line);
      if (message.spawnbench === 'ready') {
        return { child, port: message.port, url: `http://127.0.0.1:${message.port}/`, stop };
      }
    }
    throw new Error(`fixture ${name} exited before printing its ready line`);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** True when no process has this pid any more. */
export function isGone(pid) {
  try {
    process.kill(pid, 0);
    return false;
  } catch {
    return true;
  }
}
