// test: run alone (its verdicts read the whole machine's CPU: another test file's servers
// would be other CPU users, and fill the cores a full threadpool leaves idle)
// Work on libuv's threadpool end to end (fixtures/servers/pbkdf2.js: crypto.pbkdf2 per
// request, the event loop nearly idle): diagnose names the threads and the cores they used,
// never "wait on I/O or a downstream". `run --`'s UV_THREADPOOL_SIZE advice, which holds on
// shared cores, is in threads-run.test.js. The opposite case, a real wait on a downstream, stays
// "downstream-wait" (test/diagnose/fixtures.test.js). Every server's group is proven gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cli, fixtureServer as server } from '../helpers/harness.js';
import { assertGroupGone, withEnv } from './helpers.js';
import { faultOf, figuresOf } from './fault.js';

/** diagnose reads its verdicts from 1.5 s (6 samples at 250 ms); `run` keeps 2 s, the least its advice takes beyond "too short". */
const DIAGNOSE = ['--duration', '1500ms', '--warmup', '300ms', '--connections', '16', '--json'];

async function diagnosePbkdf2(t, env) {
  // 20,000 iterations: ~17 ms of hashing per request on the pool, far more than the loop's share.
  const { code, out, err } = await withEnv({ ITERATIONS: '20000', ...env }, () => cli('diagnose', ...DIAGNOSE, '--', process.execPath, server('pbkdf2')));
  assert.equal(code, 0, err);
  const result = JSON.parse(out);
  await assertGroupGone(result.target.pid);
  t.diagnostic(figuresOf(result));
  return result;
}

const saysDownstream = (f) => /downstream|wait on I\/O/.test([f.title, ...f.evidence, ...f.next].join('\n'));

test('pbkdf2 on the default pool of 4: the threads fill both cores, named with the cores they used', async (t) => {
  const result = await diagnosePbkdf2(t, {});
  const verdict = faultOf(result);
  assert.equal(verdict.id, 'threads-cores-full', figuresOf(result));
  assert.equal(verdict.figures.poolThreads, 4);
  // Its share of the server's CPU, not its cores: how many cores it gets is the machine's load.
  assert.ok(verdict.figures.byKind.threadpool > 0 && verdict.figures.share >= 0.5, figuresOf(result));
  assert.match(verdict.title, /libuv threadpool \d\.\d of 2 cores/);
  assert.match(verdict.next.join('\n'), /more threads will not help/);
  assert.ok(![result.diagnosis.verdict, ...result.diagnosis.findings].some((f) => f.id === 'downstream-wait' || saysDownstream(f)), figuresOf(result));
  const main = result.samples.processes.find((p) => p.role === 'main');
  assert.equal(main.summary.otherThreads.kinds.threadpool.count, 4);
});

test('pbkdf2 with UV_THREADPOOL_SIZE=1: its one pool thread is the limit; with a core idle, raise it', async (t) => {
  // 40,000 iterations (~12 ms on the pool thread per request): the one thread, not the main thread's HTTP
  // work (~1 ms a request), is the limit however the run is scheduled (at 20,000 a full run once read it 64% busy).
  const result = await diagnosePbkdf2(t, { UV_THREADPOOL_SIZE: '1', ITERATIONS: '40000' });
  const verdict = faultOf(result);
  // With the machine to itself the second core stays idle and the pool is the limit; on a machine that
  // others fill, the cores are: both are threads verdicts that name the one pool thread, neither a downstream.
  assert.ok(['threadpool-full', 'threads-cores-full'].includes(verdict.id), figuresOf(result));
  assert.equal(verdict.figures.poolThreads, 1);
  assert.equal(verdict.figures.poolSize, 1);
  if (verdict.id === 'threadpool-full') {
    assert.equal(verdict.figures.trySize, 2, figuresOf(result));
    assert.match(verdict.next.join('\n'), /raise UV_THREADPOOL_SIZE to 2/);
  }
  assert.ok(![result.diagnosis.verdict, ...result.diagnosis.findings].some((f) => f.id === 'downstream-wait' || saysDownstream(f)), figuresOf(result));
});
