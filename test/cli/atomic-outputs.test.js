// --out, --html and --log-file are written whole or not at all (src/output/atomic-file.js): a write
// that fails midway used to leave a --against baseline as 8 KB of cut JSON. The failure is
// real, not simulated: spawnbench runs under `prlimit --fsize` (RLIMIT_FSIZE), so the kernel
// refuses its writes past that size with EFBIG, midway through each file.
// Needs prlimit (util-linux); skips saying so when it is not installed.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli.js';
import { openAtomicFile } from '../../src/output/atomic-file.js';
import { fakeIo } from '../helpers/io.js';
import { BIN, findOnPath, startFixtureServer } from '../helpers/harness.js';

const PRLIMIT = findOnPath('prlimit');
const RUN_RESULT = fileURLToPath(new URL('../gates/fixtures/run.json', import.meta.url));
/** Smaller than every file written here (a --url run result ~3 KB, its 1 s log ~1 KB, an HTML report ~30 KB). Bytes */
const FILE_SIZE_LIMIT = 512;
/** Above a short --url run result (~6 KB), below its HTML report (~11 KB). Bytes */
const HTML_LIMIT = 8 * 1024;
const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-test-atomic-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const skip = PRLIMIT ? false : 'prlimit is not installed (util-linux): the failed-write tests need it';

/** spawnbench under a file size limit: every write past FILE_SIZE_LIMIT bytes fails with EFBIG. */
function limited(args) {
  return spawnSync(PRLIMIT, [`--fsize=${FILE_SIZE_LIMIT}`, process.execPath, BIN, ...args], {
    encoding: 'utf8',
    env: { ...process.env, CI: 'true' },
    timeout: 60_000,
  });
}

test('--html: a write that fails midway leaves the previous report as it was, and no temporary file', { skip }, () => {
  const target = path.join(dir, 'good.html');
  writeFileSync(target, '<p>the previous report</p>\n');
  const result = limited(['report', RUN_RESULT, '--html', target]);
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stderr, /^spawnbench: --html .*good\.html: cannot write the report \(the file size limit was reached \(ulimit -f\)\); the previous .*good\.html is left as it was\n$/m);
  assert.equal(readFileSync(target, 'utf8'), '<p>the previous report</p>\n');
  assert.deepEqual(readdirSync(dir).filter((n) => n.includes('good.html')), ['good.html']);
});

test('report --assert with an --html that cannot be written: exit 1, and the failed gates\' count says exit 1, not 3', { skip }, () => {
  const target = path.join(dir, 'gated.html');
  const result = limited(['report', RUN_RESULT, '--assert', 'p99<0.001ms', '--html', target]);
  assert.equal(result.status, 1, result.stderr);
  assert.match(result.stdout, /\n1 of 1 assertion failed \(exit 1, not 3: an output file could not be written \(below\)\)\n$/);
  assert.match(result.stderr, /^spawnbench: --html .*gated\.html: cannot write the report/m);
});

test('--out and --log-file: a write that fails midway leaves the previous baseline and log as they were', { skip }, async () => {
  const server = await startFixtureServer('healthy');
  try {
    const sub = mkdtempSync(path.join(dir, 'run-'));
    const baseline = path.join(sub, 'good.json');
    const log = path.join(sub, 'run.log');
    copyFileSync(RUN_RESULT, baseline);
    writeFileSync(log, 'the previous log\n');
    const before = readFileSync(baseline);
    const result = limited(['run', '--url', server.url, '-d', '1s', '-w', '0s', '-r', '20', '--no-dashboard', '--out', baseline, '--log-file', log, '--assert', 'p99<0.001ms']);
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stdout, /Requests\s+[\d,]+ in/, 'the summary still prints');
    // A failed gate beside files that could not be written: exit 1, and its count says so (it said "(exit 3)").
    assert.match(result.stdout, /\n1 of 1 assertion failed \(exit 1, not 3: an output file could not be written \(below\)\)\n/);
    assert.match(result.stderr, /spawnbench: --out .*good\.json: cannot write the result file \(the file size limit was reached \(ulimit -f\)\); the previous .*good\.json is left as it was\n/);
    assert.match(result.stderr, /spawnbench: --log-file .*run\.log: cannot write the log \(the file size limit was reached \(ulimit -f\)\); the previous .*run\.log is left as it was\n/);
    assert.ok(readFileSync(baseline).equals(before), 'the baseline is byte for byte the previous one');
    assert.equal(readFileSync(log, 'utf8'), 'the previous log\n');
    assert.deepEqual(readdirSync(sub).sort(), ['good.json', 'run.log'], 'no temporary file is left');
  } finally {
    await server.stop();
  }
});

