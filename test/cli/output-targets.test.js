// What --out, --html and --log-file write over (src/output/atomic-file.js destinationKind): a regular
// file or a new path is replaced whole; /dev/null, a terminal, a FIFO and spawnbench's own stdout
// are written through and stay what they are; a block device or a socket is refused before
// anything starts (exit 2, one line). A rename over a device node used to replace it with a
// plain file: as root, `--out /dev/null` turned the machine's /dev/null into one (issue 36).
// The device nodes here are made by mknod in a temporary directory, never the real /dev.
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BIN, cli, startFixtureServer } from '../helpers/harness.js';

const RUN_RESULT = fileURLToPath(new URL('../gates/fixtures/run.json', import.meta.url));
/** What is checked is where the outputs go, not the load: an open loop at a low rate, not a closed loop at full speed. */
const QUICK = ['-d', '300ms', '-w', '0s', '-r', '20', '--no-dashboard'];
const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-test-targets-'));
const skip = process.getuid?.() === 0 ? false : 'mknod needs root';
/** @type {Awaited<ReturnType<typeof startFixtureServer>>} */
let server;
before(async () => {
  server = await startFixtureServer('healthy');
});
after(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function mknod(name, type, major, minor) {
  const file = path.join(dir, name);
  const made = spawnSync('mknod', ['-m', '666', file, type, String(major), String(minor)], { encoding: 'utf8' });
  assert.equal(made.status, 0, made.stderr);
  return file;
}

test('a character device (a copy of /dev/null) given to --out, --html and --log-file stays a character device', { skip }, async () => {
  const nul = mknod('null', 'c', 1, 3);
  const { code, err } = await cli('run', '--url', server.url, ...QUICK, '--out', nul, '--html', nul, '--log-file', nul);
  assert.equal(code, 0, err);
  assert.ok(statSync(nul).isCharacterDevice(), `${nul} is still a character device`);
  assert.equal(statSync(nul).rdev, statSync('/dev/null').rdev, 'and still the null device');
});

test('a block device given to --out, --html or --log-file is refused before the run (exit 2, one line)', { skip }, async () => {
  const block = mknod('block', 'b', 7, 200);
  for (const flag of ['--out', '--html', '--log-file']) {
    const { code, out, err } = await cli('run', '--url', server.url, ...QUICK, flag, block);
    assert.equal(code, 2, `${flag}: ${err}`);
    assert.match(err, new RegExp(`^spawnbench: ${flag} .*block is a block device, not a file; give a regular file path, like ${flag} \\S+ \\(a pipe, a terminal or /dev/null is written through\\)\\n$`));
    assert.equal(out, '', 'nothing ran');
    assert.ok(statSync(block).isBlockDevice());
  }
  const report = await cli('report', RUN_RESULT, '--html', block);
  assert.equal(report.code, 2, report.err);
  assert.match(report.err, /^spawnbench: --html .*block is a block device, not a file;[^\n]*\n$/);
});

test('a character device other than a terminal or /dev/null (a copy of /dev/mem, a watchdog) is refused before anything is opened', { skip }, async () => {
  // Every character device was written through: as root, a copy of /dev/mem or /dev/port took the result, and the check
  // before the run opened it (a watchdog, opened, arms a reboot). Only stat() here: no device is opened.
  const { destinationKind } = await import('../../src/output/atomic-file.js');
  assert.deepEqual(destinationKind(mknod('mem', 'c', 1, 1)), { kind: 'refused', what: 'a device (character 1:1) other than a terminal or /dev/null' });
  assert.equal(destinationKind(mknod('watchdog', 'c', 10, 130)).kind, 'refused');
  for (const [major, minor] of [[1, 3], [1, 5], [4, 64], [5, 0], [136, 3]]) assert.equal(destinationKind(mknod(`ok-${major}-${minor}`, 'c', major, minor)).kind, 'through', `${major}:${minor}`);
  // A device no driver serves (local major 240): refused by its number, with the words that say what to give instead.
  const report = await cli('report', RUN_RESULT, '--html', mknod('unknown', 'c', 240, 77));
  assert.equal(report.code, 2, report.err);
  assert.match(report.err, /^spawnbench: --html .*unknown is a device \(character 240:77\) other than a terminal or \/dev\/null, not a file; give a regular file path/);
});

test('a socket given to --out or report --html is refused before anything starts (exit 2, one line)', async () => {
  const socketPath = path.join(dir, 'sock');
  const listener = net.createServer().listen(socketPath);
  await once(listener, 'listening');
  try {
    const run = await cli('run', '--url', server.url, ...QUICK, '--out', socketPath);
    assert.equal(run.code, 2, run.err);
    assert.match(run.err, /^spawnbench: --out .*sock is a socket, not a file;[^\n]*\n$/);
    const report = await cli('report', RUN_RESULT, '--html', socketPath);
    assert.equal(report.code, 2, report.err);
    assert.match(report.err, /^spawnbench: --html .*sock is a socket, not a file;/);
    assert.ok(statSync(socketPath).isSocket());
  } finally {
    listener.close();
  }
});

test('a FIFO given to --out is written through to its reader and stays a FIFO', async () => {
  const fifo = path.join(dir, 'fifo');
  const made = spawnSync('mkfifo', [fifo]);
  assert.equal(made.status, 0);
  const chunks = [];
  const reader = createReadStream(fifo).on('data', (chunk) => chunks.push(chunk));
  const { code, err } = await cli('run', '--url', server.url, ...QUICK, '--out', fifo);
  assert.equal(code, 0, err);
  await once(reader, 'close');
  assert.equal(JSON.parse(Buffer.concat(chunks).toString('utf8')).kind, 'run');
  assert.ok(statSync(fifo).isFIFO());
});

test('--out /dev/stdout into a socket (what Node gives a child as its stdout) carries the result after the summary', () => {
  const result = spawnSync(process.execPath, [BIN, 'run', '--url', server.url, ...QUICK, '--out', '/dev/stdout'], {
    encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000,
  });
  assert.equal(result.status, 0, result.stderr);
  assert.doesNotMatch(result.stderr, /cannot write/);
  const start = result.stdout.indexOf('{\n  "tool": "spawnbench"');
  assert.ok(start > 0, 'the result follows the summary');
  assert.equal(JSON.parse(result.stdout.slice(start)).kind, 'run');
});

test('--out /dev/stdout redirected to a file appends the result to what was printed, the file is not replaced', () => {
  const file = path.join(dir, 'stdout.txt');
  const result = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" report "${RUN_RESULT}" --json --html /dev/stdout > "${file}"`], {
    encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000,
  });
  assert.equal(result.status, 0, result.stderr);
  const text = readFileSync(file, 'utf8');
  assert.match(text, /^\{"tool":"spawnbench"/, 'the JSON printed first is still there');
  assert.match(text, /<!doctype html>/i, 'the report follows it');
});

