// Option parsing through the program factory: no process is started by these tests
// (every bad input fails in plan building, before the engine).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableParallelism } from 'node:os';
import { readFileSync } from 'node:fs';
import { ownCpuBudget } from '../../src/machine/cpu-budget.js';
import { createProgram } from '../../src/cli.js';
import { cli } from '../helpers/harness.js';
import { buildRunPlan } from '../../src/plan/run-plan.js';
import { defaultPoolSize, cliOptions } from '../../src/plan/option-declarations.js';
import { fakeIo } from '../helpers/io.js';


function assertUsageError(result, pattern) {
  assert.equal(result.code, 2, `exit code for: ${result.err}`);
  assert.match(result.err, pattern);
  assert.equal(result.err.trim().split('\n').length, 1, `one line: ${result.err}`);
  assert.doesNotMatch(result.err, /\n\s+at /, 'no stack trace');
}

test('defaults follow the experiment: 30 connections, 10 s, 2 s warm-up, echo', () => {
  const plan = buildRunPlan({ strategy: 'baseline' });
  assert.equal(plan.load.connections, 30);
  assert.equal(plan.load.durationMs, 10_000);
  assert.equal(plan.load.warmupMs, 2000);
  assert.equal(plan.load.requests, null);
  assert.equal(plan.workload.command, 'echo');
  assert.deepEqual(plan.workload.args, ['hi']);
  assert.equal(plan.load.expected.toString(), 'hi\n');
  assert.equal(plan.target.kind, 'strategy');
  assert.equal(plan.target.runtime.kind, 'node');
});

test('parsed options reach the plan', () => {
  const plan = buildRunPlan({
    strategy: 'baseline', connections: '8', requests: '500', warmup: '0s', timeout: '2s',
    workloadCmd: 'printf "a b"', header: ['x-test: 1'], method: 'post', body: 'x',
  });
  assert.equal(plan.load.connections, 8);
  assert.equal(plan.load.requests, 500);
  assert.equal(plan.load.durationMs, null);
  assert.equal(plan.load.warmupMs, 0);
  assert.equal(plan.load.timeoutMs, 2000);
  assert.deepEqual(plan.workload.args, ['a b']);
  assert.equal(plan.load.expected, null);
  assert.deepEqual(plan.load.headers, { 'x-test': '1' });
  assert.equal(plan.load.method, 'POST');
});

test('large workload expects the fixture bytes; --no-verify drops the check', () => {
  assert.equal(buildRunPlan({ strategy: 'baseline', workload: 'large' }).load.expected.length, 166_912);
  assert.equal(buildRunPlan({ strategy: 'baseline', workload: 'large', verify: false }).load.expected, null);
});

test('--url drives a running server and verifies only when a workload is named', () => {
  assert.equal(buildRunPlan({ url: 'http://127.0.0.1:1234/x' }).load.expected, null);
  assert.equal(buildRunPlan({ url: 'http://127.0.0.1:1234/x', workload: 'echo' }).load.expected.toString(), 'hi\n');
});

test('commander values arrive in the plan through the real program', async () => {
  const program = await createProgram(fakeIo());
  const run = program.commands.find((c) => c.name() === 'run');
  let seen;
  // run takes operands (`run -- <command>`), so commander hands them first: read the options from the command.
  run.action(function () {
    seen = buildRunPlan(cliOptions(this, 'run'));
  });
  await program.parseAsync(['--strategy', 'baseline', '-c', '4', '-d', '500ms', '-H', 'a: 1', '-H', 'b: 2', '--no-verify'], { from: 'user' });
  assert.equal(seen.load.connections, 4);
  assert.equal(seen.load.durationMs, 500);
  assert.deepEqual(seen.load.headers, { a: '1', b: '2' });
  assert.equal(seen.load.verify, false);
});

test('pool strategies default to one worker per CPU of the budget (the host\'s hardware threads without a limit)', () => {
  const budget = ownCpuBudget();
  assert.equal(defaultPoolSize(), Math.ceil(budget.budget));
  assert.equal(buildRunPlan({ strategy: 'fork-pool' }).target.poolSize, Math.ceil(budget.budget));
  if (budget.source === 'host') assert.equal(defaultPoolSize(), availableParallelism());
  assert.equal(buildRunPlan({ strategy: 'baseline' }).target.poolSize, null, 'a strategy without a pool has no size');
});

test('unknown strategy lists the available ones, exit 2', async () => {
  assertUsageError(await cli('--strategy', 'forkpool'), /unknown strategy 'forkpool'; available: baseline/);
});

