import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { openProbeChannel, PROBE_URL } from '../../src/probe/channel.js';

const run = promisify(execFile);

test('channel env appends the probe to NODE_OPTIONS and names the socket; close removes the temp dir', async () => {
  const channel = await openProbeChannel({ intervalMs: 100 });
  assert.match(channel.env.NODE_OPTIONS, /--import=file:\/\/\S+\/src\/probe\/preload\.js$/);
  assert.equal(channel.nodeOptions('--max-old-space-size=256'), `--max-old-space-size=256 --import=${PROBE_URL}`);
  assert.equal(channel.env.SPAWNBENCH_PROBE_SOCKET, channel.socketPath);
  assert.equal(channel.env.SPAWNBENCH_PROBE_INTERVAL, '100');
  assert.ok(existsSync(channel.socketPath));
  await channel.close();
  await channel.close();
  assert.equal(existsSync(path.dirname(channel.socketPath)), false);
});

test('a probed process prints nothing extra, exits on its own and reports on the channel', async () => {
  const channel = await openProbeChannel({ intervalMs: 50 });
  const reports = [];
  channel.on('report', (r) => reports.push(r));
  try {
    const script = 'setTimeout(() => console.log("done"), 300)';
    const { stdout, stderr } = await run(process.execPath, ['-e', script], { env: { ...process.env, ...channel.env } });
    assert.equal(stdout, 'done\n');
    assert.equal(stderr, '');
    assert.ok(reports.length >= 2, `reports every 50 ms: got ${reports.length}`);
    const [report] = reports;
    assert.equal(report.isMainThread, true);
    assert.equal(typeof report.elu, 'number');
    assert.deepEqual(Object.keys(report.loopDelay).sort(), ['count', 'maxMs', 'p50Ms', 'p99Ms', 'percentiles']);
    assert.ok(report.rssBytes > 0 && report.heapUsedBytes > 0);
    assert.deepEqual(Object.keys(report.spawn), ['count', 'blockedMs', 'timing', 'failures']);
  } finally {
    await channel.close();
  }
});

test('a probed process whose descriptors are all taken for a while goes on reporting after (its memory unread meanwhile)', async () => {
  const channel = await openProbeChannel({ intervalMs: 50 });
  const reports = [];
  channel.on('report', (r) => reports.push(r));
  try {
    // Every descriptor taken for 300 ms (six intervals: process.memoryUsage() throws EMFILE there), then given
    // back, then 300 ms more: a server under `ulimit -n 64` spawning per request lives so (issue #36).
    const script = [
      'const fs = require("node:fs");',
      'const held = []; try { for (;;) held.push(fs.openSync("/dev/null")); } catch {}',
      'setTimeout(() => { for (const fd of held) fs.closeSync(fd); setTimeout(() => console.log(held.length > 0 ? "done" : "none held"), 300); }, 300);',
    ].join('\n');
    // Under a limit of its own, so taking every descriptor is quick wherever the tests run.
    const { stdout } = await run('sh', ['-c', 'ulimit -n 256 && exec "$0" -e "$1"', process.execPath, script], { env: { ...process.env, ...channel.env } });
    assert.equal(stdout, 'done\n');
    const last = reports.at(-1);
    assert.ok(reports.length >= 6, `reports through and after the 300 ms without descriptors: got ${reports.length}`);
    assert.ok(last.rssBytes > 0, 'read again once descriptors were free');
    assert.ok(reports.some((r) => r.rssBytes === null && r.heapUsedBytes === null), 'unread while every descriptor was taken');
  } finally {
    await channel.close();
  }
});

test('without SPAWNBENCH_PROBE_SOCKET, or with a dead socket, the probe does nothing and harms nothing', async () => {
  const env = { ...process.env, NODE_OPTIONS: `--import=${PROBE_URL}` };
  delete env.SPAWNBENCH_PROBE_SOCKET;
  const script = 'const cp = require("node:child_process"); console.log(cp.execSync.name, cp.execSync("echo ok").toString().trim())';
  const plain = await run(process.execPath, ['-e', script], { env });
  assert.equal(plain.stdout, 'execSync ok\n');
  assert.equal(plain.stderr, '');
  const dead = await run(process.execPath, ['-e', script], { env: { ...env, SPAWNBENCH_PROBE_SOCKET: '/nonexistent/spawnbench.sock' } });
  assert.equal(dead.stdout, 'execSync ok\n');
  assert.equal(dead.stderr, '');
});

