// Targets that never become diagnosable: one that exits at start, one that never
// listens, one that listens on a port it chose itself. Each gets one clear
// message naming the command and what to do, exit 1, and nothing left running.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { fakeIo } from '../helpers/io.js';
import { processesMatching, waitFor } from '../helpers/processes.js';

const server = (name) => fileURLToPath(new URL(`../../fixtures/servers/${name}.js`, import.meta.url));
const QUICK = ['--duration', '1s', '--warmup', '0', '--ready-timeout', '1500ms'];

async function diagnose(...args) {
  const io = fakeIo();
  const code = await runCli(['diagnose', ...args], io);
  return { code, out: io.out(), err: io.err() };
}

async function assertNothingLeft(name) {
  const gone = await waitFor(() => processesMatching(server(name)).length === 0, { timeoutMs: 5000 });
  assert.ok(gone, `still running: ${processesMatching(server(name))}`);
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
  assert.match(line, /^spawnbench: '.*never-listens\.js' did not accept connections on port \d+ \(given to it as PORT\) within 1\.5s; if it listens on a fixed port, pass --port N$/);
  await assertNothingLeft('never-listens');
});

test('a server that listens on a port of its own: where it listens and "pass --port N", exit 1', async () => {
  const { code, err } = await diagnose(...QUICK, '--', process.execPath, server('wrong-port'));
  assert.equal(code, 1);
  const line = err.split('\n').find((l) => l.startsWith('spawnbench: '));
  const match = /^spawnbench: '.*wrong-port\.js' listens on port (\d+), not on port (\d+) \(given to it as PORT\); pass --port (\d+)$/.exec(line);
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
