// Usage errors of spawnbench diagnose: one line naming the flag, exit 2, nothing started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../src/cli.js';
import { buildDiagnosePlan } from '../../src/diagnose/diagnose-plan.js';
import { fakeIo } from '../helpers/io.js';

async function diagnose(...args) {
  const io = fakeIo();
  const code = await runCli(['diagnose', ...args], io);
  return { code, err: io.err() };
}

test('no command and no --url: says how to give one, exit 2', async () => {
  const { code, err } = await diagnose();
  assert.equal(code, 2);
  assert.equal(err, 'spawnbench: give the command that starts your server after --, e.g. spawnbench diagnose -- node server.js, or --url http://127.0.0.1:3000/ of one that runs\n');
});

test('conflicting or misplaced flags name the flag', async () => {
  const cases = [
    [['--url', 'http://127.0.0.1:1/', '--', 'node', 's.js'], /either a command to start \(after --\) or --url/],
    [['--url', 'http://127.0.0.1:1/', '--port', '3000'], /--port applies when diagnose starts the server; with --url drop it/],
    [['--url', 'http://127.0.0.1:1/', '--path', '/x'], /--path .* put the path in the URL/],
    [['--url', 'http://127.0.0.1:1/', '--cpu-prof'], /--cpu-prof applies when diagnose starts the server/],
    [['--pid', '1', '--', 'node', 's.js'], /--pid applies with --url/],
    [['--port', 'abc', '--', 'node', 's.js'], /--port 'abc' is not a whole number/],
    [['--port', '70000', '--', 'node', 's.js'], /--port must be at most 65535/],
    [['--path', 'x', '--', 'node', 's.js'], /--path must start with \//],
    // A space or a control character went raw into the request line: the server measured another request, or a 400.
    [['--path', '/a b', '--', 'node', 's.js'], /--path must start with \/ and hold no spaces or control characters, like \/api\/items \(got "\/a b"\)/],
    [['--path', '/a\u001b[2J', '--', 'node', 's.js'], /\(got "\/a\\u001b\[2J"\)/],
    [['--path', 'x\u001b]0;T\u0007', '--', 'node', 's.js'], /--path must start with \/.*\(got "x\\u001b\]0;T\\u0007"\)/],
    [['--url', 'http://127.0.0.1:1/', '--pid', '999999999'], /--pid 999999999: no such process/],
  ];
  for (const [args, message] of cases) {
    const { code, err } = await diagnose(...args);
    assert.equal(code, 2, args.join(' '));
    assert.match(err, message, args.join(' '));
    assert.equal(err.split('\n').length, 2, 'one line');
  }
});

test('everything after -- is the command, options included', () => {
  const plan = buildDiagnosePlan({ port: '4000', cpuProfDir: 'prof' }, ['node', 'server.js', '--port', '5', '-d']);
  assert.deepEqual(plan.target.command, ['node', 'server.js', '--port', '5', '-d']);
  assert.equal(plan.target.port, 4000);
  assert.equal(plan.target.path, '/');
  assert.equal(plan.cpuProf.enabled, true);
  assert.match(plan.cpuProf.dir, /\/prof$/);
  assert.equal(plan.probe.enabled, true);
  assert.equal(buildDiagnosePlan({ url: 'http://127.0.0.1:9/x' }).probe.enabled, false);
});
