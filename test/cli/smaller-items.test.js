// The smaller hostile cases, each once: a mistyped command, a line break in a header (found
// only after boot), stdout on a full device (an internal error), a crash whose Error line was
// cut from the stderr tail by its stack, a --pid that is not the server behind --url, and
// connect errors of any kind labelled "connect refused".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { openSync, closeSync } from 'node:fs';
import http from 'node:http';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli.js';
import { fakeIo } from '../helpers/io.js';
import { BIN } from '../helpers/spawnbench-process.js';
import { formatSummary } from '../../src/report/summary.js';

const FIXTURE_STRATEGIES = fileURLToPath(new URL('../../fixtures/strategies/', import.meta.url));

async function cli(args, env = {}) {
  const saved = { ...process.env };
  Object.assign(process.env, env);
  try {
    const io = fakeIo();
    const code = await runCli(args, io);
    return { code, out: io.out(), err: io.err() };
  } finally {
    for (const k of Object.keys(env)) if (saved[k] === undefined) delete process.env[k]; else process.env[k] = saved[k];
  }
}

test('spawnbench frobnicate: unknown command, the commands listed, exit 2', async () => {
  const { code, err } = await cli(['frobnicate']);
  assert.equal(code, 2);
  assert.equal(err, "spawnbench: unknown command 'frobnicate'; commands: run, list, tune, compare, report, diagnose; see spawnbench --help\n");
});

test('a line break in -H is refused before anything boots', async () => {
  const { code, err } = await cli(['-H', 'x-a: b\r\nX-Smuggled: 1', '-d', '1s']);
  assert.equal(code, 2);
  assert.equal(err, "spawnbench: --header 'x-a' must not contain a line break\n");
});

test('stdout on a full device: one line on stderr, exit 1, no internal error', () => {
  const full = openSync('/dev/full', 'w');
  try {
    const result = spawnSync(process.execPath, [BIN, 'list'], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
    assert.equal(result.status, 1);
    assert.equal(result.stderr, 'spawnbench: cannot write the output: no space left on the device it goes to\n');
  } finally {
    closeSync(full);
  }
});

test("a strategy that throws at start: its Error line is in the message, above the shortened stack", async () => {
  const { code, err } = await cli(['-s', 'throws-at-start', '-d', '1s'], { SPAWNBENCH_STRATEGY_PATH: FIXTURE_STRATEGIES });
  assert.equal(code, 1);
  assert.match(err, /^Error: boom at start: the config file is missing$/m);
  assert.match(err, /… \d+ more frames/);
});

test('diagnose --url … --pid of a process that does not listen there: refused, exit 2', async () => {
  const server = http.createServer((q, s) => s.end('ok\n')).listen(0, '127.0.0.1');
  await once(server, 'listening');
  try {
    const url = `http://127.0.0.1:${server.address().port}/`;
    const { code, err } = await cli(['diagnose', '--url', url, '--pid', '1', '-d', '1s']);
    assert.equal(code, 2);
    assert.match(err, new RegExp(`^spawnbench: --pid 1 is not the server behind ${url.replaceAll('/', '\\/')}: it listens on .*, not ${server.address().port}; give the pid of the process that listens there\\n$`));
  } finally {
    server.close();
  }
});

test('connect errors are "connect failed" (EMFILE, EADDRNOTAVAIL as much as a refused port), with the code in the notes', () => {
  const result = JSON.parse(JSON.stringify({
    plan: { target: { kind: 'url', url: 'http://127.0.0.1:1/' }, workload: { command: 'echo', args: ['hi'] }, load: { connections: 2, durationMs: 1000, warmupMs: 0, mode: 'closed' } },
    machine: { node: '20', libuv: '1', cpuModel: 'x', cores: 2, platform: 'linux', arch: 'x64' },
    load: { requests: 0, rps: 0, bytes: 0, durationMs: 1000, latency: null, errors: { total: 5, connect: 5, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0 }, statuses: {}, notes: ['EMFILE: too many open files for 2 connections'] },
    notes: [], failures: [],
  }));
  const text = formatSummary(result);
  assert.match(text, /Errors\s+5: connect failed 5/);
  assert.doesNotMatch(text, /refused/);
});

test('a Ctrl-C delivered twice at once (to spawnbench and its group, as timeout does) stops gracefully; a later second one still forces', async () => {
  // `timeout 120 spawnbench compare …` cancelled with SIGINT: timeout passes it on to spawnbench and to its group, and
  // a compare stopped so once exited 130 with no table and no --out, as a deliberate second Ctrl-C does.
  const { handleSignals } = await import('../../src/commands/signals.js');
  const { SIGNAL_REPEAT_MIN_MS } = await import('../../src/base/thresholds.js');
  const exit = process.exit;
  const exits = [];
  let stops = 0;
  process.exit = /** @type {never} */ ((code) => exits.push(code));
  const signals = handleSignals(() => stops++);
  try {
    process.emit('SIGINT', 'SIGINT');
    process.emit('SIGINT', 'SIGINT');
    assert.equal(stops, 1);
    assert.deepEqual(exits, [], 'the same signal twice within microseconds is one stop, not a forced exit');
    await new Promise((resolve) => setTimeout(resolve, SIGNAL_REPEAT_MIN_MS + 50));
    process.emit('SIGINT', 'SIGINT');
    assert.deepEqual(exits, [130], 'a second press after that forces the exit');
  } finally {
    signals.release();
    process.exit = exit;
  }
});
