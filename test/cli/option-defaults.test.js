// Defaults declared once (src/plan/option-declarations.js): --help shows each declared
// default, the plans get the same typed values from the CLI and from the API, and
// "was it given?" comes from commander's getOptionValueSource() or from the API's
// options object, never from a second table. No process is started.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createProgram } from '../../src/cli.js';
import { OPTION_GROUPS } from '../../src/plan/options.js';
import { COMMANDS } from '../../src/commands/index.js';
import { OPTIONS, defaultOf, shownDefault, cliOptions, readOptions } from '../../src/plan/option-declarations.js';
import { buildRunPlan } from '../../src/plan/run-plan.js';
import { buildTunePlan } from '../../src/tune/tune-plan.js';
import { buildComparePlan } from '../../src/compare/compare-plan.js';
import { buildDiagnosePlan } from '../../src/diagnose/diagnose-plan.js';
import { cli } from '../helpers/harness.js';
import { fakeIo } from '../helpers/io.js';

/** --help's option entries, each with its wrapped lines joined: '-d, --duration <time> measured time, … (default: 10s)'. */
function helpEntries(help) {
  const entries = [];
  for (const line of help.split('\n')) {
    if (/^ {2}-/.test(line)) entries.push(line.trim());
    else if (/^ {3,}\S/.test(line) && entries.length > 0) entries[entries.length - 1] += ` ${line.trim()}`;
  }
  return entries.map((e) => e.replace(/\s+/g, ' '));
}

/** The declared options of a command, from its groups. */
function optionsOf(name) {
  const def = COMMANDS.find((c) => c.name === name);
  return [...new Set(def.groups.flatMap((g) => OPTION_GROUPS[g]))];
}

for (const command of ['run', 'tune', 'compare', 'diagnose']) {
  test(`${command} --help shows every declared default, as declared for ${command}`, async () => {
    const { code, out } = await cli(command, '--help');
    assert.equal(code, 0);
    const entries = helpEntries(out);
    let shown = 0;
    for (const name of optionsOf(command)) {
      const { flags } = OPTIONS[name];
      const entry = entries.find((e) => e.startsWith(`${flags} `) || e === flags);
      assert.ok(entry, `${command} --help lists ${flags}`);
      const value = defaultOf(name, command);
      const { defaultWords } = OPTIONS[name];
      if (defaultWords) {
        // A default the plan works out from other options (--worker-runtime: the main process's): its declared words.
        assert.equal(value, undefined, `${flags}: words or a typed default, not both`);
        assert.ok(entry.endsWith(`(default: ${defaultWords})`), `${command} --help: ${entry}`);
      } else if (value === undefined || flags.startsWith('--no-')) {
        assert.doesNotMatch(entry, /\(default: [^)]*\)$/, `${flags} has no default on ${command}, and --help shows none`);
        continue;
      } else {
        assert.ok(entry.endsWith(`(default: ${shownDefault(name, value)})`), `${command} --help: ${entry}`);
      }
      assert.equal(entry.match(/\(default: /g).length, 1, `one default in ${entry}`);
      shown++;
    }
    assert.ok(shown >= 5, `${command} shows its defaults (${shown})`);
  });
}

test("tune's and compare's own run lengths are theirs in --help and in their plans; run keeps 10s after 2s", async () => {
  const expected = { run: ['10s', '2s'], tune: ['3s', '1s'], compare: ['5s', '1s'] };
  for (const [command, [duration, warmup]] of Object.entries(expected)) {
    const entries = helpEntries((await cli(command, '--help')).out);
    assert.ok(entries.find((e) => e.startsWith('-d, --duration')).endsWith(`(default: ${duration})`), `${command} --duration`);
    assert.ok(entries.find((e) => e.startsWith('-w, --warmup')).endsWith(`(default: ${warmup})`), `${command} --warmup`);
  }
  const tune = buildTunePlan({ strategy: 'fork-pool' });
  assert.deepEqual([tune.base.load.durationMs, tune.base.load.warmupMs, tune.repeat], [3000, 1000, 3]);
  const compare = buildComparePlan({ strategies: 'baseline' });
  const run = compare.plans.echo.baseline;
  assert.deepEqual([run.load.durationMs, run.load.warmupMs, compare.repeat], [5000, 1000, 3]);
});

