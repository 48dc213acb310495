/**
 * The wide /proc reads: other CPU users by name (a busy process outside the roots
 * named by its comm, the roots' descendants left out) and a server's downstream
 * TCP connections grouped by peer, with the listener's name.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import net from 'node:net';
import { createOtherUsers } from '../../src/sample/other-users.js';
import { createDownstreams } from '../../src/sample/downstreams.js';
import { readStat } from '../../src/sample/proc.js';
import { waitFor } from '../helpers/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'sb-neighbours-'));
const children = [];
after(async () => {
  for (const child of children) child.kill('SIGKILL');
  await Promise.all(children.map((c) => (c.exitCode !== null || c.signalCode ? null : new Promise((r) => c.once('exit', r)))));
  for (const child of children) assert.equal(readStat(child.pid)?.state ?? 'gone', 'gone', `pid ${child.pid} still there`);
  rmSync(dir, { recursive: true, force: true });
});

/** A shell under its own name (comm is the name it was exec'd by), spinning until killed. */
function spinner(name) {
  const path = join(dir, name);
  symlinkSync('/bin/sh', path);
  const child = spawn(path, ['-c', 'while :; do :; done'], { stdio: 'ignore' });
  children.push(child);
  return child;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test('a busy process outside the roots is named with its count and cores; a root\'s descendants are not', async () => {
  const other = spinner('sbneighbour');
  const ours = spinner('sbourchild');
  // Every name listed, whatever its share: on a machine shared by many, a spinner may get little CPU, never none.
  const users = createOtherUsers({ roots: () => [ours.pid], shown: Infinity, minCores: 0 });
  await sleep(100);
  users.reset();
  await sleep(1200);
  users.scan();
  const summary = users.summary();
  const found = summary.users.find((u) => u.name === 'sbneighbour');
  assert.ok(found, JSON.stringify(summary));
  assert.equal(found.count, 1);
  assert.deepEqual(found.pids, [other.pid]);
  assert.deepEqual(found.parents, [process.pid]);
  // It spins on one core; on a shared machine it gets less, never nothing.
  assert.ok(found.cores > 0 && found.cores <= 1.2, `cores ${found.cores}`);
  assert.ok(!summary.users.some((u) => u.name === 'sbourchild'), JSON.stringify(summary));
  assert.ok(summary.cores >= found.cores);
  other.kill('SIGKILL');
  ours.kill('SIGKILL');
});

test('outbound connections are grouped by peer with the listener\'s name; inbound ones are left out', async () => {
  // The "database": a listener in another process (named by its comm).
  const db = spawn(process.execPath, ['-e', `
    const s = require('node:net').createServer((c) => c.on('error', () => {})).listen(0, '127.0.0.1', () => console.log(s.address().port));`], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(db);
  const dbPort = Number(await new Promise((resolve) => db.stdout.once('data', resolve)));
  // The "server": this process listens (inbound from a client) and holds 3 connections to the database.
  const server = net.createServer((c) => c.on('error', () => {})).listen(0, '127.0.0.1');
  await new Promise((r) => server.once('listening', r));
  const inbound = net.connect(server.address().port, '127.0.0.1');
  const inboundUp = new Promise((r) => inbound.once('connect', r));
  const outbound = await Promise.all([1, 2, 3].map(() => new Promise((resolve) => {
    const socket = net.connect(dbPort, '127.0.0.1', () => resolve(socket));
  })));
  await inboundUp;
  try {
    const list = createDownstreams().read([process.pid], process.pid);
    const peer = list.find((d) => d.peer === `127.0.0.1:${dbPort}`);
    assert.ok(peer, JSON.stringify(list));
    assert.equal(peer.connections, 3);
    assert.equal(peer.transport, 'tcp');
    assert.equal(peer.name, 'node');
    assert.equal(peer.pid, db.pid);
    // Our own client socket to our own listener: a peer in our own tree, not a downstream.
    assert.ok(!list.some((d) => d.peer === `127.0.0.1:${server.address().port}`), JSON.stringify(list));
  } finally {
    for (const s of [...outbound, inbound]) s.destroy();
    server.close();
    db.kill('SIGKILL');
  }
});

const hasSs = (() => {
  try {
    execFileSync('ss', ['-V'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    return error.code !== 'ENOENT';
  }
})();

test('connections to a Unix socket are grouped by its path with the listener\'s name', { skip: hasSs ? false : 'ss (iproute2) is not installed: apt-get install iproute2' }, async () => {
  const path = join(dir, 'db.sock');
  const db = spawn(process.execPath, ['-e', `
    require('node:net').createServer((c) => c.on('error', () => {})).listen(${JSON.stringify(path)}, () => console.log('up'));`], { stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(db);
  await new Promise((resolve) => db.stdout.once('data', resolve));
  const clients = await Promise.all([1, 2].map(() => new Promise((resolve) => {
    const socket = net.connect(path, () => resolve(socket));
  })));
  try {
    // `ss` runs in the background: a read uses the output of the one before, which on a
    // loaded machine may predate the listener's accept of the second connection: wait for both.
    const downstreams = createDownstreams();
    let list = [];
    const peer = await waitFor(() => {
      list = downstreams.read([process.pid], process.pid);
      return list.find((d) => d.peer === `unix:${path}` && d.connections === 2);
    }, { timeoutMs: 20_000, intervalMs: 100, what: () => `unix:${path} with 2 connections among ${JSON.stringify(list)}` });
    assert.equal(peer.transport, 'unix');
    assert.equal(peer.connections, 2);
    assert.equal(peer.name, 'node');
    assert.equal(peer.pid, db.pid);
  } finally {
    for (const s of clients) s.destroy();
    db.kill('SIGKILL');
  }
});
