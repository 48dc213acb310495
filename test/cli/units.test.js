import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseDuration, parseInteger, parsePositiveNumber, parseIntegerList, formatDuration, formatInteger } from '../../src/base/units.js';
import { splitCommand } from '../../src/base/workloads.js';
import { UsageError } from '../../src/base/errors.js';

test('durations accept ms, s, m and bare seconds', () => {
  assert.equal(parseDuration('500ms', '--duration'), 500);
  assert.equal(parseDuration('10s', '--duration'), 10_000);
  assert.equal(parseDuration('1m', '--duration'), 60_000);
  assert.equal(parseDuration('1.5s', '--duration'), 1500);
  assert.equal(parseDuration('3', '--duration'), 3000);
  assert.equal(parseDuration('0s', '--warmup', { allowZero: true }), 0);
});

test("a number is the API's typed duration: milliseconds, checked like text", () => {
  assert.equal(parseDuration(5000, '--duration'), parseDuration('5s', '--duration'));
  assert.equal(parseDuration(0, '--warmup', { allowZero: true }), 0);
  assert.throws(() => parseDuration(0, '--duration'), /--duration must be more than zero/);
  assert.throws(() => parseDuration(-5, '--duration'), /--duration '-5' is not a duration/);
  assert.throws(() => parseDuration(Number.NaN, '--duration'), /is not a duration/);
});

test('bad durations name the flag and say what to write', () => {
  for (const bad of ['10x', 'abc', '-1s', '', '1 0s']) {
    assert.throws(() => parseDuration(bad, '--duration'), (e) => e instanceof UsageError && e.message.startsWith('--duration') && /10s/.test(e.message), bad);
  }
  assert.throws(() => parseDuration('0s', '--duration'), /--duration must be more than zero/);
});

test('integers: whole, positive, bounded', () => {
  assert.equal(parseInteger('30', '--connections'), 30);
  assert.throws(() => parseInteger('0', '--connections'), /--connections must be at least 1/);
  assert.throws(() => parseInteger('-3', '--connections'), /--connections must be at least 1/);
  assert.throws(() => parseInteger('2.5', '--connections'), /--connections '2.5' is not a whole number/);
  assert.throws(() => parseInteger('ten', '--connections'), /not a whole number/);
  assert.throws(() => parseInteger('300', '--pool-size', { max: 256 }), /at most 256/);
  // A whole number in exponent form is one: -c 1e6 was "not a whole number" rather than over the cap.
  assert.equal(parseInteger('1e3', '--connections'), 1000);
  assert.equal(parseInteger('2.5E3', '--connections'), 2500);
  assert.throws(() => parseInteger('1e6', '--connections', { max: 10_000 }), /--connections must be at most 10000, got 1000000/);
  for (const bad of ['1e-3', '1.5e0', '0x10', '1e400', 'e3']) assert.throws(() => parseInteger(bad, '--connections'), /not a whole number/, bad);
});

test('rates and lists', () => {
  assert.equal(parsePositiveNumber('50', '--rate'), 50);
  assert.equal(parsePositiveNumber('0.5', '--rate'), 0.5);
  assert.throws(() => parsePositiveNumber('0', '--rate'), /--rate must be more than zero/);
  assert.throws(() => parsePositiveNumber('fast', '--rate'), /--rate 'fast' is not a number/);
  assert.deepEqual(parseIntegerList('8,1, 2,4,2', '--sizes'), [1, 2, 4, 8]);
  assert.throws(() => parseIntegerList('1,x', '--sizes'), /--sizes 'x'/);
});

test('formatDuration round-trips the usual values', () => {
  assert.equal(formatDuration(500), '500ms');
  assert.equal(formatDuration(10_000), '10s');
  assert.equal(formatDuration(120_000), '2m');
});

test('workload commands split into argv without a shell', () => {
  assert.deepEqual(splitCommand('echo hi'), ['echo', 'hi']);
  assert.deepEqual(splitCommand(`printf "%s\\n" 'a b'  c\\ d`), ['printf', '%s\\n', 'a b', 'c d']);
  assert.deepEqual(splitCommand('ls ""'), ['ls', '']);
  assert.deepEqual(splitCommand('echo $HOME | wc'), ['echo', '$HOME', '|', 'wc']);
  assert.throws(() => splitCommand('echo "open'), /unclosed " quote/);
});

test('formatInteger writes what Intl en-US writes with no fraction digits, without making one', () => {
  const intl = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  const values = [0, 1, -1, 999, 1000, -1000, 12345.6, 2.5, -2.5, 0.5, 10.5, 999_999.5, 1_234_567.49, 1e15];
  for (let i = 0; i < 2000; i++) values.push((i % 2 ? -1 : 1) * (i * 7919.37) ** 1.3);
  for (const n of values) assert.equal(formatInteger(n), intl.format(n), String(n));
  // Intl writes "-0" for a negative that rounds to zero; a report says 0.
  assert.equal(formatInteger(-0.4), '0');
});