test('--html /dev/stdout into a shell pipe (a real pipe, read late) carries the whole report', () => {
  const result = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" report "${RUN_RESULT}" --json --html /dev/stdout | (sleep 1; cat)`], {
    encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000, maxBuffer: 64 * 1024 * 1024,
  });
  assert.equal(result.status, 0, result.stderr);
  assert.equal(result.stderr, '');
  assert.match(result.stdout, /^\{"tool":"spawnbench"/);
  assert.match(result.stdout, /<\/html>\s*$/i, 'the report is whole');
});

test('--out /dev/stdin from a file, and /dev/tty with no terminal (as in CI), are refused before the run, not after it', () => {
  const input = path.join(dir, 'input.json');
  writeFileSync(input, '{"kept":true}\n');
  // stdin open for reading only: the write failed with EBADF once the run was over, the result lost.
  const stdin = spawnSync('sh', ['-c', `"${process.execPath}" "${BIN}" run --url ${server.url} ${QUICK.join(' ')} --out /dev/stdin < "${input}"`], {
    encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000,
  });
  assert.equal(stdin.status, 2, stdin.stderr);
  assert.equal(stdin.stderr, 'spawnbench: --out /dev/stdin: cannot write there (it is open for reading only); give a path you can write\n');
  assert.equal(stdin.stdout, '', 'nothing ran');
  assert.equal(readFileSync(input, 'utf8'), '{"kept":true}\n');
  // setsid: a session with no controlling terminal, where opening /dev/tty fails (ENXIO).
  const tty = spawnSync('setsid', ['-w', process.execPath, BIN, 'run', '--url', server.url, ...QUICK, '--html', '/dev/tty'], {
    encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 60_000, stdio: ['ignore', 'pipe', 'pipe'],
  });
  assert.equal(tty.status, 2, tty.stderr);
  assert.equal(tty.stderr, 'spawnbench: --html /dev/tty: cannot write there (no reader or device behind it); give a path you can write\n');
  assert.equal(tty.stdout, '', 'nothing ran');
});

test('an output over the --mix file the run reads is refused before the run (it replaced the mix with the result)', async () => {
  const mix = path.join(dir, 'mix.json');
  writeFileSync(mix, '[{ "method": "GET", "path": "/" }]\n');
  for (const flag of ['--out', '--html', '--log-file']) {
    const { code, out, err } = await cli('run', '--url', server.url, ...QUICK, '--mix', mix, flag, path.join(dir, '.', 'mix.json'));
    assert.equal(code, 2, `${flag}: ${err}`);
    assert.match(err, new RegExp(`^spawnbench: ${flag} .*mix\\.json is the --mix file being read; give ${flag} its own file, like ${flag} \\S+\\n$`));
    assert.equal(out, '');
  }
  assert.equal(readFileSync(mix, 'utf8'), '[{ "method": "GET", "path": "/" }]\n', 'the mix is as it was');
});

