/**
 * The generator's write path (src/load/request-writer.js): through the socket's
 * handle where Node allows it, `socket.write()` otherwise and always for TLS. Every
 * byte arrives in order on either path, on Node 20 and on Node 26; a write the
 * kernel cannot take at once completes later; a failed write ends the socket.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import tls from 'node:tls';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { FAST_WRITES_AVAILABLE, RequestWriter } from '../../src/load/request-writer.js';
import { startLoad } from '../../src/load/index.js';
import { runtimePath, missingRuntime } from '../helpers/runtimes.js';
import { startHttpServer } from './helpers.js';

const CHILD = fileURLToPath(new URL('./fixtures/writer-child.js', import.meta.url));
const TLS_DIR = new URL('../../fixtures/tls/', import.meta.url);
const major = Number(process.versions.node.split('.')[0]);

/** A TCP server that echoes what it reads, or collects it; closes every socket on close(). */
async function tcpServer({ echo = false } = {}) {
  const sockets = new Set();
  const received = [];
  const server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
    s.on('error', () => {});
    s.on('data', (d) => (echo ? s.write(d) : received.push(d)));
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    port: server.address().port,
    sockets,
    received: () => Buffer.concat(received),
    close: async () => {
      for (const s of sockets) s.destroy();
      server.close();
      await once(server, 'close');
    },
  };
}

async function connect(port) {
  const socket = net.connect({ host: '127.0.0.1', port });
  await once(socket, 'connect');
  return socket;
}

/** Numbered requests, so any loss, repeat or reordering shows in the bytes. */
const requests = (n) => Array.from({ length: n }, (_, i) => Buffer.from(`GET /${i} HTTP/1.1\r\nhost: x\r\n\r\n`));

