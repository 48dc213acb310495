// --assert, --against and --html through the CLI on real runs: exit 3 with the
// failing line, exit 0 when every assertion holds, bad flags refused before
// anything starts, nothing left running.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { processesInGroup } from '../helpers/processes.js';
import { waitFor, cli } from '../helpers/harness.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-gates-'));
after(() => rmSync(dir, { recursive: true, force: true }));


// An open loop at a low rate: the gates and the comparison are checked, not a saturated server's figures
// (p99<1ms still fails: each request forks, whose synchronous part alone takes over a millisecond).
// No warm-up and 2 s: every request the server answers is measured, so a second-long stall of a
// starved server (4 test files at a time) cannot leave the measured phase empty, as it once did
// behind a 200 ms warm-up (requests due in the warm-up and answered after it count as warm-up).
const RUN = ['run', '--strategy', 'baseline', '--duration', '2s', '--warmup', '0', '--connections', '4', '--rate', '20'];

async function assertGone(file) {
  const { strategy } = JSON.parse(readFileSync(file, 'utf8'));
  assert.ok(strategy.pid > 0);
  await waitFor(() => processesInGroup(strategy.pid).length === 0, { what: `left running in group ${strategy.pid}` });
  assert.equal(trackedGroupCount(), 0);
}

test('a real run: p99<1ms fails with exit 3 and its line after the summary; errors=0 alone passes with exit 0', async () => {
  const first = join(dir, 'first.json');
  const html = join(dir, 'first.html');
  const failing = await cli(...RUN, '--assert', 'p99<1ms', '--assert', 'errors=0', '--out', first, '--html', html);
  assert.equal(failing.code, 3, failing.err);
  assert.match(failing.out, /^Errors {5}none$/m);
  assert.match(failing.out, /\n\nassert p99<1ms {2}FAIL {2}measured [\d.,]+ ms\nassert errors=0 {2}pass {2}measured 0\n1 of 2 assertions failed \(exit 3\)\n$/);
  const saved = JSON.parse(readFileSync(first, 'utf8'));
  assert.deepEqual(saved.assertions.map((o) => [o.expr, o.pass]), [['p99<1ms', false], ['errors=0', true]]);
  // The HTML is written even when an assertion fails: it is what a reader of a failed CI job opens.
  const page = readFileSync(html, 'utf8');
  assert.match(page, /^<!doctype html>/);
  assert.match(page, /aria-label="Throughput per second"/);
  assert.match(page, /<h2>Assertions<\/h2>/);
  await assertGone(first);

  const second = join(dir, 'second.json');
  const passing = await cli(...RUN, '--assert', 'errors=0', '--against', first, '--out', second);
  assert.equal(passing.code, 0, passing.err);
  assert.match(passing.out, /\nAgainst .*first\.json \(\d{4}-\d\d-\d\d \d\d:\d\d UTC\): /);
  assert.match(passing.out, /^ {2}req\/s +[\d,]+ → [\d,]+ /m);
  assert.match(passing.out, /\n\nassert errors=0 {2}pass {2}measured 0\n$/);
  await assertGone(second);

  // A saved result is gated and compared the same way, without running anything.
  const again = await cli('report', second, '--against', first, '--assert', 'rps-change>-100%', '--json');
  assert.equal(again.code, 0, again.err);
  const json = JSON.parse(again.out);
  assert.equal(json.against.deltas.length, 7);
  assert.equal(json.assertions[0].pass, true);
  assert.match(again.err, /^\nAgainst /, 'with --json the lines go to stderr');

  const fromFile = join(dir, 'again.html');
  const rendered = await cli('report', second, '--html', fromFile);
  assert.equal(rendered.code, 0, rendered.err);
  assert.match(readFileSync(fromFile, 'utf8'), /aria-label="Latency distribution \(HDR histogram\)"/);
});

test('bad --assert, --against and --html are refused before anything starts, exit 2 naming the flag', async () => {
  const cases = [
    [['--assert', 'p99<<1ms'], /^spawnbench: --assert 'p99<<1ms': not an assertion/],
    [['--assert', 'rps-change>-5%'], /^spawnbench: --assert 'rps-change>-5%' compares with a baseline: add --against <old\.json>/],
    [['--against', join(dir, 'missing.json')], /^spawnbench: --against cannot read .*missing\.json \(ENOENT\)/],
    [['--html', join(dir, 'no-such-folder', 'r.html')], /^spawnbench: --html .*no-such-folder\/r\.html: cannot write there \(no such file or directory\)/],
    [['--html', dir], /^spawnbench: --html .* is a directory; give a file path, like --html .*report\.html$/m],
  ];
  for (const [args, message] of cases) {
    const r = await cli(...RUN, ...args);
    assert.equal(r.code, 2, args.join(' '));
    assert.match(r.err, message);
    assert.equal(r.err.trim().split('\n').length, 1);
    assert.equal(r.out, '');
  }
  const runAgainstCompare = await cli(...RUN, '--against', new URL('./fixtures/compare.json', import.meta.url).pathname);
  assert.equal(runAgainstCompare.code, 2);
  assert.match(runAgainstCompare.err, /--against .*compare\.json holds a compare result; a run compares with a file written by run --out or diagnose --out/);
  const compare = await cli('compare', '--strategies', 'baseline', '--assert', 'elu<0.9');
  assert.equal(compare.code, 2);
  assert.match(compare.err, /compare does not measure elu; it can assert p50, p99, rps, errors/);
  // A gate on a probe figure with no probe to read it failed only after the whole run.
  const noProbe = await cli(...RUN, '--no-probe', '--assert', 'busy<0.9');
  assert.deepEqual([noProbe.code, noProbe.err], [2, "spawnbench: --assert 'busy<0.9' needs the in-process probe, which --no-probe turns off: drop --no-probe, or this gate\n"]);
  const outside = await cli('run', '--url', 'http://127.0.0.1:9/', '-d', '1s', '--assert', 'elu<0.9');
  assert.equal(outside.code, 2);
  assert.match(outside.err, /^spawnbench: --assert 'elu<0\.9' needs the in-process probe, which a server measured from outside \(--url\) does not have: start it under spawnbench/);
  assert.equal(existsSync(join(dir, 'no-such-folder')), false);
  assert.equal(trackedGroupCount(), 0);
});

test('a saved compare against itself: every row within noise, rps-change gates pass row by row', async () => {
  const file = new URL('./fixtures/compare.json', import.meta.url).pathname;
  const r = await cli('report', file, '--against', file, '--assert', 'rps-change>=0%', '--assert', 'p99-change<=0%');
  assert.equal(r.code, 0, r.err);
  assert.match(r.out, /\nAgainst .*compare\.json \(.*\): no change beyond the noise\n {2}baseline · echo\n {4}req\/s /);
  assert.match(r.out, /assert rps-change>=0% {2}pass {2}baseline · echo: {2}measured ±?0\.0%\nassert rps-change>=0% {2}pass {2}fork-pool · echo: /);
  const html = join(dir, 'compare.html');
  assert.equal((await cli('report', file, '--against', file, '--html', html)).code, 0);
  assert.match(readFileSync(html, 'utf8'), /<h2>Against the baseline<\/h2>.*<th>strategy<\/th><th class="text">workload<\/th>/s);
});