test('a declared default reaches the plan as declared, with no second table', () => {
  const run = buildRunPlan({ strategy: 'fork-pool' });
  assert.deepEqual(
    {
      connections: run.load.connections, durationMs: run.load.durationMs, warmupMs: run.load.warmupMs, timeoutMs: run.load.timeoutMs,
      method: run.load.method, threads: run.load.threads, intervalMs: run.probe.intervalMs, seed: run.target.seed,
      readyTimeoutMs: run.target.readyTimeoutMs, poolSize: run.target.poolSize, balance: run.target.balance,
      runtime: run.target.runtime.name, workload: run.workload.name, strategy: run.target.strategy,
    },
    {
      connections: defaultOf('connections'), durationMs: defaultOf('duration'), warmupMs: defaultOf('warmup'), timeoutMs: defaultOf('timeout'),
      method: defaultOf('method'), threads: defaultOf('generatorThreads'), intervalMs: defaultOf('sampleInterval'), seed: defaultOf('seed'),
      readyTimeoutMs: defaultOf('readyTimeout'), poolSize: defaultOf('poolSize'), balance: defaultOf('balance'),
      runtime: defaultOf('runtime'), workload: defaultOf('workload'), strategy: defaultOf('strategy'),
    },
  );
  const tune = buildTunePlan({});
  assert.deepEqual([tune.sizes, tune.repeat, tune.search], [defaultOf('sizes', 'tune'), defaultOf('repeat', 'tune'), defaultOf('search', 'tune')]);
  assert.deepEqual([tune.base.load.durationMs, tune.base.load.warmupMs], [defaultOf('duration', 'tune'), defaultOf('warmup', 'tune')]);
  const compare = buildComparePlan({ strategies: ['baseline'] });
  assert.deepEqual([compare.workloads, compare.repeat], [defaultOf('workloads', 'compare'), defaultOf('repeat', 'compare')]);
  const diagnose = buildDiagnosePlan({}, ['node', 'server.js']);
  assert.deepEqual([diagnose.target.path, diagnose.target.readyTimeoutMs, diagnose.load.durationMs], [defaultOf('path'), defaultOf('readyTimeout'), defaultOf('duration')]);
});

/** The plan run's action would build from argv: the real program, the action replaced. */
async function cliPlan(argv, build = buildRunPlan, command = 'run') {
  const program = await createProgram(fakeIo());
  let plan = null;
  program.commands.find((c) => c.name() === command).action(function () {
    plan = build(cliOptions(this, command));
  });
  await program.parseAsync(argv, { from: 'user' });
  return plan;
}

test('the CLI and the API give the same plan: defaults, text and typed values', async () => {
  const strip = (plan) => JSON.parse(JSON.stringify(plan));
  assert.deepEqual(strip(await cliPlan(['--strategy', 'fork-pool'])), strip(buildRunPlan({ strategy: 'fork-pool' })));
  const argv = ['-s', 'fork-pool', '-p', '3', '-b', 'p2c', '-c', '8', '-d', '1.5s', '-w', '0', '--timeout', '2s', '--sample-interval', '500ms', '--seed', '0'];
  const typed = { strategy: 'fork-pool', poolSize: 3, balance: 'p2c', connections: 8, duration: 1500, warmup: 0, timeout: 2000, sampleInterval: 500, seed: 0 };
  const text = { strategy: 'fork-pool', poolSize: '3', balance: 'p2c', connections: '8', duration: '1.5s', warmup: '0', timeout: '2s', sampleInterval: '500ms', seed: '0' };
  assert.deepEqual(strip(await cliPlan(argv)), strip(buildRunPlan(typed)));
  assert.deepEqual(strip(buildRunPlan(text)), strip(buildRunPlan(typed)));
  const tuneCli = await cliPlan(['tune', '--strategy', 'fork-pool', '--sizes', '1,2', '-d', '1s'], buildTunePlan, 'tune');
  assert.deepEqual(strip(buildTunePlan({ strategy: 'fork-pool', sizes: [1, 2], duration: 1000 })), strip(tuneCli));
  assert.deepEqual(strip(buildTunePlan({ strategy: 'fork-pool', sizes: '1,2', duration: '1s' })), strip(tuneCli));
  assert.deepEqual(tuneCli.sizes, [1, 2]);
});