test('an output over a file the server command names is refused before the run (--out server.js replaced the script with the result)', async () => {
  const script = path.join(dir, 'server.js');
  const source = readFileSync(fileURLToPath(new URL('../../fixtures/servers/healthy.js', import.meta.url)), 'utf8');
  writeFileSync(script, source);
  const cases = [
    ['run', '--out', script, '--', process.execPath, script],
    ['diagnose', '--html', path.join(dir, '.', 'server.js'), '--', process.execPath, script],
    ['tune', '--sizes', '1', '--size-env', 'WORKERS', '--log-file', script, '--', process.execPath, script],
    ['compare', '--command', `a=${process.execPath} ${script}`, '--out', script],
  ];
  for (const [command, ...args] of cases) {
    const { code, out, err } = await cli(command, ...QUICK, ...args);
    assert.equal(code, 2, `${command}: ${err}`);
    assert.match(err, /^spawnbench: --(out|html|log-file) .*server\.js is a file the server command reads; give --(out|html|log-file) its own file, like --\S+ \S+\n$/, command);
    assert.equal(out, '');
  }
  assert.equal(readFileSync(script, 'utf8'), source, 'the script is as it was');
  // Two arguments naming one file are both read, not written: the run goes ahead.
  const { code, err } = await cli('run', ...QUICK, '--out', path.join(dir, 'r.json'), '--', process.execPath, script, script);
  assert.equal(code, 0, err);
});

test('an output naming an input through another path to the same directory (a bind mount) is refused, not written over it', { skip }, async () => {
  // A volume mounted at two paths: `report /data/r.json --html /mnt/data/r.json` replaced the result with its HTML.
  const { checkOutputDestinations } = await import('../../src/output/output-destinations.js');
  const data = path.join(dir, 'data');
  const mnt = path.join(dir, 'mnt');
  spawnSync('mkdir', ['-p', data, mnt]);
  writeFileSync(path.join(data, 'r.json'), readFileSync(RUN_RESULT));
  writeFileSync(path.join(data, 'mix.json'), '[{ "method": "GET", "path": "/" }]\n');
  const mounted = spawnSync('mount', ['--bind', data, mnt], { encoding: 'utf8' });
  assert.equal(mounted.status, 0, mounted.stderr);
  try {
    const { code, out, err } = await cli('report', path.join(data, 'r.json'), '--html', path.join(mnt, 'r.json'));
    assert.equal(code, 2, err);
    assert.match(err, /^spawnbench: --html \S+mnt\/r\.json is the result file being read; give the report its own file, like --html report\.html\n$/);
    assert.equal(out, '');
    assert.deepEqual(JSON.parse(readFileSync(path.join(data, 'r.json'), 'utf8')), JSON.parse(readFileSync(RUN_RESULT, 'utf8')), 'the result is as it was');
    assert.throws(() => checkOutputDestinations({ mix: path.join(data, 'mix.json'), out: path.join(mnt, 'mix.json') }), /^UsageError: --out \S+mnt\/mix\.json is the --mix file being read/);
    assert.throws(() => checkOutputDestinations({ out: path.join(data, 'r.json'), html: path.join(mnt, 'r.json') }), /^UsageError: --out \S+data\/r\.json and --html \S+mnt\/r\.json name the same file/);
    // Two files of their own in the mounted directory are still two.
    assert.doesNotThrow(() => checkOutputDestinations({ out: path.join(data, 'r.json'), html: path.join(mnt, 'r.html') }));
  } finally {
    spawnSync('umount', [mnt]);
  }
});

test('an output path that ends in a slash (a directory not made yet) is refused, not written as a file of that name', async () => {
  // `--out results/` wrote a regular file named "results", exit 0.
  const { checkOutputDestinations } = await import('../../src/output/output-destinations.js');
  for (const [key, flag, example] of [['out', '--out', 'result.json'], ['html', '--html', 'report.html'], ['logFile', '--log-file', 'spawnbench.log']]) {
    const file = `${path.join(dir, `not-made-${key}`)}/`;
    assert.throws(() => checkOutputDestinations({ [key]: file }), new RegExp(`^UsageError: ${flag} \\S+not-made-${key}/ ends in '/', a directory's name; give a file path, like ${flag} \\S+not-made-${key}/${example.replace('.', '\\.')}$`));
    assert.throws(() => statSync(file.slice(0, -1)), /ENOENT/, 'nothing was made');
  }
});
