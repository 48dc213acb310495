// A child that writes without newlines (a strategy, a diagnosed server) used to grow
// spawnbench by ~130 MB/s until V8 gave up ("Invalid string length"), with no summary.
// Now its lines are cut at a bound and its stderr tail is bounded in bytes: spawnbench's
// memory stays flat and the run ends with its summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { startSpawnbench } from '../helpers/spawnbench-process.js';
import { readBoundedLines, createStderrTail } from '../../src/runner/output-lines.js';
import { formatSummary } from '../../src/report/summary.js';
import { syntheticRun } from '../analysis/synthetic-runs.js';

const FIXTURE_STRATEGIES = fileURLToPath(new URL('../../fixtures/strategies/', import.meta.url));
const FLOODS = fileURLToPath(new URL('../../fixtures/servers/floods-output.js', import.meta.url));
/** spawnbench's own resident memory stays under this, MB (it is ~120 MB on a normal run; the flood reached 600+ MB before). */
const MAX_RSS_MB = 300;
// The runs last 2 s: an unbounded reader (readline, as before) passes MAX_RSS_MB within
// (300 - 120) / 130 ≈ 1.4 s of flood even at the slowest growth seen; on an idle machine it
// read 590-710 MB peaks at 2 s.

const rssMb = (pid) => {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))[1]) / 1024;
  } catch {
    return 0;
  }
};

const CASES = [
  { name: 'a strategy', args: ['run', '-s', 'floods-output', '-d', '2s', '-w', '0s', '-c', '2', '--no-dashboard'], summary: /Requests\s+[\d,]+ in/ },
  { name: 'a diagnosed server', args: ['diagnose', '-d', '2s', '-w', '0s', '-c', '2', '--no-dashboard', '--', process.execPath, FLOODS], summary: /Verdict|verdict/ },
];

for (const c of CASES) {
  test(`${c.name} writing without newlines: spawnbench's memory stays bounded, the summary prints`, async (t) => {
    // No --log-file: the log's own size is the user's choice; the memory is spawnbench's.
    const sb = startSpawnbench(c.args, { env: { SPAWNBENCH_STRATEGY_PATH: FIXTURE_STRATEGIES }, logFile: false });
    t.after(sb.removeLog);
    let peak = 0;
    const sampler = setInterval(() => { peak = Math.max(peak, rssMb(sb.child.pid)); }, 100);
    const { code } = await sb.exited;
    clearInterval(sampler);
    assert.ok(peak < MAX_RSS_MB, `peak RSS ${peak.toFixed(0)} MB`);
    assert.equal(code, 0, sb.err());
    assert.match(sb.out(), c.summary);
    assert.doesNotMatch(sb.err(), /internal error/);
  });
}

test('lines are cut at the bound, the rest of a cut line is dropped, CRLF and a last unterminated line are read', async () => {
  const input = new PassThrough();
  const lines = [];
  readBoundedLines(input, (line, { cut }) => lines.push([line, cut]), { maxBytes: 8 });
  input.write('short\r\n0123');
  input.write('456789abc');
  input.write('def\nnext\nend');
  input.end();
  await new Promise((r) => input.on('end', r));
  assert.deepEqual(lines, [['short', false], ['01234567', true], ['next', false], ['end', false]]);
});

test('the stderr tail is bounded in bytes and keeps the Error line above a long stack', () => {
  const tail = createStderrTail({ maxLines: 12, maxBytes: 200, maxFrames: 2 });
  tail.add('x'.repeat(1000));
  assert.ok(Buffer.byteLength(tail.text()) <= 200);
  const crash = createStderrTail();
  for (const line of ['file:///srv.js:3', "    throw new Error('boom');", '    ^', '', 'Error: boom']) crash.add(line);
  for (let i = 0; i < 15; i++) crash.add(`    at frame${i} (node:internal/x:${i}:1)`);
  crash.add('');
  crash.add('Node.js v20.20.2');
  const text = crash.text();
  assert.match(text, /^Error: boom$/m);
  assert.match(text, /… 13 more frames/);
  assert.ok(text.split('\n').length <= 12, text);
});

test('the stderr tail is shown as it is, so it holds no escape sequence, control or bidi character of the server\'s: a crash\'s FAILED line set the terminal\'s title and cleared it', () => {
  const tail = createStderrTail();
  tail.add('boom \u001b]0;PWNED\u0007\u001b[2J\u001b[31mred\u202eevil\u0000');
  tail.add('\tat x');
  assert.equal(tail.text(), 'boom redevil\n at x');
  const summary = formatSummary({ ...syntheticRun(), failures: [`'node esc.js' exited with code 3 during the run; its stderr ends:\n${tail.text()}`] });
  assert.doesNotMatch(summary, /[\u001b\u0007\u202e\u0000]/);
  assert.match(summary, /its stderr ends:\nboom redevil/);
});
