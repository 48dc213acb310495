// bench:advice's figures: wrk's output read, a size's rounds into a median and spread,
// the value a recommendation advises on each kind of server, and the MET rule.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseWrk, summariseSize, advisedValue, judgeAdvice, noisySizes } from '../../bench/advice-figures.js';

const WRK = `Running 5s test @ http://127.0.0.1:40123/
  1 threads and 30 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency   410.21ms  120.02ms   1.20s    70.00%
    Req/Sec    75.10     20.33   120.00     65.00%
  366 requests in 5.01s, 30.74KB read
  Socket errors: connect 0, read 2, write 0, timeout 3
  Non-2xx or 3xx responses: 4
Requests/sec:     73.05
Transfer/sec:      6.13KB
`;

test('wrk: requests per second, responses, and socket errors and non-2xx answers as errors', () => {
  assert.deepEqual(parseWrk(WRK), { rps: 73.05, requests: 366, errors: 9 });
});

test('wrk: a clean run has no errors; output without Requests/sec is not a measurement', () => {
  const clean = WRK.split('\n').filter((l) => !/Socket errors|Non-2xx/.test(l)).join('\n');
  assert.deepEqual(parseWrk(clean), { rps: 73.05, requests: 366, errors: 0 });
  assert.equal(parseWrk('unable to connect to 127.0.0.1:1 Connection refused\n'), null);
});

test('a size: median and spread of its rounds; a round not measured is missing, not 0', () => {
  assert.deepEqual(summariseSize([{ rps: 10, errors: 1 }, null, { rps: 30, errors: 0 }, { rps: 20, errors: 2 }]), { median: 20, min: 10, max: 30, rounds: 3, errors: 3 });
  assert.deepEqual(summariseSize([null]), { median: null, min: null, max: null, rounds: 0, errors: 0 });
});

const threadKnob = (figures) => ({ id: 'thread-knob', figures: { name: 'UV_THREADPOOL_SIZE', value: 4, unset: true, ...figures } });

test('a threadpool server: the thread knob\'s value to try and its limit; another knob is not the one measured', () => {
  const rec = { size: null, confidence: 'medium', reasons: [{ id: 'main-has-room', figures: {} }, threadKnob({ trySize: 2, limit: 'cores' })] };
  assert.deepEqual(advisedValue('thread-knob', rec, 'UV_THREADPOOL_SIZE'), { value: 2, limit: 'cores', reason: 'thread-knob', knob: 'UV_THREADPOOL_SIZE' });
  const vips = { ...rec, reasons: [threadKnob({ name: 'VIPS_CONCURRENCY', trySize: 2, limit: 'cores' })] };
  assert.equal(advisedValue('thread-knob', vips, 'UV_THREADPOOL_SIZE').value, null);
  assert.equal(advisedValue('thread-knob', { ...rec, reasons: [] }, 'UV_THREADPOOL_SIZE').value, null);
});

test('a single process: the processes advised, or 1 where it is told one process is enough', () => {
  assert.deepEqual(advisedValue('processes', { size: 2, confidence: 'medium', reasons: [{ id: 'main-busy', figures: {} }, { id: 'more-processes', figures: {} }] }), { value: 2, limit: null, reason: 'more-processes', knob: null });
  assert.deepEqual(advisedValue('processes', { size: null, confidence: 'high', reasons: [{ id: 'main-has-room', figures: {} }, { id: 'one-process-enough', figures: {} }] }), { value: 1, limit: null, reason: 'one-process-enough', knob: null });
  assert.equal(advisedValue('processes', { size: null, confidence: null, reasons: [{ id: 'no-main-figures', figures: {} }] }).value, null);
});

test('a server with a workers knob: the size advised, else the knob kept', () => {
  assert.equal(advisedValue('workers', { size: 3, confidence: 'low', reasons: [{ id: 'size-up', figures: {} }], knob: { name: 'WORKERS', value: 2 } }).value, 3);
  assert.deepEqual(advisedValue('workers', { size: null, confidence: null, reasons: [], knob: { name: 'WORKERS', value: 2 } }), { value: 2, limit: null, reason: null, knob: 'WORKERS' });
});

