import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connectReporter } from '../../src/probe/reporter.js';

/** A Unix-socket server that accepts one connection and pauses it until `read()` is called. */
async function stalledReader(socketPath) {
  const server = net.createServer();
  server.listen(socketPath);
  await once(server, 'listening');
  const accepted = once(server, 'connection').then(([socket]) => {
    socket.pause();
    return socket;
  });
  return {
    async read(until) {
      const socket = await accepted;
      let text = '';
      socket.setEncoding('utf8').on('data', (chunk) => {
        text += chunk;
      });
      socket.resume();
      while (!until(text)) await new Promise((resolve) => setTimeout(resolve, 20));
      return text;
    },
    async close() {
      (await accepted).destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

test('reports stay whole and in order when the reader stalls and the socket fills', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'spawnbench-reporter-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const reader = await stalledReader(path.join(dir, 'r.sock'));
  let closed = false;
  const reporter = connectReporter(path.join(dir, 'r.sock'), () => {
    closed = true;
  });
  t.after(async () => {
    reporter.close();
    await reader.close();
  });
  // Sent before and after the connection is up; ~1 KB each, 150 of them: more than a
  // Unix socket's buffer holds, so some go straight to the fd and the rest through the stream.
  const pad = 'x'.repeat(1000);
  reporter.send({ seq: 0, pad });
  await new Promise((resolve) => setTimeout(resolve, 50));
  for (let seq = 1; seq < 150; seq += 1) reporter.send({ seq, pad });
  const text = await reader.read((received) => received.split('\n').length > 150 || received.includes('"seq":149'));
  const lines = text.trimEnd().split('\n').map((line) => JSON.parse(line));
  assert.deepEqual(lines.map((line) => line.seq), Array.from({ length: lines.length }, (_, i) => i), 'no line lost or reordered');
  assert.ok(lines.length >= 60, `at least the 64 KiB the reporter may queue arrived: ${lines.length} lines`);
  assert.equal(closed, false);
});
