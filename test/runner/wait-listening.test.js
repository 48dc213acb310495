// The readiness wait on a server spawnbench did not write: it tries the port every 100 ms, and
// reads the group's listening ports (all of /proc/net/tcp, thousands of lines after a load
// test) only every WRONG_PORT_CHECK_MS, still naming a server that listens elsewhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { readFileSync } from 'node:fs';
import { waitListening } from '../../src/runner/wait-listening.js';
import { listeningAddresses } from '../../src/runner/listening-ports.js';
import { WRONG_PORT_CHECK_MS, WRONG_PORT_GRACE_MS } from '../../src/base/thresholds.js';

/** A port nothing listens on: one the kernel gave and took back. */
async function closedPort() {
  const server = net.createServer().listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  const { port } = /** @type {net.AddressInfo} */ (server.address());
  await new Promise((resolve) => server.close(resolve));
  return port;
}

// The kernel's range for port 0 is given apart from the ports these cases listen on, but where a case says otherwise.
const options = (port, portsOf, addressesOf = () => []) => ({ pgid: 1, port, label: "'node app.js'", portSource: /** @type {const} */ ('PORT'), mentionedPorts: () => [], portsOf, addressesOf, ephemeral: /** @type {[number, number]} */ ([61000, 61999]) });

test('while nothing answers, the listening ports are read every WRONG_PORT_CHECK_MS, not at every connection attempt', async () => {
  const port = await closedPort();
  const reads = [];
  const started = Date.now();
  await assert.rejects(waitListening({ ...options(port, () => { reads.push(Date.now() - started); return []; }), readyTimeoutMs: 1600 }), /did not accept|not listening|no connection|accept/i);
  const elapsed = Date.now() - started;
  // At 0, 500, 1000 and 1500 ms on a quiet machine; later ones on a loaded machine only make fewer.
  assert.ok(reads.length >= 2 && reads.length <= Math.ceil(elapsed / WRONG_PORT_CHECK_MS) + 1, `${reads.length} reads in ${elapsed} ms: ${reads.join(', ')}`);
  for (let i = 1; i < reads.length; i++) assert.ok(reads[i] - reads[i - 1] >= WRONG_PORT_CHECK_MS, `reads at ${reads.join(', ')} ms`);
});

test('a server that listens elsewhere is still named once the grace has passed', async () => {
  const port = await closedPort();
  const started = Date.now();
  // Of two ports, neither is named as the one to pass: the first was an admin port.
  await Promise.all([
    assert.rejects(waitListening({ ...options(port, () => [4000]), readyTimeoutMs: 30_000 }), new RegExp(`listens on port 4000, not on port ${port} .*; pass --port 4000 \\(a server that opens an admin port first and its own later: pass its own, which is waited for up to --ready-timeout\\)$`)),
    assert.rejects(waitListening({ ...options(port, () => [39001, 39002]), readyTimeoutMs: 30_000 }), new RegExp(`listens on ports 39001, 39002, not on port ${port} .*; pass --port N with the one of them that serves its requests \\(`)),
  ]);
  assert.ok(Date.now() - started >= WRONG_PORT_GRACE_MS, 'not before the grace');
});

test('a server that opens an admin port first and its own port 1.5 s later is waited for, not told to pass --port <the admin port>', async () => {
  const port = await closedPort();
  const server = net.createServer((socket) => socket.end());
  const late = setTimeout(() => server.listen(port, '127.0.0.1'), 1500);
  try {
    const ready = await waitListening({ ...options(port, () => [4000, 4001, 4002]), readyTimeoutMs: 30_000 });
    assert.deepEqual(ready, { host: '127.0.0.1', port });
  } finally {
    clearTimeout(late);
    server.close();
  }
});

test('a port given with --port is waited for up to --ready-timeout, whatever else the server opens first: no "pass --port <its admin port>"', async () => {
  // Seen: a server that opens an admin port, then its own 4.5 s later, was told "listens on port 39259 … pass --port 39259",
  // and with --port <its own> the same: nothing could run it.
  const port = await closedPort();
  const named = { ...options(port, () => [4000]), portSource: /** @type {const} */ ('--port'), readyTimeoutMs: 700, graceMs: 100 };
  const error = await waitListening(named).catch((e) => e);
  assert.match(error.message, new RegExp(`^'node app\\.js' did not accept connections on port ${port} within 0\\.7s`));
  assert.match(error.message, /; it listens on port 4000: pass --port 4000 if that serves its requests$/, 'named at the deadline, not before');
  // Given as PORT, the other port is still the quick answer, with the way out.
  const given = await waitListening({ ...named, portSource: 'PORT' }).catch((e) => e);
  assert.match(given.message, /listens on port 4000, not on port \d+ \(given to it as PORT\); pass --port 4000 \(a server that opens an admin port first/);
});

test('a server that listens on no port by the deadline is told of --ready-timeout, not only of --port', async () => {
  // A server that starts listening after 3 s, under --ready-timeout 2s, was told only "if it listens on a fixed port, pass --port N".
  const port = await closedPort();
  await assert.rejects(waitListening({ ...options(port, () => []), readyTimeoutMs: 300 }), (error) => {
    assert.match(error.message, new RegExp(`^'node app\\.js' did not accept connections on port ${port} \\(given to it as PORT\\) within 0\\.3s; nothing it started listens on any port yet: if it starts slowly, give it a longer --ready-timeout \\(now 0\\.3s\\); if it listens on a fixed port, pass --port N$`));
    return true;
  });
  // One that listens on another port (within the grace) is not said to listen nowhere.
  await assert.rejects(waitListening({ ...options(port, () => [4000]), readyTimeoutMs: 300 }), (error) => {
    assert.doesNotMatch(error.message, /nothing it started listens/);
    return true;
  });
});

test('a server bound to an address no loopback connect reaches (HOST=127.0.0.2) is driven there, not told "nothing it started listens on any port yet"', async () => {
  const port = await closedPort();
  const server = net.createServer((socket) => socket.end()).listen(port, '127.0.0.2');
  await new Promise((resolve, reject) => server.once('listening', resolve).once('error', reject));
  try {
    // The group's listening sockets, as /proc shows them: this process's own group.
    const pgid = Number(readFileSync('/proc/self/stat', 'utf8').replace(/^.*\) /, '').split(' ')[2]);
    assert.deepEqual(listeningAddresses(pgid, port), ['127.0.0.2']);
    const ready = await waitListening({ ...options(port, () => [], (group, p) => listeningAddresses(pgid, p)), readyTimeoutMs: 5000 });
    assert.deepEqual(ready, { host: '127.0.0.2', port });
  } finally {
    server.close();
  }
});

test('a server that takes a port of its own from the kernel (listen(0)) is told to read PORT, not only "pass --port <this start\'s port>"', async () => {
  const port = await closedPort();
  await assert.rejects(waitListening({ ...options(port, () => [38225]), ephemeral: [32768, 60999], readyTimeoutMs: 30_000, graceMs: 100 }),
    new RegExp(`listens on port 38225, not on port ${port} .*; port 38225 is in the range the kernel picks from for port 0 \\(32768–60999\\): if it takes a free port of its own at each start \\(listen\\(0\\)\\), make it listen on process\\.env\\.PORT; if 38225 is its fixed port, pass --port 38225 \\(a server that opens an admin port first`));
  // A fixed port below the range keeps the plain hint.
  await assert.rejects(waitListening({ ...options(port, () => [4000]), ephemeral: [32768, 60999], readyTimeoutMs: 30_000, graceMs: 100 }), /; pass --port 4000 \(a server that opens/);
});
