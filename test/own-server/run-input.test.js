// `run -- <command>` and the default command's `spawnbench -- <command>` through
// createProgram(): commander hands the words after -- to run, and every bad
// input is one line, exit 2, nothing started.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createProgram, runCli } from '../../src/cli.js';
import { COMMANDS } from '../../src/commands/index.js';
import { cliOptions } from '../../src/plan/option-declarations.js';
import { buildOwnRunPlan } from '../../src/plan/server-command-plan.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { fakeIo } from '../helpers/io.js';
import { allDocs, docPage, readme } from '../helpers/docs.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-own-run-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** What run's action receives, without running it: the program with run's action replaced. */
async function parsed(argv) {
  const io = fakeIo();
  const program = await createProgram(io);
  const run = program.commands.find((c) => c.name() === 'run');
  let seen = null;
  run.action(function (operands) {
    // The options as run's action gets them: typed, and those given told apart from the defaults.
    const options = cliOptions(this, 'run');
    assert.deepEqual([options.dashboard, options.probe, options.verify], [true, true, true]);
    seen = { operands, options: Object.fromEntries([...options.given].map((name) => [name, options[name]])) };
  });
  await program.parseAsync(argv, { from: 'user' });
  return seen;
}

test('commander gives run the words after --, with run named or as the default command', async () => {
  assert.deepEqual(await parsed(['--', 'node', 'server.js', '--workers', '3']), { operands: ['node', 'server.js', '--workers', '3'], options: {} });
  const named = await parsed(['run', '-d', '2s', '--json', '--', 'node', 'server.js', '-d', '1', '--json']);
  assert.deepEqual(named.operands, ['node', 'server.js', '-d', '1', '--json'], "the server's own flags stay its own");
  assert.deepEqual(named.options, { duration: 2000, json: true });
  const dflt = await parsed(['--size-env', 'WORKERS', '-c', '8', '--', 'npm', 'start']);
  assert.deepEqual(dflt, { operands: ['npm', 'start'], options: { sizeEnv: 'WORKERS', connections: 8 } });
  assert.deepEqual((await parsed(['--strategy', 'baseline'])).operands, [], 'a strategy run has no command');
});

/** A server command that proves it was started: it writes `marker` at once. */
function markerCommand(marker) {
  return [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`];
}

const cases = [
  ['an empty command after --', () => ['run', '--'], /the command after -- is empty; give the one that starts your server, e\.g\. spawnbench run -- node server\.js/],
  ['--strategy with a command', (m) => ['--strategy', 'fork-pool', '--', ...markerCommand(m)], /--strategy boots a built-in strategy and the command after -- is your own server/],
  ['--url with a command', (m) => ['--url', 'http://127.0.0.1:1/', '--', ...markerCommand(m)], /give either the command that starts your server \(after --\) or --url/],
  ['--balance with a command', (m) => ['run', '--balance', 'p2c', '--', ...markerCommand(m)], /your server balances with its own code \(node:cluster reads NODE_CLUSTER_SCHED_POLICY/],
  ['--workload with a command', (m) => ['--workload', 'large', '--', ...markerCommand(m)], /--workload configures built-in strategies; your server after -- runs its own code: drop --workload/],
  ['--pool-size without a knob', (m) => ['--pool-size', '3', '--', ...markerCommand(m)], /--pool-size sets your server's size through its knob: name it with --size-env NAME or put \{size\} in its arguments/],
  ['{size} without --pool-size', (m) => ['--', ...markerCommand(m), '--workers', '{size}'], /\{size\} in the command needs this run's size: add --pool-size N/],
  ['--size-env PORT', (m) => ['--size-env', 'PORT', '--', ...markerCommand(m)], /--size-env PORT: spawnbench sets PORT itself/],
  ['--path without a slash', (m) => ['--path', 'api', '--', ...markerCommand(m)], /--path must start with \//],
];

for (const [name, args, pattern] of cases) {
  test(`refused before anything starts: ${name}`, async () => {
    const marker = join(dir, name.replace(/\W+/g, '-'));
    const io = fakeIo();
    const code = await runCli(args(marker), io);
    assert.equal(code, 2, `stderr: ${io.err()}`);
    assert.equal(io.out(), '');
    assert.match(io.err(), pattern);
    assert.match(io.err(), /^spawnbench: [^\n]+\n$/, 'one line, no stack');
    assert.equal(existsSync(marker), false, 'the command was not started');
    assert.equal(trackedGroupCount(), 0);
  });
}

test('a server command without -- is named as one: the fix is one line', async () => {
  const io = fakeIo();
  assert.equal(await runCli(['node', 'server.js'], io), 2);
  assert.match(io.err(), /^spawnbench: unknown command 'node'; .*to measure your own server, put -- before its command: spawnbench -- node server\.js/);
});

test('the plan: --pool-size fills {size} and sets --size-env; the knob given and found travel with it', () => {
  const plan = buildOwnRunPlan({ sizeEnv: 'WORKERS', poolSize: '3', port: '4000' }, ['node', 's.js', '--procs', '{size}'], { WORKERS: '8' });
  assert.deepEqual(plan.target.command, ['node', 's.js', '--procs', '3']);
  assert.deepEqual(plan.target.env, { WORKERS: '3' });
  assert.equal(plan.target.port, 4000);
  assert.deepEqual(plan.target.sizeKnob.given, { kind: 'env', name: 'WORKERS', sizeArg: true, value: 3, command: ['node', 's.js', '--procs', '{size}'] });
  assert.equal(plan.target.sizeKnob.found.written, 'WORKERS=3', 'found in the environment the server gets');
  assert.equal(plan.workload.name, 'server');
  assert.equal(plan.load.expected, null, 'its bodies are its own');
  const found = buildOwnRunPlan({}, ['pm2-runtime', 'start', 'app.js', '-i', '4'], {});
  assert.deepEqual([found.target.sizeKnob.given, found.target.sizeKnob.found.written], [null, '-i 4']);
});

test('run --help documents the -- form', async () => {
  const io = fakeIo();
  assert.equal(await runCli(['run', '--help'], io), 0);
  const help = io.out();
  assert.match(help, /Usage: spawnbench run \[options\] \[command\.\.\.\]/);
  assert.match(help, /spawnbench -- node server\.js +run is the default command/);
  assert.match(help, /--size-env <name>/);
  assert.match(help, /--port <n>/);
  assert.ok(COMMANDS.find((c) => c.name === 'run').isDefault);
  const quickStart = /^## Quick start$([\s\S]*?)^## /m.exec(readme())[1];
  assert.match(quickStart, /^npx spawnbench -- node server\.js$/m, "the quick start's first command is the user's own server");
  const ownServer = docPage('own-server.md');
  assert.match(ownServer, /^## Your own server: `spawnbench -- <command>`$/m);
  for (const flag of ['--size-env', '--pool-size', '--port', '--path', '-- <command>']) assert.ok(allDocs().includes(`\`${flag}`), `the docs document ${flag}`);
});