test('given or not is what the user set, not the value: --rate sizes its own connections unless -c was given, even -c 30', async () => {
  assert.equal((await cliPlan(['-s', 'baseline', '-r', '100'])).load.connections, null);
  assert.equal((await cliPlan(['-s', 'baseline', '-r', '100', '-c', String(defaultOf('connections'))])).load.connections, defaultOf('connections'));
  assert.equal(buildRunPlan({ strategy: 'baseline', rate: 100 }).load.connections, null);
  assert.equal(buildRunPlan({ strategy: 'baseline', rate: 100, connections: 30 }).load.connections, 30);
  // tune's own duration is a default: -n replaces it on the CLI and in the API alike.
  assert.equal((await cliPlan(['tune', '-s', 'fork-pool', '-n', '500'], buildTunePlan, 'tune')).base.load.durationMs, null);
  assert.equal(buildTunePlan({ strategy: 'fork-pool', requests: 500 }).base.load.durationMs, null);
  // A default value given on purpose still counts as given: --balance on a pool-less strategy is refused.
  assert.throws(() => buildRunPlan({ strategy: 'baseline', balance: 'round-robin' }), /--balance applies to pool strategies/);
  await assert.rejects(cliPlan(['-s', 'baseline', '-b', 'round-robin']), /--balance applies to pool strategies/);
});

test('options that exclude each other: the same one line from commander and from the API', async () => {
  const { code, err } = await cli('-s', 'baseline', '-d', '1s', '-n', '10');
  assert.equal(code, 2);
  const message = "option '-d, --duration <time>' cannot be used with option '-n, --requests <n>'";
  assert.ok(err.includes(message), err);
  assert.throws(() => buildRunPlan({ strategy: 'baseline', duration: 1000, requests: 10 }), (e) => e.exitCode === 2 && e.message === message);
  assert.throws(() => readOptions({ workload: 'echo', workloadCmd: 'ls' }), /option '--workload <name>' cannot be used with option '--workload-cmd <command>'/);
  // A default is not a conflict: tune -n works although tune has a default --duration.
  assert.doesNotThrow(() => buildTunePlan({ strategy: 'fork-pool', requests: 10 }));
});

test('a bad value is refused by its declared parser, on the CLI and in the API, naming the flag', async () => {
  for (const [argv, api, pattern] of [
    [['-s', 'baseline', '-d', '10x'], { strategy: 'baseline', duration: '10x' }, /--duration '10x' is not a duration/],
    [['tune', '--sizes', '1,0'], { sizes: [1, 0] }, /--sizes must be at least 1/],
    [['-s', 'baseline', '--rate', '0x10'], { strategy: 'baseline', rate: '0x10' }, /--rate '0x10' is not a number; use e\.g\. --rate 100/],
    [['tune', '--sizes', '1,99999999999999999999'], { sizes: '1,99999999999999999999' }, /--sizes must be at most 256, got 100000000000000000000/],
    [['tune', '--search', 'fast'], { search: 'fast' }, /--search 'fast' is not one of: exhaustive, adaptive/],
    [['-s', 'baseline', '--sample-interval', '5s'], { strategy: 'baseline', sampleInterval: 5000 }, /--sample-interval must be between 100ms and 1s/],
  ]) {
    const { code, err } = await cli(...argv);
    assert.equal(code, 2, err);
    assert.match(err, pattern);
    assert.equal(err.trim().split('\n').length, 1, err);
    const build = argv[0] === 'tune' ? buildTunePlan : buildRunPlan;
    assert.throws(() => build(api), pattern);
  }
});
