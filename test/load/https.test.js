// https targets: the generator over node:tls against a self-signed local server
// on port 0. With --insecure every request is counted and none fails; without
// it, the certificate is refused: TLS errors in the generator, one line naming
// --insecure from the CLI, nothing started. Keep-alive sessions, and session
// tickets offered on reconnect.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import https from 'node:https';
import { once } from 'node:events';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startLoad } from '../../src/load/index.js';
import { runCli } from '../../src/cli.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { fakeIo } from '../helpers/io.js';
import { startHttpServer } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-https-'));

/** A fresh self-signed pair from openssl when it is on PATH, else the shipped test-only pair. */
function keyPair() {
  try {
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
      '-days', '1', '-subj', '/CN=localhost', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    return { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) };
  } catch {
    const shipped = new URL('../../fixtures/tls/', import.meta.url);
    return { key: readFileSync(new URL('key.pem', shipped)), cert: readFileSync(new URL('cert.pem', shipped)) };
  }
}

let server;
let url;
const stats = { connections: 0, resumed: 0, requests: 0 };

before(async () => {
  server = https.createServer(keyPair(), (req, res) => {
    stats.requests++;
    // ?close: the server closes every connection, so the generator reconnects and may resume its session.
    const close = req.url.includes('close');
    res.writeHead(200, { 'content-length': 3, ...(close ? { connection: 'close' } : {}) });
    res.end('hi\n');
  });
  server.keepAliveTimeout = 60_000;
  server.on('secureConnection', (socket) => {
    stats.connections++;
    if (socket.isSessionReused()) stats.resumed++;
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  url = `https://127.0.0.1:${server.address().port}/`;
});

after(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

function reset() {
  Object.assign(stats, { connections: 0, resumed: 0, requests: 0 });
}

test('with insecure, every request over keep-alive TLS is counted and checked, none fails', async () => {
  reset();
  const result = await startLoad({ warmupMs: 0, url, insecure: true, requests: 400, connections: 4, expectedBody: 'hi\n' }).done;
  assert.equal(result.requests, 400);
  assert.equal(result.errors.total, 0);
  assert.equal(result.errors.tls, 0);
  assert.equal(result.statuses['200'], 400);
  assert.ok(stats.connections <= 4, `keep-alive: ${stats.connections} handshakes for 4 connections`);
});

test('a server that closes each connection: reconnects offer the last session ticket and resume', async () => {
  reset();
  const result = await startLoad({ warmupMs: 0, url: `${url}?close`, insecure: true, requests: 60, connections: 2 }).done;
  assert.equal(result.requests, 60);
  assert.equal(result.errors.total, 0);
  assert.ok(stats.connections >= 60, `a handshake per request (${stats.connections})`);
  assert.ok(stats.resumed >= stats.connections / 2, `${stats.resumed} of ${stats.connections} handshakes resumed a session`);
});

test('without insecure, the self-signed certificate fails every handshake: counted as TLS errors, not refused connects', async () => {
  reset();
  const result = await startLoad({ warmupMs: 0, url, durationMs: 300, connections: 2 }).done;
  assert.equal(result.requests, 0);
  assert.ok(result.errors.tls > 0);
  assert.equal(result.errors.connect, 0);
  assert.equal(stats.requests, 0);
  assert.ok(result.notes.some((n) => /self-signed: pass --insecure/.test(n)), result.notes.join('\n'));
});

async function cli(...args) {
  const io = fakeIo();
  const code = await runCli(args, io);
  return { code, out: io.out(), err: io.err() };
}

test('run and diagnose --url https:// --insecure: requests counted, no errors; without --insecure one line naming it', async () => {
  reset();
  const ok = await cli('run', '--url', url, '--insecure', '--requests', '300', '--warmup', '0', '--connections', '4', '--json');
  assert.equal(ok.code, 0, ok.err);
  const result = JSON.parse(ok.out);
  assert.equal(result.load.requests, 300);
  assert.equal(result.load.errors.total, 0);
  assert.equal(result.load.errors.tls, 0);

  const refused = await cli('run', '--url', url, '--requests', '10', '--warmup', '0');
  assert.equal(refused.code, 1);
  assert.match(refused.err, /^spawnbench: --url https:\/\/127\.0\.0\.1:\d+\/: the server's certificate was refused \(DEPTH_ZERO_SELF_SIGNED_CERT: [^)]*\); pass --insecure to accept it/m);
  assert.equal(refused.err.split('\n').filter((l) => l.startsWith('spawnbench:')).length, 1);
  assert.equal(refused.out, '');

  const diagnosed = await cli('diagnose', '--url', url, '--insecure', '--requests', '200', '--warmup', '0', '--connections', '2', '--json');
  assert.equal(diagnosed.code, 0, diagnosed.err);
  assert.equal(JSON.parse(diagnosed.out).load.errors.total, 0);
  const diagnoseRefused = await cli('diagnose', '--url', url, '--requests', '10');
  assert.equal(diagnoseRefused.code, 1);
  assert.match(diagnoseRefused.err, /pass --insecure to accept it/);
  assert.equal(trackedGroupCount(), 0);
});

test('https to a server that speaks plain http is one line; --insecure with an http URL is a usage error', async () => {
  const plain = await startHttpServer((req, res) => res.end('hi\n'));
  try {
    const port = new URL(plain.url).port;
    const wrong = await cli('run', '--url', `https://127.0.0.1:${port}/`, '--insecure', '--requests', '10');
    assert.equal(wrong.code, 1);
    assert.match(wrong.err, /the TLS handshake failed \([A-Z_]+\); is the server speaking https on port \d+\?/);
    const usage = await cli('run', '--url', plain.url, '--insecure');
    assert.equal(usage.code, 2);
    assert.match(usage.err, /^spawnbench: --insecure applies to https:\/\/ targets; http:\/\/127\.0\.0\.1:\d+\/ is http, drop --insecure\n$/);
    const noUrl = await cli('run', '--strategy', 'baseline', '--insecure');
    assert.equal(noUrl.code, 2);
    assert.match(noUrl.err, /--insecure applies to an https:\/\/ --url/);
  } finally {
    await plain.close();
  }
});

test('plain http to an https server: the failure says it speaks https and names https:// (run and diagnose)', async () => {
  const port = new URL(url).port;
  const run = await cli('run', '--url', `http://127.0.0.1:${port}/`, '--requests', '5', '--warmup', '0', '--connections', '1', '--json');
  assert.equal(run.code, 1);
  assert.equal(JSON.parse(run.out).load.speaksTls, true);
  assert.match(run.err + run.out, /the server speaks https \(TLS\) there and spawnbench sent plain HTTP: give --url https:\/\//);
  const diagnosed = await cli('diagnose', '--url', `http://127.0.0.1:${port}/`, '--requests', '5', '--warmup', '0', '--connections', '1');
  assert.equal(diagnosed.code, 1);
  assert.match(diagnosed.out, /next: the server speaks https \(TLS\) there/);
  assert.equal(trackedGroupCount(), 0);
});