test('bad numbers name the flag, exit 2', async () => {
  assertUsageError(await cli('--strategy', 'baseline', '--connections', 'many'), /--connections 'many' is not a whole number/);
  assertUsageError(await cli('--strategy', 'baseline', '--connections', '0'), /--connections must be at least 1/);
  assertUsageError(await cli('--strategy', 'baseline', '--connections=-5'), /--connections must be at least 1/);
  assertUsageError(await cli('--strategy', 'baseline', '--requests', '0'), /--requests must be at least 1/);
  assertUsageError(await cli('--strategy', 'baseline', '--duration', '10x'), /--duration '10x' is not a duration/);
  assertUsageError(await cli('--strategy', 'baseline', '--duration', '0s'), /--duration must be more than zero/);
  assertUsageError(await cli('--strategy', 'baseline', '--warmup', 'soon'), /--warmup 'soon'/);
  assertUsageError(await cli('--strategy', 'baseline', '--rate', '-3'), /--rate must be more than zero/);
});

test('conflicting and misplaced flags, exit 2', async () => {
  assertUsageError(await cli('--strategy', 'baseline', '--duration', '1s', '--requests', '10'), /option '-d, --duration <time>' cannot be used with option '-n, --requests <n>'/);
  assertUsageError(await cli('--strategy', 'baseline', '--pool-size', '2'), /--pool-size applies to pool strategies/);
  assertUsageError(await cli('--workload', 'huge', '--strategy', 'baseline'), /--workload 'huge' is not one of: echo, large/);
  assertUsageError(await cli('--strategy', 'baseline', '--workload', 'echo', '--workload-cmd', 'ls'), /option '--workload <name>' cannot be used with option '--workload-cmd <command>'/);
  assertUsageError(await cli('--url', 'ftp://x'), /--url/);
  assertUsageError(await cli('--url', 'http://127.0.0.1:1/', '--strategy', 'baseline'), /drop --strategy/);
  assertUsageError(await cli('--strategy', 'baseline', '--runtime', '/nonexistent/rt'), /--runtime \/nonexistent\/rt: not an executable/);
  assertUsageError(await cli('--strategy', 'baseline', '--header', 'nocolon'), /--header 'nocolon' must look like 'name: value'/);
});

test("commander's own errors are one line, exit 2", async () => {
  assertUsageError(await cli('--no-such-flag'), /unknown option '--no-such-flag'/);
  assertUsageError(await cli('--connections'), /argument missing/);
});

test('--help and --version exit 0 and document every flag', async () => {
  const help = await cli('run', '--help');
  assert.equal(help.code, 0);
  for (const flag of ['--strategy', '--pool-size', '--balance', '--runtime', '--worker-runtime', '--workload', '--workload-cmd',
    '--url', '--connections', '--duration', '--requests', '--warmup', '--rate', '--timeout', '--method', '--header', '--body',
    '--no-verify', '--generator-threads', '--json', '--no-dashboard', '--out', '--log-file', '--debug']) {
    assert.ok(help.out.includes(flag), `run --help mentions ${flag}`);
  }
  // spawnbench is for Node servers, with special knowledge of those that spawn (issue 37 item 7): --help and package.json say so.
  const top = await cli('--help');
  assert.match(top.out.replace(/\s+/g, ' '), /Usage: spawnbench \[options\] \[command\] Load-test, diagnose and size Node\.js servers, with special knowledge of those that spawn a process per request /);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'));
  assert.match(pkg.description, /^Load-test, diagnose and size Node\.js servers, with special knowledge of those that spawn/);
  const tune = await cli('tune', '--help');
  assert.match(tune.out.replace(/\s+/g, ' '), /--processes <list> run your own server, unchanged, in this many node:cluster processes/);
  assert.match(tune.out, /spawnbench tune --processes 1,2,3 -- node api\.js/);
  const version = await cli('--version');
  assert.equal(version.code, 0);
  assert.match(version.out, /^\d+\.\d+\.\d+/);
});

test('list names every strategy with its description', async () => {
  const { code, out } = await cli('list');
  assert.equal(code, 0);
  assert.match(out, /^baseline\s+spawn\(\) in the main thread/m);
  const json = await cli('list', '--json');
  assert.ok(JSON.parse(json.out).some((s) => s.name === 'baseline' && s.description));
});

test('--version and the top-level --help load no command options, and print what the whole program prints', async () => {
  const { asksTopLevelOnly } = await import('../../src/cli.js');
  for (const argv of [['--version'], ['-v'], ['--help'], ['-h'], ['help']]) assert.equal(asksTopLevelOnly(argv), true, argv.join(' '));
  for (const argv of [[], ['help', 'tune'], ['tune', '--help'], ['--help', '--url', 'x'], ['-c', '5']]) assert.equal(asksTopLevelOnly(argv), false, argv.join(' '));
  const helpOf = async (commandOptions) => {
    const io = fakeIo();
    const program = await createProgram(io, { commandOptions });
    await assert.rejects(program.parseAsync(['--help'], { from: 'user' }), { code: 'commander.helpDisplayed' });
    return io.out();
  };
  const lean = await helpOf(false);
  assert.equal(lean, await helpOf(true));
  assert.match(lean, /^ {2}tune \[options\] \[command\.\.\.\]/m);
  assert.match(lean, /^ {2}help \[command\]/m);
});
