// The units of /proc's figures (clock ticks, page size) come from this process's
// auxiliary vector, the values getconf itself reads, without starting getconf.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { auxValues, procUnits } from '../../src/sample/proc.js';

test('clock ticks and page size from /proc/self/auxv are what getconf says', { skip: process.platform !== 'linux' && 'needs /proc (Linux)' }, () => {
  const getconf = (name) => Number(execFileSync('getconf', [name], { encoding: 'utf8' }));
  const aux = auxValues();
  assert.equal(aux.get(17n), getconf('CLK_TCK'), 'AT_CLKTCK');
  assert.equal(aux.get(6n), getconf('PAGESIZE'), 'AT_PAGESZ');
  assert.deepEqual(procUnits(), { ticksPerSec: getconf('CLK_TCK'), pageBytes: getconf('PAGESIZE') });
});
