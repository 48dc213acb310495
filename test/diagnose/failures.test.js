// Targets that never become diagnosable: one that exits at start, one that never
// listens, one that listens on a port it chose itself. Each gets one clear
// message naming the command and what to do, exit 1, and nothing left running.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import net from 'node:net';
import { once } from 'node:events';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { processesMatching } from '../helpers/processes.js';
import { cli, waitFor, fixtureServer } from '../helpers/harness.js';
import { buildDiagnosePlan } from '../../src/diagnose/diagnose-plan.js';
import { createDiagnose } from '../../src/diagnose/diagnose-engine.js';

const server = fixtureServer;
const QUICK = ['--duration', '1s', '--warmup', '0', '--ready-timeout', '1500ms'];

const diagnose = (...args) => cli('diagnose', ...args);

async function assertNothingLeft(name) {
  await waitFor(() => processesMatching(server(name)).length === 0, { what: () => `${name} to end: still running ${processesMatching(server(name))}` });
  assert.equal(trackedGroupCount(), 0);
}

after(async () => {
  for (const name of ['exit-at-start', 'never-listens', 'wrong-port']) await assertNothingLeft(name);
});

test('a server that exits at start: its exit code and stderr, exit 1', async () => {
  const { code, out, err } = await diagnose(...QUICK, '--', process.execPath, server('exit-at-start'));
  assert.equal(code, 1);
  assert.equal(out, '');
  assert.match(err, /\nspawnbench: '.*exit-at-start\.js' exited with code 3 before it was ready; its stderr ends:\nfixture: cannot start: DATABASE_URL is not set\n$/);
  assert.doesNotMatch(err, /\n\s+at /);
  await assertNothingLeft('exit-at-start');
});

test('a server that never listens: the port it was given, the timeout and the --port hint, exit 1', async () => {
  const { code, err } = await diagnose(...QUICK, '--', process.execPath, server('never-listens'));
  assert.equal(code, 1);
  const line = err.split('\n').find((l) => l.startsWith('spawnbench: '));
  assert.match(line, /^spawnbench: '.*never-listens\.js' did not accept connections on port \d+ \(given to it as PORT\) within 1\.5s; nothing it started listens on any port yet: if it starts slowly, give it a longer --ready-timeout \(now 1\.5s\); if it listens on a fixed port, pass --port N$/);
  await assertNothingLeft('never-listens');
});

test('a server that listens on a port of its own (the kernel\'s, listen(0)): where it listens, to read PORT, and "pass --port N", exit 1', async () => {
  // A readiness limit far past the 1 s diagnose waits once it sees the server listen
  // elsewhere: on a loaded machine node itself may take over a second to start.
  const { code, err } = await diagnose('--duration', '1s', '--warmup', '0', '--ready-timeout', '30s', '--', process.execPath, server('wrong-port'));
  assert.equal(code, 1);
  const line = err.split('\n').find((l) => l.startsWith('spawnbench: '));
  // Its port is the kernel's (listen(0)): another at each start, so it is told to read PORT before "pass --port N".
  const match = /^spawnbench: '.*wrong-port\.js' listens on port (\d+), not on port (\d+) \(given to it as PORT\); port \d+ is in the range the kernel picks from for port 0 \(\d+–\d+\): if it takes a free port of its own at each start \(listen\(0\)\), make it listen on process\.env\.PORT; if \d+ is its fixed port, pass --port (\d+) \(a server that opens an admin port first/.exec(line);
  assert.ok(match, line);
  assert.equal(match[1], match[3]);
  assert.notEqual(match[1], match[2]);
  await assertNothingLeft('wrong-port');
});

test('a command that does not exist: one line, exit 1', async () => {
  const { code, err } = await diagnose(...QUICK, '--', 'spawnbench-no-such-server');
  assert.equal(code, 1);
  assert.match(err, /\nspawnbench: 'spawnbench-no-such-server' could not be started: spawn spawnbench-no-such-server ENOENT\n$/);
  assert.equal(trackedGroupCount(), 0);
});

test('stopped (Ctrl-C) while waiting for a server that never listens: gives up at once, nothing left', async () => {
  const plan = buildDiagnosePlan({ readyTimeout: '20s', duration: '1s' }, [process.execPath, server('never-listens')]);
  const engine = createDiagnose(plan);
  const started = Date.now();
  const running = engine.start();
  await new Promise((resolve) => setTimeout(resolve, 500));
  engine.stop();
  await assert.rejects(running, /stopped before '.*never-listens\.js' accepted connections/);
  assert.ok(Date.now() - started < 10_000, 'did not wait for the ready timeout');
  await assertNothingLeft('never-listens');
});

test('--port that something else already answers on: says so before starting anything, exit 1', async () => {
  const other = net.createServer().listen(0, '127.0.0.1');
  await once(other, 'listening');
  const { port } = other.address();
  try {
    const { code, err } = await diagnose(...QUICK, '--port', String(port), '--', process.execPath, server('healthy'));
    assert.equal(code, 1);
    assert.match(err, new RegExp(`spawnbench: port ${port} already answers before '.*healthy\\.js' started: stop what listens there, or use --url to diagnose it as it runs\\n$`));
    await assertNothingLeft('healthy');
  } finally {
    other.close();
  }
});
