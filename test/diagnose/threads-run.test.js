// Shares the machine with other test files: `run --` on libuv's threadpool work
// (fixtures/servers/pbkdf2.js: crypto.pbkdf2 per request, the event loop nearly idle) offers
// UV_THREADPOOL_SIZE, set or not, with the tune that confirms it. What it asserts holds however
// crowded the cores are: the knob and its value are the server's, and with the pool at 1 thread
// the limit is the pool where a core is idle and the cores where others fill them, each with its
// size to try. diagnose's threads verdicts, which read the whole machine, are in
// threads-fixtures.test.js (run alone). Every server's group is proven gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, fixtureServer as server } from '../helpers/harness.js';
import { assertGroupGone, withEnv } from './helpers.js';

const SHORT = ['--duration', '2s', '--warmup', '300ms', '--connections', '16', '--json'];
/**
 * An open loop at 150 requests a second, for the case that asserts no saturation-dependent figure:
 * 150 × ~3.7 ms of hashing (5,000 iterations) keeps the pool well over the 10% of a core that makes it
 * the knob, at a fraction of the CPU of a closed loop; 2 s and 300 requests are over the 2 s and 200 a
 * run needs for advice beyond "too short".
 */
const LIGHT = ['--duration', '2s', '--warmup', '300ms', '--rate', '150', '--connections', '16', '--json'];

test('run -- pbkdf2 with UV_THREADPOOL_SIZE not set: the knob at its default 4, and the tune --size-env that confirms it', async (t) => {
  const { code, out, err } = await withEnv({ ITERATIONS: '5000' }, () => cli('run', ...LIGHT, '--', process.execPath, server('pbkdf2')));
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  await assertGroupGone(result.target.pid);
  t.diagnostic(`${JSON.stringify(result.sizeKnob)} · ${result.recommendation.reasons.map((r) => r.id).join(', ')}`);
  assert.equal(result.sizeKnob.name, 'UV_THREADPOOL_SIZE');
  assert.equal(result.sizeKnob.value, 4);
  assert.equal(result.sizeKnob.unset, true);
  const reason = result.recommendation.reasons.find((r) => r.id === 'thread-knob');
  assert.ok(reason, JSON.stringify(result.recommendation.reasons));
  assert.equal(reason.figures.value, 4);
  const argv = result.recommendation.confirmWith.argv;
  assert.deepEqual(argv.slice(argv.indexOf('--size-env'), argv.indexOf('--size-env') + 2), ['--size-env', 'UV_THREADPOOL_SIZE']);
  assert.ok(argv.includes(String(reason.figures.trySize)) || argv[argv.indexOf('--sizes') + 1].split(',').includes(String(reason.figures.trySize)));
});

test('run -- pbkdf2 with UV_THREADPOOL_SIZE=1: the knob at 1, a larger pool to try where a core was idle, and its tune', async (t) => {
  // As above: enough pool work per request that the one pool thread is the limit, not the HTTP around it.
  const { code, out, err } = await withEnv({ ITERATIONS: '40000', UV_THREADPOOL_SIZE: '1' }, () => cli('run', ...SHORT, '--', process.execPath, server('pbkdf2')));
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  await assertGroupGone(result.target.pid);
  const reason = result.recommendation.reasons.find((r) => r.id === 'thread-knob');
  t.diagnostic(JSON.stringify(reason));
  assert.equal(result.sizeKnob.name, 'UV_THREADPOOL_SIZE');
  assert.equal(result.sizeKnob.value, 1);
  assert.ok(reason, JSON.stringify(result.recommendation.reasons));
  // With a core idle the pool is the limit and 2 is the size to try; on a machine others fill, the cores are, and 1 stays.
  assert.ok(['threadpool', 'cores'].includes(reason.figures.limit), JSON.stringify(reason));
  assert.equal(reason.figures.trySize, reason.figures.limit === 'threadpool' ? 2 : 1);
  const argv = result.recommendation.confirmWith.argv;
  assert.ok(argv[argv.indexOf('--sizes') + 1].split(',').includes('2'), argv.join(' '));
  assert.equal(argv[argv.indexOf('--size-env') + 1], 'UV_THREADPOOL_SIZE');
});
