// The small parts of diagnose: .cpuprofile self time, port mentions in output,
// the GC windows, and the listening ports of a process group.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { topSelfTime } from '../../src/diagnose/cpu-profile.js';
import { createPortHints } from '../../src/runner/port-hints.js';
import { createGcWindows } from '../../src/diagnose/gc-windows.js';
import { listeningPorts } from '../../src/runner/listening-ports.js';
import { waitFor } from '../helpers/harness.js';
import { createSchedMeters } from '../../src/diagnose/schedstat.js';

const frame = (functionName, url = '', lineNumber = -1) => ({ functionName, url, lineNumber, columnNumber: 0, scriptId: '0' });

test('topSelfTime: each sample lasts until the next one; idle is left out; lines count from 1', () => {
  const profile = {
    nodes: [
      { id: 1, callFrame: frame('(root)') },
      { id: 2, callFrame: frame('(idle)') },
      { id: 3, callFrame: frame('hot', 'file:///srv/a.js', 9) },
      { id: 4, callFrame: frame('warm', 'file:///srv/a.js', 20) },
      { id: 5, callFrame: frame('', 'file:///srv/b.js', 0) },
    ],
    startTime: 0,
    // samples at t = 0, 1000, 4000, 5000, 9000 µs; endTime 10000
    samples: [3, 4, 3, 2, 5],
    timeDeltas: [0, 1000, 3000, 1000, 4000],
    endTime: 10_000,
  };
  const { busyMs, functions } = topSelfTime(profile);
  assert.equal(busyMs, 6);
  assert.deepEqual(functions.map((f) => [f.name, f.selfMs, f.line]), [['warm', 3, 21], ['hot', 2, 10], ['(anonymous)', 1, 1]]);
  assert.equal(functions[0].share, 0.5);
  assert.equal(topSelfTime(profile, 1).functions.length, 1);
});

test('port hints: ports in the usual "listening" lines, in order, no repeats', () => {
  const hints = createPortHints();
  for (const line of [
    'Server listening on http://localhost:4000/',
    'listening at 0.0.0.0:4000',
    'API ready on port 8080',
    'PORT=9090',
    'started in 1234 ms, version 1.2.3',
    '[::]:7000 open',
  ]) hints.add(line);
  assert.deepEqual(hints.ports(), [4000, 8080, 9090, 7000]);
});

test('GC windows: share of wall time and the worst one-second window per thread', () => {
  const gc = createGcWindows();
  const report = (t, gcMs, extra = {}) => gc.add({ pid: 5, threadId: 0, isMainThread: true, t, intervalMs: 250, gcMs, ...extra });
  [10, 20, 30, 40].forEach((ms, i) => report(10_000 + i * 250, ms)); // one second: 100 ms
  [5, 5, 5, 5].forEach((ms, i) => report(11_000 + i * 250, ms));
  report(11_000, 50, { isMainThread: false, threadId: 2 });
  const result = gc.result();
  assert.deepEqual(result.get('5'), { gcFraction: 120 / 2000, gcPeakMsPerSec: 100 });
  assert.deepEqual(result.get('5/2'), { gcFraction: 50 / 250, gcPeakMsPerSec: 50 });
});

let child;
after(async () => {
  if (child && child.exitCode === null) {
    child.kill('SIGKILL');
    await once(child, 'exit');
  }
});

test('listeningPorts: the ports a process group listens on, from /proc', async () => {
  const script = "require('net').createServer().listen(0,'127.0.0.1',function(){console.log(this.address().port)})";
  child = spawn(process.execPath, ['-e', script], { detached: true, stdio: ['ignore', 'pipe', 'ignore'] });
  const [data] = await once(child.stdout, 'data');
  const port = Number(String(data).trim());
  await waitFor(() => listeningPorts(child.pid).includes(port), { what: `port ${port} in the listening ports` });
  assert.deepEqual(listeningPorts(child.pid), [port]);
  assert.deepEqual(listeningPorts(2 ** 22 + 1), []);
  child.kill('SIGKILL');
  await once(child, 'exit');
});

test('the main thread measured is the busiest of the server\'s, never a launcher\'s, however long it waited for a core', { skip: process.platform !== 'linux' && 'schedstat is Linux /proc' }, () => {
  const meters = createSchedMeters();
  meters.watch(process.pid);
  const end = Date.now() + 50;
  while (Date.now() < end); // this thread on a CPU: the busiest
  assert.equal(meters.take()?.pid, process.pid);
  assert.equal(meters.take(new Set([process.pid])), null, 'a launcher is left out');
});