// The thumbnail API, measured by hand: threadpool 1 → 167, 2 → 270, 3 → 285, 4 → 290 req/s.
const THUMBNAIL = [[1, 167], [2, 270], [3, 285], [4, 290]].map(([size, rps]) => ({ size, rps: { median: rps } }));

test('MET: within 5% of the truth\'s best; NOT MET below it, with the share and the best in the why', () => {
  assert.equal(judgeAdvice({ value: 3, limit: 'threadpool', reason: 'thread-knob', knob: 'UV_THREADPOOL_SIZE' }, THUMBNAIL).met, true);
  const two = judgeAdvice({ value: 2, limit: 'cores', reason: 'thread-knob', knob: 'UV_THREADPOOL_SIZE' }, THUMBNAIL);
  assert.equal(two.met, false);
  assert.equal(two.why, 'at 2: 93% of the best (4: 290 req/s)');
});

test('MET needs the kind of limit expected: the right size for the wrong reason is NOT MET', () => {
  // The login API: pool 1 → 9 req/s, 2, 3, 4 → 23; the cores are the limit.
  const login = [[1, 9], [2, 23], [3, 23], [4, 23]].map(([size, rps]) => ({ size, rps: { median: rps } }));
  assert.equal(judgeAdvice({ value: 2, limit: 'cores', reason: 'thread-knob', knob: 'UV_THREADPOOL_SIZE' }, login, { limit: 'cores' }).met, true);
  const wrongKind = judgeAdvice({ value: 4, limit: 'neither', reason: 'thread-knob', knob: 'UV_THREADPOOL_SIZE' }, login, { limit: 'cores' });
  assert.equal(wrongKind.met, false);
  assert.match(wrongKind.why, /limit named is neither, not cores/);
  // The single process: 1 process 73 req/s, 2 → 155, 3 → 157.
  const single = [[1, 73], [2, 155], [3, 157]].map(([size, rps]) => ({ size, rps: { median: rps } }));
  assert.equal(judgeAdvice({ value: 2, limit: null, reason: 'more-processes', knob: null }, single, { reason: 'more-processes' }).met, true);
  assert.match(judgeAdvice({ value: 2, limit: null, reason: 'own-pool-would-help', knob: null }, single, { reason: 'more-processes' }).why, /reason is own-pool-would-help, not more-processes/);
  assert.match(judgeAdvice({ value: 1, limit: null, reason: 'one-process-enough', knob: null }, single, { reason: 'more-processes' }).why, /^at 1: 46% of the best \(3: 157 req\/s\)$/);
});

test('no value advised, or one the truth did not measure, is NOT MET and says so', () => {
  assert.deepEqual(judgeAdvice({ value: null, limit: null, reason: null, knob: null }, THUMBNAIL), { met: false, why: 'no value advised', check: null });
  // A run too short to advise: even with a thread-knob reason or a size in it, nothing to judge, and the why says so.
  const short = advisedValue('thread-knob', { size: null, confidence: null, reasons: [{ id: 'too-short', figures: {} }, threadKnob({ trySize: 2, limit: 'cores' })] }, 'UV_THREADPOOL_SIZE');
  assert.deepEqual(short, { value: null, limit: null, reason: 'too-short', knob: null });
  assert.match(judgeAdvice(short, THUMBNAIL).why, /^the run was too short to advise/);
  assert.match(judgeAdvice({ value: null, limit: 'cores', reason: 'thread-knob', knob: 'VIPS_CONCURRENCY' }, THUMBNAIL).why, /named VIPS_CONCURRENCY, not the knob measured/);
  assert.match(judgeAdvice({ value: 8, limit: null, reason: null, knob: null }, THUMBNAIL).why, /8 was not measured/);
});

test('noisy sizes: rounds spread wider than 10% of their median (twice the 5% band); a size not measured is not one', () => {
  const truth = [
    { label: '1', rps: { median: 100, min: 96, max: 105 } }, // 9%: steady enough
    { label: '2', rps: { median: 100, min: 90, max: 101 } }, // 11%
    { label: '3', rps: { median: null, min: null, max: null } },
  ];
  assert.deepEqual(noisySizes(truth), ['2']);
});
