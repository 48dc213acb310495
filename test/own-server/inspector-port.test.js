// `node --inspect` opens the inspector's port before a server that is slow to start opens its
// own: run said "listens on port 42343, not on port 37957 (given to it as PORT); pass --port
// 42343", the inspector's, after 1 s. The port Node's inspector announces ("Debugger listening
// on ws://…:N/…") is waited past and never named; with --inspect-brk, which waits for a
// debugger, the timeout says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createPortHints } from '../../src/runner/port-hints.js';
import { spawnCli, fixtureServer } from '../helpers/harness.js';
import { processesMatching } from '../helpers/processes.js';

test("the inspector's announced port is a debugger's, not a port the output mentions for the server", () => {
  const hints = createPortHints();
  hints.add('Debugger listening on ws://127.0.0.1:42343/6f1c0a7e-2c1d-4f4e-9a55-0b7b1a2f3c4d');
  hints.add('For help, see: https://nodejs.org/en/docs/inspector');
  hints.add('listening on http://localhost:4000');
  assert.deepEqual(hints.ports(), [4000]);
  assert.deepEqual(hints.debuggers(), [42343]);
});

const env = { ...process.env, CI: 'true' };

test('run -- node --inspect=0 <a server that listens after 1.5 s>: measured on its own port', async () => {
  const server = fixtureServer('listens-late');
  const { code, out, err } = await spawnCli(['run', '-d', '300ms', '-w', '0s', '-c', '2', '-r', '50', '--json', '--', process.execPath, '--inspect=0', server], { env });
  assert.equal(code, 0, err);
  assert.doesNotMatch(err, /pass --port/);
  assert.ok(JSON.parse(out).load.requests > 0);
  assert.deepEqual(processesMatching(server), []);
});

test('run -- node --inspect-brk=0 <server>: the timeout says only the inspector listens, not "pass --port <its port>"', async () => {
  const server = fixtureServer('healthy');
  const { code, err } = await spawnCli(['run', '-d', '300ms', '--ready-timeout', '2s', '--', process.execPath, '--inspect-brk=0', server], { env });
  assert.equal(code, 1, err);
  assert.match(err, /^spawnbench: '[^']+' did not accept connections on port \d+ \(given to it as PORT\) within 2s; only its Node inspector listens \(port \d+, a debugger's port, not its HTTP one\): with --inspect-brk it waits for a debugger before it starts, so drop it or use --inspect$/m);
  assert.deepEqual(processesMatching(server), []);
});
