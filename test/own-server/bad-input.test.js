// Every bad input of tune and compare on a user's own server: one line that says
// what to do, exit 2, and nothing started (the command would leave a file behind).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { fakeIo } from '../helpers/io.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-own-input-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** A server command that proves it was started: it writes `marker` at once. */
function markerCommand(marker) {
  return [process.execPath, '-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, '')`];
}

async function refused(args, pattern, marker) {
  const io = fakeIo();
  const code = await runCli(args, io);
  assert.equal(code, 2, `exit 2 for ${args.join(' ')}; stderr: ${io.err()}`);
  assert.equal(io.out(), '');
  const err = io.err();
  assert.match(err, pattern);
  assert.match(err, /^spawnbench: [^\n]+\n$/, 'one line, no stack');
  if (marker) assert.equal(existsSync(marker), false, 'the command was not started');
  assert.equal(trackedGroupCount(), 0);
}

const cases = [
  ['a command without --size-env or {size}', (m) => ['tune', '--', ...markerCommand(m)],
    /say how your server gets its size: --size-env NAME \(e\.g\. --size-env WEB_CONCURRENCY\), \{size\} in its arguments \(-- node server\.js --workers \{size\}\), or --processes 1,2 to run it in node:cluster workers/],
  ['{size} and --strategy together', (m) => ['tune', '--strategy', 'fork-pool', '--', ...markerCommand(m), '--workers', '{size}'],
    /\{size\} sizes your own server, --strategy boots a built-in one: tune one of them, drop --strategy or the command after --/],
  ['--strategy with a command', (m) => ['tune', '--strategy', 'fork-pool', '--size-env', 'WORKERS', '--', ...markerCommand(m)],
    /--strategy boots a built-in strategy and the command after -- is your own server/],
  ['--policy-env without --balance-policies', (m) => ['tune', '--size-env', 'WORKERS', '--policy-env', 'POLICY', '--', ...markerCommand(m)],
    /--policy-env POLICY needs --balance-policies with the values your server understands/],
  ['{policy} without --balance-policies', (m) => ['tune', '--', ...markerCommand(m), '--workers', '{size}', '--balance', '{policy}'],
    /\{policy\} needs --balance-policies/],
  ['--balance-policies without a policy knob', (m) => ['tune', '--size-env', 'WORKERS', '--balance-policies', 'rr,none', '--', ...markerCommand(m)],
    /--balance-policies needs a way to reach your server: --policy-env NAME or \{policy\} in its arguments/],
  ['--size-env PORT', (m) => ['tune', '--size-env', 'PORT', '--', ...markerCommand(m)], /--size-env PORT: spawnbench sets PORT itself/],
  ['--size-env that is not a name', (m) => ['tune', '--size-env', 'MY-WORKERS', '--', ...markerCommand(m)], /--size-env 'MY-WORKERS' is not an environment variable name/],
  ['the same variable for size and policy', (m) => ['tune', '--size-env', 'W', '--policy-env', 'W', '--balance-policies', 'a', '--', ...markerCommand(m)],
    /--size-env and --policy-env both name W/],
  ['--workload-cmd with a command', (m) => ['tune', '--size-env', 'W', '--workload-cmd', 'echo x', '--', ...markerCommand(m)],
    /--workload-cmd configures built-in strategies; your server after -- runs its own code: drop --workload-cmd/],
  ['--size-env without a command', () => ['tune', '--size-env', 'WORKERS'], /--size-env applies to your own server: give the command that starts it after --/],
  ['--command without name=', (m) => ['compare', '--command', markerCommand(m).join(' ')], /--command '.*' needs a name first: name=<command line>/],
  ['--command =line (empty name)', (m) => ['compare', '--command', `=${process.execPath} -v`], /needs a name first/],
  ['two --command with the same name', () => ['compare', '--command', `a=${process.execPath} -v`, '--command', `a=${process.execPath} -v`],
    /two --command entries are named 'a'; give each its own name/],
  ['--command named like a strategy', () => ['compare', '--strategies', 'baseline', '--command', `baseline=${process.execPath} -v`],
    /--command 'baseline' has the name of a strategy in --strategies/],
  ['--command with no command line', () => ['compare', '--command', 'a='], /--command a= has no command line/],
  ['--command with an unclosed quote', () => ['compare', '--command', 'a=node "server.js'], /--command a has an unclosed " quote/],
  ['--workloads with only --command servers', () => ['compare', '--workloads', 'large', '--command', `a=${process.execPath} -v`],
    /--workloads sets what built-in strategies run; your --command servers run their own code/],
  ['--port without --command', () => ['compare', '--port', '3000'], /--port applies to your own servers: add them with --command/],
];

for (const [name, args, pattern] of cases) {
  test(`bad input: ${name}`, async () => {
    const marker = join(dir, `${name.replace(/\W+/g, '-')}.started`);
    await refused(args(marker), pattern, marker);
  });
}

test('bad input: an empty command after --', async () => {
  await refused(['tune', '--size-env', 'WORKERS', '--'], /the command after -- is empty; give the one that starts your server, e\.g\. spawnbench tune --size-env WEB_CONCURRENCY -- node server\.js/);
});