test('--out, --html and --log-file replace the previous files when the writes succeed', async () => {
  const server = await startFixtureServer('healthy');
  try {
    const sub = mkdtempSync(path.join(dir, 'ok-'));
    const [out, html, log] = ['good.json', 'good.html', 'run.log'].map((n) => path.join(sub, n));
    for (const file of [out, html, log]) writeFileSync(file, 'previous\n');
    const io = fakeIo();
    const code = await runCli(['run', '--url', server.url, '-d', '500ms', '-w', '0s', '-r', '20', '--no-dashboard', '--out', out, '--html', html, '--log-file', log], io);
    assert.equal(code, 0, io.err());
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).kind, 'run');
    assert.match(readFileSync(html, 'utf8'), /^<!doctype html>/i);
    assert.match(readFileSync(log, 'utf8'), /"msg":"run done"/);
    assert.deepEqual(readdirSync(sub).sort(), ['good.html', 'good.json', 'run.log']);
  } finally {
    await server.stop();
  }
});

for (const [first, second] of [['--out', '--html'], ['--out', '--log-file'], ['--html', '--log-file']]) {
  test(`${first} and ${second} naming one file are refused before anything starts (exit 2)`, async () => {
    const file = path.join(dir, 'same.out');
    const io = fakeIo();
    // Spelled two ways: one file all the same.
    const code = await runCli(['run', '-s', 'baseline', '-d', '1s', first, file, second, path.join(dir, '.', 'same.out')], io);
    assert.equal(code, 2);
    assert.match(io.err(), /^spawnbench: --[a-z-]+ .*same\.out and --[a-z-]+ .*same\.out name the same file; give each its own file\n$/);
    assert.ok(io.err().includes(`${first} `) && io.err().includes(`${second} `), io.err());
    assert.deepEqual(readdirSync(dir).filter((n) => n.includes('same.out')), []);
  });
}

test('--log-file in a directory that does not exist is refused as --out is (exit 2), not made', async () => {
  for (const flag of ['--out', '--log-file']) {
    const io = fakeIo();
    const code = await runCli(['run', '-s', 'baseline', '-d', '1s', flag, path.join(dir, 'missing', 'x')], io);
    assert.equal(code, 2, flag);
    assert.match(io.err(), new RegExp(`^spawnbench: ${flag} .*missing/x: cannot write there \\(no such file or directory\\); give a path in a directory you can write\\n$`));
  }
  assert.deepEqual(readdirSync(dir).filter((n) => n === 'missing'), []);
});

test('report <file> --html <the same file> is refused (exit 2): the result would be lost', async () => {
  const file = path.join(dir, 'kept.json');
  copyFileSync(RUN_RESULT, file);
  const before = readFileSync(file);
  const io = fakeIo();
  assert.equal(await runCli(['report', file, '--html', path.join(dir, '.', 'kept.json')], io), 2);
  assert.match(io.err(), /^spawnbench: --html .*kept\.json is the result file being read; give the report its own file/);
  assert.ok(readFileSync(file).equals(before));
});

