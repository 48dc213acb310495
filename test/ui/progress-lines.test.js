import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { attachProgressLines, formatProgressLine } from '../../src/ui/progress-lines.js';
import { makePlan, makeTick } from './fixtures.js';

/** Any ANSI escape: colour, cursor movement or erase. */
const ANSI = /\u001B\[/;

describe('progress lines without a TTY', () => {
  it('formats one plain line per tick', () => {
    assert.equal(formatProgressLine(makeTick()), 'measure 4s/10s  683 rps  p99 48 ms  errors 0  2,720 requests');
    assert.equal(formatProgressLine(makeTick({ phase: 'warmup', second: 1 })), 'warmup 1s/2s  683 rps  p99 48 ms  errors 0');
  });

  it('writes phases and at most one tick line every 2 s, with no ANSI escapes, and detaches', () => {
    const run = new EventEmitter();
    let clock = 0;
    const written = [];
    const detach = attachProgressLines(run, { write: (text) => written.push(text) }, { now: () => clock });
    run.emit('start', { plan: makePlan(), machine: {} });
    run.emit('phase', { phase: 'booting' });
    run.emit('phase', { phase: 'warmup' });
    for (let second = 1; second <= 2; second++) {
      clock = second * 1000;
      run.emit('tick', makeTick({ phase: 'warmup', second }));
    }
    run.emit('phase', { phase: 'measure' });
    for (let second = 1; second <= 10; second++) {
      clock = 2000 + second * 1000;
      run.emit('tick', makeTick({ second, errors: second > 5 }));
    }
    run.emit('phase', { phase: 'stopping' });
    run.emit('tune-step', { size: 2, policy: 'p2c', rps: 1250, p99Ms: 29, errors: 0 });
    run.emit('tune-step', { size: 64, policy: 'p2c', rps: 0, p99Ms: null, errors: 0, failed: 'spawn EAGAIN' });
    detach();
    run.emit('tick', makeTick({ second: 11 }));
    const lines = written.join('').split('\n').filter(Boolean);
    assert.deepEqual(lines, [
      'spawnbench baseline on node · workload echo · 30 connections · 10s + 2s warm-up',
      'booting…',
      'warmup 1s/2s  683 rps  p99 48 ms  errors 0',
      'measure 1s/10s  683 rps  p99 48 ms  errors 0  680 requests',
      'measure 3s/10s  683 rps  p99 48 ms  errors 0  2,040 requests',
      'measure 5s/10s  683 rps  p99 48 ms  errors 0  3,400 requests',
      'measure 7s/10s  683 rps  p99 48 ms  errors 12  4,760 requests',
      'measure 9s/10s  683 rps  p99 48 ms  errors 12  6,120 requests',
      'stopping…',
      'tune pool 2 p2c: 1,250 rps  p99 29 ms  errors 0',
      'tune pool 64 p2c: failed (spawn EAGAIN)',
    ]);
    assert.doesNotMatch(written.join(''), ANSI);
    assert.equal(run.listenerCount('tick'), 0);
  });
});
