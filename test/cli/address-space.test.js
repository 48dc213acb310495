// A low address-space limit (ulimit -v): run died with a V8 "Fatal process OOM" trap (exit 133) or a
// segmentation fault (139) and no word of why. Now: one line saying what `ulimit -v` to set, exit 2.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { BIN } from '../helpers/spawnbench-process.js';
import { readAddressSpaceLimit, addressSpaceRefusal } from '../../src/runner/address-space-limit.js';
import { MIN_ADDRESS_SPACE_BYTES } from '../../src/base/thresholds.js';

const withLimit = (kb, args) => spawnSync('/bin/sh', ['-c', `ulimit -v ${kb} && exec "$@"`, 'sh', process.execPath, BIN, ...args], { encoding: 'utf8' });

test('ulimit -v 1000000 (Node itself still starts): spawnbench run says what to set, in one line, exit 2', () => {
  const result = withLimit(1_000_000, ['run', '-d', '1s', '--url', 'http://127.0.0.1:1/']);
  assert.equal(result.status, 2, result.stderr);
  assert.equal(result.stdout, '');
  assert.match(result.stderr, /^spawnbench: the address-space limit is 1000000 kB \(ulimit -v\) and spawnbench and the server it starts need at least 2097152 kB; run `ulimit -v unlimited` .*\n$/);
});

test(`ulimit -v ${MIN_ADDRESS_SPACE_BYTES / 1024}: commands run`, () => {
  const result = withLimit(MIN_ADDRESS_SPACE_BYTES / 1024, ['list']);
  assert.equal(result.status, 0, result.stderr);
});

test('the limit is read from /proc/self/limits, in bytes; unlimited or unreadable is no refusal', () => {
  const text = 'Limit                     Soft Limit           Hard Limit           Units\nMax address space         1024000000           unlimited            bytes\n';
  assert.equal(readAddressSpaceLimit(text), 1_024_000_000);
  assert.equal(readAddressSpaceLimit('Max address space         unlimited            unlimited            bytes\n'), Infinity);
  assert.equal(addressSpaceRefusal(Infinity), null);
  assert.equal(addressSpaceRefusal(null), null);
  assert.equal(addressSpaceRefusal(MIN_ADDRESS_SPACE_BYTES), null);
  assert.match(addressSpaceRefusal(1024 ** 3), /limit is 1048576 kB/);
});