test('a Node command a listening server or a pool worker spawns per request is not probed; a fork()ed worker is', async () => {
  const channel = await openProbeChannel({ intervalMs: 50 });
  const pids = new Set();
  channel.on('report', (r) => pids.add(r.pid));
  try {
    // The root listens, then spawns a command and forks a worker; the worker (an IPC child) spawns a command too.
    const script = `
      const cp = require('node:child_process');
      const wait = '(' + (() => setTimeout(() => {}, 400)).toString() + ')()';
      const inWorker = 'const c = require("node:child_process").spawn(process.execPath, ["-e", ' + JSON.stringify(wait) + '], { stdio: "ignore" }); process.send(c.pid); ' + wait;
      const server = require('node:net').createServer().listen(0, '127.0.0.1', () => {
        const command = cp.spawn(process.execPath, ['-e', wait], { stdio: 'ignore' });
        const worker = cp.fork('', [], { execArgv: ['-e', inWorker], stdio: ['ignore', 'ignore', 'ignore', 'ipc'] });
        worker.once('message', (workerCommand) => {
          console.log(JSON.stringify({ command: command.pid, worker: worker.pid, workerCommand }));
          worker.disconnect();
          server.close();
        });
      });`;
    const { stdout } = await run(process.execPath, ['-e', script], { env: { ...process.env, ...channel.env } });
    const { command, worker, workerCommand } = JSON.parse(stdout);
    assert.equal(pids.has(worker), true, 'the fork()ed worker reports');
    assert.equal(pids.has(command), false, 'the command the listening server spawned does not');
    assert.equal(pids.has(workerCommand), false, 'the command the pool worker spawned does not');
  } finally {
    await channel.close();
  }
});

test('behind a launcher that does not listen (npm → sh -c), the server is probed; the commands it spawns once listening are not', async () => {
  const channel = await openProbeChannel({ intervalMs: 50 });
  const pids = new Set();
  channel.on('report', (r) => pids.add(r.pid));
  try {
    const wait = '(' + (() => setTimeout(() => {}, 400)).toString() + ')()';
    // The server: spawns one command before it listens (still probed: it might be a launcher's child) and one after.
    const server = `
      const cp = require('node:child_process');
      const wait = ${JSON.stringify(wait)};
      const before = cp.spawn(process.execPath, ['-e', wait], { stdio: 'ignore' });
      const server = require('node:net').createServer().listen(0, '127.0.0.1', () => {
        const after = cp.spawn(process.execPath, ['-e', wait], { stdio: 'ignore' });
        console.log(JSON.stringify({ server: process.pid, before: before.pid, after: after.pid }));
        setTimeout(() => server.close(), 400);
      });`;
    // The launcher: a Node process that runs the server through a shell and waits for it, as npm start does.
    const launcher = `
      const cp = require('node:child_process');
      const child = cp.spawn('sh', ['-c', '"$0" -e "$1"', process.execPath, ${JSON.stringify(server)}], { stdio: 'inherit' });
      child.on('exit', (code) => process.exit(code ?? 1));`;
    const { stdout } = await run(process.execPath, ['-e', launcher], { env: { ...process.env, ...channel.env } });
    const { server: serverPid, before, after } = JSON.parse(stdout);
    assert.equal(pids.has(serverPid), true, 'the server under the launcher reports');
    assert.equal(pids.has(before), true, 'a Node child started before the server listened is probed');
    assert.equal(pids.has(after), false, 'the command the listening server spawned is not');
  } finally {
    await channel.close();
  }
});

test('a process that exits without closing the channel leaves no socket directory', async () => {
  const script = `import('${new URL('../../src/probe/channel.js', import.meta.url).href}')
    .then(({ openProbeChannel }) => openProbeChannel())
    .then((channel) => { console.log(channel.socketPath); process.exit(0); });`;
  const { stdout } = await run(process.execPath, ['-e', script]);
  assert.equal(existsSync(path.dirname(stdout.trim())), false);
});
