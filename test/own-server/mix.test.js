// --mix end to end on a multi-route server (fixtures/servers/multi-route.js): the shares
// follow the weights, each endpoint has its own percentiles and gates, a HAR capture of the
// same traffic gives the same endpoints, every bad file and flag is one line with exit 2,
// and nothing is left running.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnCli, ROOT, cli } from '../helpers/harness.js';
import { fixture, assertNothingLeft } from './helpers.js';
import { buildTunePlan } from '../../src/tune/tune-plan.js';
import { buildComparePlan } from '../../src/compare/compare-plan.js';
import { buildDiagnosePlan } from '../../src/diagnose/diagnose-plan.js';

const MIX = join(ROOT, 'fixtures/mix/api.json');
const HAR = join(ROOT, 'fixtures/mix/api.har');
const SERVER = ['--', process.execPath, fixture('multi-route')];
const WEIGHTS = { 'GET /health': 60, 'GET /items/:id': 25, 'GET /report': 10, 'POST /convert': 5 };
const dir = mkdtempSync(join(tmpdir(), 'spawnbench-mix-e2e-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, CI: 'true' };

test('run --mix: 4 endpoints with the weighted shares over 1,200 requests, each with its own percentiles; errors{POST /convert}=0 passes', async () => {
  const out = join(dir, 'mix.json');
  const { code, out: text, err } = await spawnCli(
    ['run', '--mix', MIX, '-n', '1200', '-w', '0', '-c', '4', '--out', out, '--html', join(dir, 'mix.html'), '--assert', 'errors{POST /convert}=0', ...SERVER],
    { env, timeoutMs: 120_000 },
  );
  assert.equal(code, 0, err);
  const result = JSON.parse(readFileSync(out, 'utf8'));
  const endpoints = result.load.endpoints;
  // Seed 1 draws the same sequence every run: its first 1,200 requests are within 1.1 points of each weight.
  assert.deepEqual(endpoints.map((e) => e.name), Object.keys(WEIGHTS));
  assert.equal(endpoints.reduce((sum, e) => sum + e.requests, 0), result.load.requests);
  for (const e of endpoints) {
    assert.ok(Math.abs(e.share * 100 - WEIGHTS[e.name]) <= 2, `${e.name}: ${(e.share * 100).toFixed(1)}% of the requests for a weight of ${WEIGHTS[e.name]}`);
    assert.equal(e.errors.total, 0, `${e.name}: ${JSON.stringify(e.errors)}`);
    assert.equal(typeof e.histogram, 'string');
  }
  const [health, , report] = endpoints;
  // GET /report burns 15 ms of the one thread: its own median is at least that, the free route's is not.
  assert.ok(report.p50Ms >= 14, `GET /report p50 ${report.p50Ms} ms`);
  assert.ok(report.p99Ms >= report.p50Ms);
  assert.ok(health.p50Ms < report.p50Ms, `GET /health p50 ${health.p50Ms} ms, GET /report ${report.p50Ms} ms`);
  assert.deepEqual(result.assertions.map((a) => [a.expr, a.endpoint, a.pass, a.measured]), [['errors{POST /convert}=0', 'POST /convert', true, 0]]);
  assert.match(text, /^Endpoints +name +share \(weight\)/m);
  assert.match(text, /^ +GET \/report +\d+\.\d% \(10\.0%\)/m);
  assert.match(text, /^spawnbench run · command/m);
  assert.match(text, /a mix of 4 endpoints, drawn by weight \(seed 1\)/);
  // report <file> shows them again, the HTML report as a table.
  const again = await cli('report', out);
  assert.equal(again.code, 0, again.err);
  assert.match(again.out, /^ +POST \/convert +\d+\.\d% \(5\.0%\)/m);
  const html = readFileSync(join(dir, 'mix.html'), 'utf8');
  assert.match(html, /<h2>Endpoints<\/h2><table><thead><tr><th class="text">endpoint<\/th>/);
  assert.match(html, /<td class="text">GET \/items\/:id<\/td>/);
  await assertNothingLeft({ pids: [result.target.pid], marker: fixture('multi-route') });
});

test('run --mix of a HAR capture: the same endpoints; p99{GET /report}<1ms fails with exit 3', async () => {
  const out = join(dir, 'har.json');
  const { code, out: text, err } = await spawnCli(
    ['run', '--mix', HAR, '-n', '300', '-w', '0', '-c', '2', '--out', out, '--assert', 'p99{GET /report}<1ms', ...SERVER],
    { env, timeoutMs: 120_000 },
  );
  assert.equal(code, 3, err);
  const result = JSON.parse(readFileSync(out, 'utf8'));
  assert.deepEqual(result.load.endpoints.map((e) => e.name).sort(), Object.keys(WEIGHTS).sort());
  assert.equal(result.load.errors.total, 0, JSON.stringify(result.load.errorTexts));
  const [outcome] = result.assertions;
  assert.equal(outcome.pass, false);
  assert.ok(outcome.measured >= 14, `GET /report p99 ${outcome.measured} ms`);
  assert.match(text, /^assert p99\{GET \/report\}<1ms +FAIL +measured \d/m);
  await assertNothingLeft({ pids: [result.target.pid], marker: fixture('multi-route') });
});

const bad = (name, text) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};

const USAGE = [
  ['--mix with --method', ['--mix', MIX, '--method', 'POST'], /--mix.*--method|--method.*--mix/],
  ['--mix with --path', ['--mix', MIX, '--path', '/x'], /--mix.*--path|--path.*--mix/],
  ['--mix with --body', ['--mix', MIX, '--body', 'x'], /--mix.*--body|--body.*--mix/],
  ['a missing path', ['--mix', bad('no-path.json', '[{"method":"GET"}]')], /entry 1: "path" is missing/],
  ['a method that is not a token', ['--mix', bad('method.json', '[{"method":"GE T","path":"/"}]')], /entry 1: "method" "GE T" is not an HTTP method/],
  ['a negative weight', ['--mix', bad('weight.json', '[{"path":"/"},{"path":"/a","weight":-2}]')], /entry 2: "weight" -2/],
  ['truncated JSON', ['--mix', bad('cut.json', '[{"path":"/"},{"pa')], /cut\.json: is not JSON/],
  ['an unreadable file', ['--mix', join(dir, 'missing.json')], /missing\.json: cannot read it/],
  ['a HAR without entries', ['--mix', bad('empty.har', '{"log":{"version":"1.2","entries":[]}}')], /a HAR without entries/],
  ['a filter on a metric with none per endpoint', ['--mix', MIX, '--assert', 'elu{GET /report}<0.5'], /elu has no figure per endpoint/],
  // These three failed only after the whole run (exit 3), the first saying "no endpoint in the result's mix" of a run with none.
  ['a filter on a run of one request', ['--assert', 'p99{GET /}<50ms'], /^spawnbench: --assert 'p99\{GET \/\}<50ms' reads one endpoint of a mix, and this run sends one request: add --mix <file> \(or --path more than once\), or gate the run, like --assert 'p99<50ms'$/m],
  ['a filter naming no endpoint of the mix', ['--mix', MIX, '--assert', 'p99{get /report}<50ms'], /^spawnbench: --assert 'p99\{get \/report\}<50ms': no endpoint of the mix is named 'get \/report'; name one by its name or METHOD path: '[^']+', '/m],
  ['a filter two endpoints answer to', ['--path', '/items?page=1', '--path', '/items?page=2', '--assert', 'p99{GET /items}<50ms'], /2 endpoints of the mix answer to 'GET \/items'; name one by its name, or METHOD path with its query/],
];