async function until(check, what) {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('request writer', () => {
  it('finds the internals it needs on the Nodes spawnbench supports (20 to 26)', () => {
    if (major >= 20 && major <= 26) assert.equal(FAST_WRITES_AVAILABLE, true, `fast path unavailable on ${process.version}`);
  });

  for (const fast of [true, false]) {
    it(`${fast ? 'fast path' : 'public socket.write()'}: every byte in order, one write per request`, async () => {
      const server = await tcpServer();
      const socket = await connect(server.port);
      const writer = new RequestWriter(socket, { fast });
      const list = requests(2000);
      for (const r of list) writer.write(r);
      const expected = Buffer.concat(list);
      await until(() => server.received().length >= expected.length, 'every byte');
      assert.ok(server.received().equals(expected), 'the bytes differ from what was written');
      assert.equal(writer.fastWrites, fast && FAST_WRITES_AVAILABLE ? list.length : 0);
      socket.destroy();
      await server.close();
    });
  }

  it('a write the kernel cannot take at once completes later, and the next write follows it', async () => {
    const server = await tcpServer();
    const socket = await connect(server.port);
    const [peer] = server.sockets;
    peer.pause(); // the kernel buffers fill: the big write cannot finish at once
    const writer = new RequestWriter(socket);
    const big = Buffer.alloc(32 * 1024 * 1024, 'a');
    const tail = Buffer.from('tail');
    writer.write(big);
    if (FAST_WRITES_AVAILABLE) assert.equal(writer.req, null, 'the WriteWrap of a write in flight was kept for reuse');
    writer.write(tail);
    peer.resume();
    await until(() => server.received().length >= big.length + tail.length, 'the big write and the one after it');
    const got = server.received();
    assert.equal(got.length, big.length + tail.length);
    assert.ok(got.subarray(big.length).equals(tail), 'the write after the big one arrived out of order');
    assert.equal(got.indexOf('t'), big.length);
    socket.destroy();
    await server.close();
  });

  it('a write on a connection the peer reset ends the socket with the error', async () => {
    const server = await tcpServer();
    // As the generator's sockets: reads into a buffer (onread), so pause() stops reading
    // at the handle and the reset shows on the write, not on a read.
    const socket = net.connect({ host: '127.0.0.1', port: server.port, onread: { buffer: Buffer.alloc(1024), callback: () => {} } });
    await once(socket, 'connect');
    socket.pause();
    const [peer] = server.sockets;
    peer.resetAndDestroy();
    await new Promise((r) => setTimeout(r, 50));
    const errored = new Promise((resolve) => socket.once('error', resolve));
    const closed = new Promise((resolve) => socket.once('close', resolve));
    const writer = new RequestWriter(socket);
    // The first write may still be taken by the kernel; a reset connection refuses the next ones.
    for (let i = 0; i < 20 && !socket.destroyed; i++) {
      writer.write(Buffer.from('x'));
      await new Promise((r) => setTimeout(r, 20));
    }
    const error = await errored;
    assert.match(error.code, /^(EPIPE|ECONNRESET|ERR_STREAM_DESTROYED|ERR_STREAM_WRITE_AFTER_END)$/);
    await closed;
    await server.close();
  });

  it('TLS always takes the public path', async () => {
    const server = tls.createServer({ key: readFileSync(new URL('key.pem', TLS_DIR)), cert: readFileSync(new URL('cert.pem', TLS_DIR)) }, (s) => {
      s.on('data', (d) => s.write(d));
    });
    server.listen(0, '127.0.0.1');
    await once(server, 'listening');
    const socket = tls.connect({ host: '127.0.0.1', port: server.address().port, rejectUnauthorized: false });
    await once(socket, 'secureConnect');
    const writer = new RequestWriter(socket, { secure: true });
    let echoed = '';
    socket.on('data', (d) => (echoed += d));
    for (const r of requests(50)) writer.write(r);
    const expected = Buffer.concat(requests(50)).toString();
    await until(() => echoed.length >= expected.length, 'the TLS echo');
    assert.equal(echoed, expected);
    assert.equal(writer.fastWrites, 0);
    socket.destroy();
    server.close();
    await once(server, 'close');
  });

  // This Node (20 on this machine) and Node 26 from the runtime cache, in one run.
  for (const name of ['this', 'node26']) {
    const skip = name === 'this' ? false : missingRuntime(name);
    it(`on ${name === 'this' ? `Node ${process.version}` : name}: the fast path is taken and every byte echoes back`, { skip }, async () => {
      const exe = name === 'this' ? process.execPath : runtimePath(name);
      const server = await tcpServer({ echo: true });
      const child = spawn(exe, [CHILD, String(server.port), '500'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d) => (out += d));
      child.stderr.on('data', (d) => (err += d));
      const [code] = await once(child, 'exit');
      await server.close();
      assert.equal(code, 0, err);
      const report = JSON.parse(out);
      assert.equal(report.echoed, 500 * 64);
      assert.equal(report.available, true, `no fast path on ${report.version}`);
      assert.equal(report.fastWrites, 500);
    });
  }

  describe('in the generator', () => {
    let server;
    before(async () => {
      server = await startHttpServer((req, res) => {
        res.writeHead(200, { 'content-length': 3 });
        res.end('hi\n');
      });
    });
    after(() => server.close());

    for (const writePath of ['fast', 'public']) {
      it(`writePath ${writePath}: every response checked, no error, the path in the result`, async () => {
        const result = await startLoad({ warmupMs: 0, url: server.url, connections: 4, requests: 2000, expectedBody: 'hi\n', writePath }).done;
        assert.equal(result.requests, 2000);
        assert.equal(result.errors.total, 0);
        assert.equal(result.generator.writePath, writePath === 'fast' && FAST_WRITES_AVAILABLE ? 'fast' : 'public');
      });
    }

    it('rejects an unknown writePath', () => {
      assert.throws(() => startLoad({ warmupMs: 0, url: server.url, writePath: 'quick' }), /writePath must be 'fast' or 'public'/);
    });
  });
});
