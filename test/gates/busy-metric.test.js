// The `busy` metric (issue 36): --assert 'elu<…' reads the busiest thread's ELU, which a
// piscina thread waiting for work in Atomics.wait puts at 1.00; `busy` reads each thread's
// busy share (its CPU time where ELU counted waiting, src/sample/thread-busy.js), so a
// pool at rest passes it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAssertions } from '../../src/plan/assert-expr.js';
import { gateFigures, evaluateAssertions } from '../../src/analysis/assert-evaluate.js';
import { measureMetrics } from '../../src/analysis/metrics.js';
import { formatAssertions } from '../../src/report/assert-text.js';
import { processesInGroup } from '../helpers/processes.js';
import { cli, waitFor, fixtureServer } from '../helpers/harness.js';

const load = { requests: 200, rps: 20, durationMs: 10000, errors: { total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0, tls: 0 }, latency: { p50Ms: 3, p90Ms: 4, p99Ms: 5, p999Ms: 6, maxMs: 7, meanMs: 3 } };

/** A piscina pool at rest: its main thread 5% busy, two threads at ELU 1.00 waiting in Atomics.wait. */
const pool = {
  kind: 'run',
  load,
  samples: {
    processes: [
      { key: 'main', label: 'main', role: 'main', summary: { elu: 0.05, busy: 0.05, busyFrom: 'elu' } },
      { key: 't1', label: 'thread 1', role: 'thread', summary: { elu: 1, busy: 0.06, busyFrom: 'cpu' } },
      { key: 't2', label: 'thread 2', role: 'thread', summary: { elu: 1, busy: 0.01, busyFrom: 'cpu' } },
    ],
  },
};

test('busy is the busiest thread\'s busy share: a pool waiting in Atomics.wait passes busy<50%, fails elu<0.9', () => {
  const out = evaluateAssertions(parseAssertions(['elu<0.9', 'busy<50%', 'busy<0.05']), gateFigures(pool));
  assert.deepEqual(out.map((o) => [o.expr, o.pass, o.measured, o.process]), [
    ['elu<0.9', false, 1, 'thread 1'],
    ['busy<50%', true, 0.06, 'thread 1'],
    ['busy<0.05', false, 0.06, 'thread 1'],
  ]);
  assert.match(formatAssertions(out), /^assert busy<50% {2}pass {2}measured 6\.0% \(busiest thread: thread 1\)$/m);
  const busy = measureMetrics(pool).find((m) => m.id === 'busy');
  assert.deepEqual(busy, { id: 'busy', value: 0.06, unit: 'fraction', better: 'lower', format: 'percent', process: 'thread 1' });
});

test('without the probe, busy is not measured and its gate fails saying so', () => {
  const [o] = evaluateAssertions(parseAssertions(['busy<0.9']), gateFigures({ kind: 'run', load, samples: { processes: [{ key: 'main', label: 'main', role: 'main', summary: {} }] } }));
  assert.equal(o.pass, false);
  assert.match(formatAssertions([o]), /not measured \(needs the in-process probe/);
});

test('run on the piscina fixture: elu<0.9 fails on a thread waiting for work, busy<0.9 passes; nothing left running', async () => {
  const { code, out, err } = await cli('run', '--duration', '2s', '--warmup', '500ms', '--rate', '20', '-c', '2', '--json',
    '--assert', 'elu<0.9', '--assert', 'busy<0.9', '--', process.execPath, fixtureServer('piscina-sha'));
  const result = JSON.parse(out);
  await waitFor(() => processesInGroup(result.target.pid).length === 0, { what: () => `group ${result.target.pid} to empty` });
  assert.equal(code, 3, err);
  const [elu, busy] = result.assertions;
  assert.equal(elu.pass, false, `elu ${elu.measured} (${elu.process})`);
  assert.equal(busy.pass, true, `busy ${busy.measured} (${busy.process})`);
  assert.match(err, /^assert busy<0\.9 {2}pass {2}measured [\d.]+% \(busiest thread: /m);
});
