// test: run alone (its verdicts read the whole machine's CPU: another test file's servers
// would be "other CPU users" and turn a verdict into cpu-starved)
// diagnose --url: a server that already runs (started here, on a free port), seen
// from outside with --pid: its CPU from /proc, and the report says what could not be seen
// without the probe. Without --pid only the latency shape is read, which no other program's
// CPU changes: that case shares the machine, in downstream-verdicts.test.js.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { processesMatching } from '../helpers/processes.js';
import { cli, startFixtureServer } from '../helpers/harness.js';
import { faultOf, figuresOf } from './fault.js';

const SERVERS = ['cpu-burn', 'slow-downstream'];
const servers = {};

before(async () => {
  // 20 ms a request, not 5: the server's own HTTP work and the generator's turn between requests are then a
  // small part of each request, so the CPU-burning main thread is runnable nearly all the time (at 5 ms, a
  // fresh-clone CI run read it runnable 88% beside 0.3 cores of other processes: below the 90% of cpu-bound).
  for (const name of SERVERS) servers[name] = await startFixtureServer(name, name === 'cpu-burn' ? { BURN_MS: '20' } : {});
  // The verdicts read the whole machine's CPU: the file before this one in the run-alone phase can
  // leave processes winding down (two full runs read 0.44 cores of other processes here and called
  // the CPU-bound server healthy). Wait, up to 20 s, until the machine is quiet.
  await untilQuiet();
});

/** Busy cores over 500 ms, from /proc/stat (all CPUs' user, nice, system, irq, softirq, steal ticks). */
async function busyCores() {
  const read = () => {
    const [, ...fields] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    const idle = fields[3] + fields[4];
    return { idle, total: fields.reduce((a, b) => a + b, 0) };
  };
  const before = read();
  await new Promise((resolve) => setTimeout(resolve, 500));
  const after = read();
  const total = after.total - before.total;
  return total > 0 ? (availableParallelism() * (total - (after.idle - before.idle))) / total : 0;
}

async function untilQuiet() {
  const until = Date.now() + 20_000;
  while (Date.now() < until && (await busyCores()) > 0.25);
}

after(async () => {
  for (const { stop, file } of Object.values(servers)) {
    await stop();
    assert.equal(processesMatching(file).length, 0);
  }
});

async function diagnoseUrl(name, ...extra) {
  const { code, out, err } = await cli('diagnose', '--url', servers[name].url, '--duration', '1500ms', '--warmup', '300ms', '--json', ...extra);
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

/**
 * The same over 3 s: the CPU-burning server's main thread read runnable 88% over 1.5 s once in a fresh-clone
 * CI run (healthy, below cpu-bound's 90%), where the sampler's first and last intervals weigh most.
 */
async function diagnoseUrlLonger(name, ...extra) {
  const { code, out, err } = await cli('diagnose', '--url', servers[name].url, '--duration', '3s', '--warmup', '300ms', '--json', ...extra);
  assert.equal(code, 0, err);
  return JSON.parse(out);
}

test('--url with --pid: a CPU-burning server is CPU-bound from outside, the probe figures are listed as not seen', async (t) => {
  const result = await diagnoseUrlLonger('cpu-burn', '--pid', String(servers['cpu-burn'].child.pid));
  t.diagnostic(figuresOf(result));
  assert.equal(result.target.kind, 'url');
  const fault = faultOf(result);
  assert.equal(fault.id, 'cpu-bound', figuresOf(result));
  assert.match(fault.evidence.join('\n'), /cannot tell JavaScript from time blocked in spawn or GC/);
  assert.match(result.diagnosis.notSeen.join('\n'), /no probe in the server/);
  assert.ok(servers['cpu-burn'].child.exitCode === null, 'a server diagnose did not start is left running');
});

test('--url with --pid of an idle server: waiting on a downstream', async () => {
  const result = await diagnoseUrl('slow-downstream', '--pid', String(servers['slow-downstream'].child.pid));
  assert.equal(result.diagnosis.verdict.id, 'downstream-wait', JSON.stringify(result.diagnosis));
});
