// tune --processes on a user's unchanged server (issue 37 item 3): each step runs it
// in N node:cluster workers, as PM2's cluster mode does. CommonJS Fastify on PORT and
// an ES-module Express app on a fixed port of its own; the probe sees every worker; a
// worker that dies takes the step down with its reason; other command shapes are
// refused in one line; nothing is left running.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { spawn } from 'node:child_process';
import { cli, QUICK, assertNothingLeft } from './helpers.js';
import { spawnCli, waitFor } from '../helpers/harness.js';
import { descendants, isAlive } from '../helpers/processes.js';
import { CLUSTER_PRIMARY } from '../../src/tune/process-sweep.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-own-processes-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const server = (file) => fileURLToPath(new URL(`../../fixtures/servers/${file}`, import.meta.url));

/** A port free right now, for the server that listens on a port of its own. */
async function freePort() {
  const probe = createServer();
  await new Promise((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = /** @type {import('node:net').AddressInfo} */ (probe.address());
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/** The worker rows of the recommended size's step: the cluster's workers, beside its primary. */
const workerRows = (result) => result.processes.rows.filter((r) => r.role !== 'main');

test('tune --processes 1,2 -- node <Fastify, CommonJS, PORT>: one step per count, the workers seen, the gain and how to deploy it', async () => {
  const out = join(dir, 'fastify.json');
  const script = server('fastify-cpu-route.cjs');
  // ~3 ms of CPU per request, not the fixture's ~13: still its main thread's limit (2 processes serve more), but
  // a step reaches tune's 200 responses in 1–2 s; at 13 ms one process served 22 req/s on a loaded machine, a 10 s step.
  const rounds = process.env.CPU_ROUTE_ROUNDS;
  process.env.CPU_ROUTE_ROUNDS = '3000';
  let run;
  try {
    run = await cli('tune', '--processes', '1,2', '--repeat', '1', ...QUICK, '--out', out, '--', process.execPath, script);
  } finally {
    if (rounds === undefined) delete process.env.CPU_ROUTE_ROUNDS;
    else process.env.CPU_ROUTE_ROUNDS = rounds;
  }
  const { code, out: text, err } = run;
  assert.equal(code, 0, err);
  const result = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(result.steps.map((s) => s.size), [1, 2]);
  assert.ok(result.steps.every((s) => s.rps > 0 && s.errors === 0 && !s.failed), JSON.stringify(result.steps));
  assert.equal(result.plan.knobs.processes, true);
  assert.deepEqual(result.plan.base.target.command, [process.execPath, script], 'the plan keeps the command as given');
  assert.equal(workerRows(result).length, result.recommendation.size, JSON.stringify(result.processes.rows));
  assert.ok(workerRows(result).every((w) => w.cpuPct > 0 && w.elu > 0), 'each worker served, and the probe saw it (ELU)');
  assert.match(text, /^spawnbench tune · command '.*fastify-cpu-route\.cjs' · processes via node:cluster \(--processes\), round-robin · /);
  assert.doesNotMatch(text, /Policy not tuned/);
  // Progress names the user's command in its cluster, not the primary spawnbench put before its script.
  assert.match(err, /spawnbench '.*fastify-cpu-route\.cjs' in 2 node:cluster workers · pool 2 · /);
  assert.doesNotMatch(err, /cluster-primary/);
  const size = result.recommendation.size;
  if (size === 2) {
    assert.match(text, /\n {2}2 processes served [\d,]+ req\/s, [\d.]+× what 1 process served \([\d,]+\)\.\n {2}To run 2 processes: `pm2 start .*fastify-cpu-route\.cjs -i 2` \(PM2's cluster mode\), node:cluster .* in-memory state .* is per process/);
  } else {
    assert.match(text, /\n {2}1 process measured best \([\d,]+ req\/s\): more processes did not serve more here\./);
  }
  await assertNothingLeft({ pids: result.steps.map((s) => s.pid), marker: script });
});

test('tune --processes 2 -- node <Express, ES module, a fixed port>: the workers share the port node:cluster holds', async () => {
  const port = await freePort();
  const script = server('express-fixed-port.mjs');
  // Without --port it is told to pass one, in the words of its own command, not the cluster primary's.
  const unset = await cli('tune', '--processes', '2', '--repeat', '1', ...QUICK, '--', process.execPath, script, String(port));
  assert.equal(unset.code, 1, unset.err);
  assert.match(unset.err, new RegExp(`'.*express-fixed-port\\.mjs ${port}' in 2 node:cluster workers listens on port ${port}, not on port \\d+ \\(given to it as PORT\\); .*pass --port ${port}\\b`));
  assert.doesNotMatch(unset.err.split('\n').at(-2), /cluster-primary/);
  const { code, out, err } = await cli('tune', '--processes', '2', '--repeat', '1', '--port', String(port), '--json', ...QUICK, '--', process.execPath, '--no-warnings', script, String(port));
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  const [step] = result.steps;
  assert.ok(step.rps > 0 && step.errors === 0 && !step.failed, JSON.stringify(step));
  assert.equal(workerRows(result).length, 2, JSON.stringify(result.processes.rows));
  await assertNothingLeft({ pids: result.steps.map((s) => s.pid), marker: script });
});

test('a worker that exits takes the step down, with the cluster primary saying which', async () => {
  const script = server('exit-at-start.js');
  const { code, err } = await cli('tune', '--processes', '2', '--repeat', '1', ...QUICK, '--', process.execPath, script);
  assert.equal(code, 1, err);
  assert.match(err, /spawnbench cluster: worker \d+ exited \(code 3\); stopping the others/);
  assert.equal(err.trim().split('\n').filter((l) => /at .*\.js:\d+/.test(l)).length, 0, 'no stack trace');
  await assertNothingLeft({ marker: script });
});

test('--processes needs node [node-flags] <script>: other shapes and other size options are refused in one line', async () => {
  const refusals = [
    [['--processes', '1,2', '--', 'npm', 'start'], /^spawnbench: --processes runs a script in node:cluster workers and 'npm' is not node; it works on node \[node-flags\] <script> \[args\], e\.g\. --processes 1,2 -- node api\.js \(for npm start, give the node command it runs\)\n$/],
    [['--processes', '1,2', '--', 'node', '-e', 'require("http")'], /node -e runs no script/],
    [['--processes', '1,2', '--sizes', '1,2', '--', 'node', 'api.js'], /^spawnbench: --processes is the sweep's sizes and node:cluster balances them: drop --sizes\n$/],
    [['--processes', '1,2', '--size-env', 'WORKERS', '--', 'node', 'api.js'], /drop --size-env/],
    [['--processes', '1,2', '--', 'node', 'api.js', '--workers', '{size}'], /drop \{size\} from its arguments/],
    [['--processes', '1,2'], /--processes applies to your own server/],
    [['--processes', '0', '--', 'node', 'api.js'], /--processes must be at least 1/],
  ];
  for (const [args, message] of refusals) {
    const { code, err } = await cli('tune', ...args);
    assert.equal(code, 2, `${args.join(' ')}: ${err}`);
    assert.match(err, message);
    assert.equal(err.trim().split('\n').length, 1, err);
  }
});

test('the cluster primary of one worker that died exits with a failure, not 0 (tune said "exited with code 0" of a worker killed by SIGSEGV)', async () => {
  const primary = spawn(process.execPath, [CLUSTER_PRIMARY, server('exit-at-start.js')], {
    env: { ...process.env, SPAWNBENCH_PROCESSES: '1', PORT: '0' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  primary.stderr.on('data', (chunk) => { err += chunk; });
  const { code } = await new Promise((resolve) => primary.on('exit', (c, signal) => resolve({ code: c, signal })));
  assert.match(err, /spawnbench cluster: worker \d+ exited \(code 3\); stopping the others/);
  assert.equal(code, 3, err);
});

test('the cluster primary passes SIGTERM on to its workers and exits once they are gone', async () => {
  const primary = spawn(process.execPath, [CLUSTER_PRIMARY, server('fastify-cpu-route.cjs')], {
    env: { ...process.env, SPAWNBENCH_PROCESSES: '2', PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  primary.stdout.on('data', (chunk) => { output += chunk; });
  primary.stderr.on('data', (chunk) => { output += chunk; });
  const exited = new Promise((resolve) => primary.on('exit', (code, signal) => resolve({ code, signal })));
  try {
    await waitFor(() => (output.match(/fastify-cpu-route: pid \d+/g) ?? []).length === 2, { timeoutMs: 20_000, what: () => `two workers listening; output: ${output}` });
    const workers = descendants(primary.pid);
    assert.equal(workers.length, 2, `workers: ${workers}`);
    primary.kill('SIGTERM'); // the primary alone, not its group: it must pass the signal on
    const { code } = await exited;
    assert.equal(code, 0, output);
    await waitFor(() => workers.every((pid) => !isAlive(pid)), { what: () => `workers ${workers} to be gone` });
  } finally {
    if (primary.exitCode === null && primary.signalCode === null) primary.kill('SIGKILL');
  }
});

test('run on a server that reads WORKERS=1 and forks only above 1: WORKERS is its knob, confirmed by a tune over 1 and 2', async () => {
  const script = server('workers-env-skip.cjs');
  const { code, out, err } = await spawnCli(['run', '--duration', '2s', '--warmup', '300ms', '--connections', '4', '--json', '--', process.execPath, script], {
    env: { ...process.env, WORKERS: '1' },
  });
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  assert.deepEqual([result.sizeKnob.source, result.sizeKnob.name, result.sizeKnob.value], ['environment', 'WORKERS', 1], JSON.stringify(result.sizeKnob));
  const argv = result.recommendation.confirmWith?.argv ?? [];
  assert.deepEqual(argv.slice(0, 5), ['tune', '--sizes', '1,2', '--size-env', 'WORKERS'], JSON.stringify(result.recommendation));
  assert.deepEqual(argv.slice(-3), ['--', process.execPath, script]);
  await assertNothingLeft({ pids: [result.target.pid], marker: script });
});