for (const [what, args, words] of USAGE) {
  test(`${what}: one line, exit 2, nothing started`, async () => {
    const { code, err } = await cli('run', ...args, '--json', ...SERVER);
    assert.equal(code, 2, err);
    assert.match(err, words);
    assert.equal(err.trim().split('\n').length, 1, err);
  });
}

test('compare refuses a filter on one endpoint before anything starts: its rows have no figures per endpoint', async () => {
  const { code, err } = await cli('compare', '--strategies', 'baseline', '--assert', 'p99{GET /}<50ms');
  assert.equal(code, 2, err);
  assert.equal(err, "spawnbench: --assert 'p99{GET /}<50ms': a compare row has no figures per endpoint; gate the row, like --assert 'p99<50ms'\n");
});

test('--mix reaches tune, compare and diagnose on your own server and a --url; a strategy refuses it', async () => {
  assert.equal(buildTunePlan({ mix: MIX, sizeEnv: 'WORKERS', sizes: [1, 2] }, ['node', 'server.js']).base.load.mix.length, 4);
  assert.equal(buildDiagnosePlan({ mix: MIX }, ['node', 'server.js']).load.mix.length, 4);
  assert.equal(buildDiagnosePlan({ mix: HAR, url: 'http://127.0.0.1:9/' }).load.mix.length, 4);
  assert.equal(buildComparePlan({ mix: MIX, command: ['mine=node server.js'] }).plans.server.mine.load.mix.length, 4);
  const { code, err } = await cli('run', '--mix', MIX, '--strategy', 'baseline', '--json');
  assert.equal(code, 2);
  assert.match(err, /--mix drives your own server/);
});
