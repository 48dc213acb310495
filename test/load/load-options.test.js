// startLoad()'s defaults are the CLI's: one value each, from src/base/thresholds.js.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkLoad, normalizeOptions, LOAD_DEFAULTS } from '../../src/load/load-options.js';
import { defaultOf } from '../../src/plan/option-declarations.js';
import { startLoad } from '../../src/load/index.js';
import { buildRunPlan } from '../../src/plan/run-plan.js';
import { cli } from '../helpers/harness.js';

const url = 'http://127.0.0.1:9/';

test('closed loop without connections: the same 30 as the CLI\'s default', () => {
  assert.equal(normalizeOptions({ url }).connections, 30);
  assert.equal(buildRunPlan({ url }).load.connections, 30);
});

test('open loop without connections: rate × 0.5 s, from 10 to 1,000', () => {
  assert.equal(normalizeOptions({ url, rate: 5 }).connections, 10);
  assert.equal(normalizeOptions({ url, rate: 200 }).connections, 100);
  assert.equal(normalizeOptions({ url, rate: 1e6 }).connections, 1000);
});

test('duration and timeout defaults: 10 s each, as --help says', () => {
  const o = normalizeOptions({ url });
  assert.equal(o.durationMs, 10_000);
  assert.equal(o.timeoutMs, 10_000);
  assert.equal(buildRunPlan({ url }).load.durationMs, 10_000);
});

// One set of defaults and one set of errors for the CLI, the API's run() and startLoad():
// a run plan's load is startLoad()'s input as it is, checked by the same functions.

test('warm-up: startLoad() waits the CLI\'s 2 s too, unless told otherwise', () => {
  assert.equal(normalizeOptions({ url }).warmupMs, 2000);
  assert.equal(buildRunPlan({ url }).load.warmupMs, 2000);
  assert.equal(normalizeOptions({ url, warmupMs: 0 }).warmupMs, 0);
});

test('every default startLoad() fills in is the one --help declares', () => {
  const declared = { method: 'method', durationMs: 'duration', warmupMs: 'warmup', timeoutMs: 'timeout', threads: 'generatorThreads', seed: 'seed' };
  for (const [key, name] of Object.entries(declared)) assert.equal(LOAD_DEFAULTS[key], defaultOf(name), `${key} and --${name}`);
  assert.deepEqual(Object.keys(declared).sort(), Object.keys(LOAD_DEFAULTS).sort());
  const plan = buildRunPlan({ url }).load;
  const started = normalizeOptions({ url });
  for (const key of Object.keys(declared)) assert.equal(started[key], plan[key], key);
});

test('a plan\'s load is startLoad()\'s input: checked again, it is the same', () => {
  for (const options of [{ url }, { url, rate: 200, requests: 500 }, { url, method: 'post', body: 'x', header: ['x-a: 1'], connections: 4, generatorThreads: 2 }]) {
    const load = buildRunPlan(options).load;
    assert.deepEqual(checkLoad(load), load);
    const started = normalizeOptions({ ...load, url });
    for (const [key, value] of Object.entries(load)) if (key !== 'connections' || value !== null) assert.deepEqual(started[key], value, key);
  }
});

const sameErrors = [
  ['threads above connections', { connections: 1, generatorThreads: 2 }, { connections: 1, threads: 2 }, ['--connections', '1', '--generator-threads', '2'], /--generator-threads \(2\) cannot exceed --connections \(1\)/],
  ['a method that is not a token', { method: 'G T' }, { method: 'G T' }, ['--method', 'G T'], /--method 'G T' is not an HTTP method/],
  ['zero connections', { connections: 0 }, { connections: 0 }, ['--connections', '0'], /--connections must be at least 1, got 0/],
  ['a negative rate', { rate: -1 }, { rate: -1 }, ['--rate', '-1'], /--rate must be more than zero, got -1/],
  ['a zero duration', { duration: 0 }, { durationMs: 0 }, ['--duration', '0'], /--duration must be more than zero/],
];

for (const [what, apiOptions, loadOptions, flags, words] of sameErrors) {
  test(`${what}: the same one line from run(), startLoad() and the CLI (exit 2)`, async () => {
    assert.throws(() => buildRunPlan({ url, ...apiOptions }), words);
    assert.throws(() => startLoad({ url, ...loadOptions }), words);
    const { code, err } = await cli('run', '--url', url, ...flags, '--json');
    assert.equal(code, 2);
    assert.match(err, words);
    assert.equal(err.trim().split('\n').length, 1, err);
  });
}