// A log or an HTML report over the --against baseline, or a result over the --mix file, replaced
// the file being read once the run ended, without a word; --out over --against is the next baseline.
for (const [input, output, name] of [['--against', '--log-file', 'base.json'], ['--against', '--html', 'base.json'], ['--mix', '--out', 'mix.json'], ['--mix', '--html', 'mix.json']]) {
  test(`${output} naming the ${input} file is refused before anything starts (exit 2): the file read would be lost`, async () => {
    const file = path.join(dir, name);
    if (input === '--against') copyFileSync(RUN_RESULT, file);
    else writeFileSync(file, JSON.stringify([{ path: '/a' }, { path: '/b' }]));
    const before = readFileSync(file);
    const io = fakeIo();
    const code = await runCli(['run', '--url', 'http://127.0.0.1:9/', '-d', '300ms', '-w', '0s', '--no-dashboard', input, file, output, path.join(dir, '.', name)], io);
    assert.equal(code, 2, io.err());
    assert.match(io.err(), new RegExp(`^spawnbench: ${output} .*${name.replace('.', '\\.')} is the ${input} file being read; give ${output} its own file`));
    assert.ok(readFileSync(file).equals(before));
  });
}

test('report <file> --against <old> --html <old> is refused (exit 2): the baseline would be lost', async () => {
  const file = path.join(dir, 'report-base.json');
  copyFileSync(RUN_RESULT, file);
  const before = readFileSync(file);
  const io = fakeIo();
  assert.equal(await runCli(['report', RUN_RESULT, '--against', file, '--html', file], io), 2);
  assert.match(io.err(), /^spawnbench: --html .*report-base\.json is the --against file being read; give the report its own file/);
  assert.ok(readFileSync(file).equals(before));
});

test('a log that no exit handler would put in place (a second hangup) is put in place by closeAllLoggers', async () => {
  const { createLogger, closeAllLoggers } = await import('../../src/output/logger.js');
  const file = path.join(dir, 'hangup.log');
  writeFileSync(file, 'previous\n');
  const logger = createLogger(file);
  logger.info('before the hangup');
  assert.equal(readFileSync(file, 'utf8'), 'previous\n', 'in place only at the end');
  closeAllLoggers(() => assert.fail('nothing failed'));
  assert.match(readFileSync(file, 'utf8'), /"msg":"before the hangup"/);
  assert.deepEqual(readdirSync(dir).filter((n) => n.includes('hangup.log')), ['hangup.log']);
});

test('--html that cannot be written still lets --out be written, and says so (exit 1)', { skip }, async () => {
  const server = await startFixtureServer('healthy');
  try {
    const sub = mkdtempSync(path.join(dir, 'html-out-'));
    const [out, html] = ['result.json', 'report.html'].map((n) => path.join(sub, n));
    // Under HTML_LIMIT bytes: the result of a short --url run fits, its HTML report does not.
    const result = spawnSync(PRLIMIT, [`--fsize=${HTML_LIMIT}`, process.execPath, BIN, 'run', '--url', server.url, '-d', '300ms', '-w', '0s', '-r', '20', '--no-dashboard', '--out', out, '--html', html], {
      encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000,
    });
    assert.equal(result.status, 1, result.stderr);
    assert.match(result.stderr, /spawnbench: --html .*report\.html: cannot write the report \(the file size limit was reached \(ulimit -f\)\)/);
    assert.equal(JSON.parse(readFileSync(out, 'utf8')).kind, 'run', 'the result file is written all the same');
    assert.deepEqual(readdirSync(sub), ['result.json']);
  } finally {
    await server.stop();
  }
});

test('a streamed file (the log) whose write fails lets go of its temporary file at once, and its commit still fails', () => {
  // --log-file and --out on a small disk a chatty server filled through the log: the log's temporary file kept the
  // space until the end, and --out failed too ("no space left on the device"): both lost. Now --out is written.
  const sub = mkdtempSync(path.join(dir, 'streamed-'));
  const out = openAtomicFile(path.join(sub, 'run.log'));
  out.write('a line\n');
  assert.deepEqual(readdirSync(sub), [path.basename(out.temp)]);
  out.write(/** @type {any} */ ({ length: 1 })); // not bytes: the write throws, as it does on ENOSPC
  assert.deepEqual(readdirSync(sub), [], 'the temporary file is gone with the failed write');
  assert.throws(() => out.commit(), TypeError);
  assert.deepEqual(readdirSync(sub), [], 'nothing put in place');
});
