// Small wrong words on the command line (issue 36, lows): each message says what is true.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cli, fixtureServer } from '../helpers/harness.js';

const RUN_RESULT = fileURLToPath(new URL('../gates/fixtures/run.json', import.meta.url));
const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-test-lows-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test("--assert 'max<25h' says h is not a unit of latency (it said 'give the duration a unit')", async () => {
  const hours = await cli('report', RUN_RESULT, '--assert', 'max<25h');
  assert.equal(hours.code, 2);
  assert.equal(hours.err, "spawnbench: --assert 'max<25h': 'h' is not a unit of latency; use us, ms or s (e.g. max<50ms)\n");
  const none = await cli('report', RUN_RESULT, '--assert', 'p99<25');
  assert.equal(none.err, "spawnbench: --assert 'p99<25': give the duration a unit: us, ms or s (e.g. p99<50ms)\n");
});

test('--generator-threads 1.5 suggests a number the cap allows', async () => {
  const most = Number(/give at most (\d+)/.exec((await cli('run', '--generator-threads', '64')).err)?.[1]);
  assert.ok(most >= 1, 'the cap is said');
  const { code, err } = await cli('run', '--generator-threads', '1.5');
  assert.equal(code, 2);
  const example = Number(/use e\.g\. --generator-threads (\d+)\n$/.exec(err)?.[1]);
  assert.ok(example >= 1 && example <= most, `e.g. ${example} with at most ${most}: ${err}`);
});

test('--against a run of another target: a warning line names both', async () => {
  const other = JSON.parse(readFileSync(RUN_RESULT, 'utf8'));
  other.plan.target = { kind: 'command', command: ['node', 'other.js'], path: '/' };
  const file = path.join(dir, 'other.json');
  writeFileSync(file, JSON.stringify(other));
  const { code, out, err } = await cli('report', RUN_RESULT, '--against', file);
  assert.equal(code, 0, err);
  assert.match(out, /^ {2}warning: comparing different targets: the baseline measured command 'node other\.js', this run strategy 'fork-pool'$/m);
  const json = JSON.parse((await cli('report', RUN_RESULT, '--against', file, '--json')).out);
  assert.deepEqual(json.against.differentTargets, { before: { kind: 'command', name: 'node other.js' }, after: { kind: 'strategy', name: 'fork-pool' } });
  const same = await cli('report', RUN_RESULT, '--against', RUN_RESULT);
  assert.doesNotMatch(same.out, /different targets/);
});

test('--against a run that sent other requests or another load: a warning line names both', async () => {
  // Seen: run --against a baseline of a two-path mix, this run GET / alone: 'req/s +31% … 4 better' and rps-change passed, without a word.
  const other = JSON.parse(readFileSync(RUN_RESULT, 'utf8'));
  other.plan.load = { ...other.plan.load, mix: [{ name: 'GET /a', method: 'GET', path: '/a', headers: {}, body: null, weight: 1 }, { name: 'POST /b', method: 'POST', path: '/b', headers: {}, body: 'x', weight: 1 }] };
  const file = path.join(dir, 'other-load.json');
  writeFileSync(file, JSON.stringify(other));
  const { code, out, err } = await cli('report', RUN_RESULT, '--against', file);
  assert.equal(code, 0, err);
  const { connections } = other.plan.load;
  assert.match(out, new RegExp(`^ {2}warning: comparing different loads: the baseline sent GET /a, POST /b with a body over ${connections} connections, this run GET / over ${connections} connections$`, 'm'));
  const json = JSON.parse((await cli('report', RUN_RESULT, '--against', file, '--json')).out);
  assert.deepEqual(json.against.differentLoads.after, { requests: ['GET /'], body: false, rate: null, connections });
  other.plan.load = { ...JSON.parse(readFileSync(RUN_RESULT, 'utf8')).plan.load, rate: 200 };
  writeFileSync(file, JSON.stringify(other));
  assert.match((await cli('report', RUN_RESULT, '--against', file)).out, /warning: comparing different loads: the baseline sent GET \/ at 200 req\/s, this run GET \/ over \d+ connections/);
  assert.doesNotMatch((await cli('report', RUN_RESULT, '--against', RUN_RESULT)).out, /different loads/);
});

test('the --log-file line "server ready" holds the key pid once', async () => {
  const log = path.join(dir, 'run.log');
  // An open loop at a low rate: the log's line is checked, not the server's figures.
  const { code, err } = await cli('run', '-d', '300ms', '-w', '0s', '-c', '1', '-r', '20', '--no-dashboard', '--log-file', log, '--', process.execPath, fixtureServer('healthy'));
  assert.equal(code, 0, err);
  const ready = readFileSync(log, 'utf8').split('\n').find((line) => line.includes('"msg":"server ready"'));
  assert.ok(ready, 'the line is logged');
  assert.equal(ready.match(/"pid":/g).length, 1, ready);
  assert.equal(JSON.parse(ready).pid, process.pid, "pid is spawnbench's own, as on every line");
  assert.ok(Number.isInteger(JSON.parse(ready).commandPid), 'the command started has its own key');
});
