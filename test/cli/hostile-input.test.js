// Hostile and careless input, each refused before anything starts (exit 2, one line naming
// the flag) or failing at once with the reason (exit 1): no hang, no stack, no success
// claimed for a run that reached nothing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync, chmodSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli.js';
import { fakeIo } from '../helpers/io.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';

const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-test-hostile-'));
const notExecutable = path.join(dir, 'server.sh');
writeFileSync(notExecutable, '#!/bin/sh\nexec sleep 100\n');
chmodSync(notExecutable, 0o644);
const HEALTHY = fileURLToPath(new URL('../../fixtures/servers/healthy.js', import.meta.url));
const QUICK = ['-d', '300ms', '-w', '0s', '-c', '2', '--no-dashboard'];

// [name, args, exit code, stderr pattern, at most ms]
const CASES = [
  ['-r 1e99', ['run', '-r', '1e99', ...QUICK], 2, /^spawnbench: --rate must be at most 1000000, got 1e99\n$/],
  ['-r 1e12', ['run', '-r', '1e12', ...QUICK], 2, /^spawnbench: --rate must be at most 1000000, got 1e12\n$/],
  ['--ready-timeout 1000h', ['run', '--ready-timeout', '1000h', ...QUICK], 2, /^spawnbench: --ready-timeout must be at most 24h, got 1000h\n$/],
  ['diagnose --ready-timeout 1000h', ['diagnose', '--ready-timeout', '1000h', ...QUICK, '--', process.execPath, HEALTHY], 2, /^spawnbench: --ready-timeout must be at most 24h, got 1000h\n$/],
  ['-d 25h', ['run', '-d', '25h'], 2, /^spawnbench: --duration must be at most 24h, got 25h\n$/],
  ['--timeout 9999999s', ['run', '--timeout', '9999999s', ...QUICK], 2, /^spawnbench: --timeout must be at most 24h/],
  ['-d 5x names h', ['run', '-d', '5x'], 2, /use a number with ms, s, m or h/],
  ['--out /proc/x.json', ['run', ...QUICK, '--out', '/proc/x.json'], 2, /^spawnbench: --out \/proc\/x\.json: cannot write there \(no such file or directory\); give a path in a directory you can write\n$/],
  ['--out a directory', ['run', ...QUICK, '--out', dir], 2, /^spawnbench: --out .* is a directory; give a file path, like --out .*result\.json\n$/],
  ['--out in a missing directory', ['run', ...QUICK, '--out', path.join(dir, 'no', 'x.json')], 2, /^spawnbench: --out .*: cannot write there \(no such file or directory\)/],
  ['--log-file /proc/x', ['run', ...QUICK, '--log-file', '/proc/x'], 2, /^spawnbench: --log-file \/proc\/x: cannot write there/],
  ['diagnose --cpu-prof-dir /proc/x', ['diagnose', ...QUICK, '--cpu-prof-dir', '/proc/x', '--', process.execPath, HEALTHY], 2, /^spawnbench: --cpu-prof-dir \/proc\/x: cannot write in \/proc/],
  ['diagnose --cpu-prof-dir under a file', ['diagnose', ...QUICK, '--cpu-prof-dir', path.join(notExecutable, 'x'), '--', process.execPath, HEALTHY], 2, /^spawnbench: --cpu-prof-dir .*server\.sh is not a directory/],
  ['--url of an unresolvable host', ['run', ...QUICK, '--url', 'http://no.such.host.invalid/'], 2, /^spawnbench: --url http:\/\/no\.such\.host\.invalid\/: host 'no\.such\.host\.invalid' does not resolve \(\w+\); check the name, or give an IP address\n$/],
  ['--url with an empty host', ['run', ...QUICK, '--url', 'http:///x'], 2, /^spawnbench: --url 'http:\/\/\/x' has no host; give one, like http:\/\/127\.0\.0\.1:3000\/\n$/],
  ['diagnose --url with an empty host', ['diagnose', ...QUICK, '--url', 'http:///x'], 2, /has no host/],
  ['--url of a closed port', ['run', ...QUICK, '--url', 'http://127.0.0.1:1/'], 1, /no request got a response: \d+ connect errors/],
  ['diagnose --url of a closed port', ['diagnose', ...QUICK, '--url', 'http://127.0.0.1:1/'], 1, /no request got a response: \d+ connect errors/],
  ['diagnose of a missing command (ENOENT)', ['diagnose', ...QUICK, '--', '/no/such/srv'], 1, /spawnbench: '\/no\/such\/srv' could not be started: spawn \/no\/such\/srv ENOENT\n$/, 5000],
  ['diagnose of a non-executable file (EACCES)', ['diagnose', ...QUICK, '--', notExecutable], 1, /could not be started: spawn .*server\.sh EACCES\n$/, 5000],
];

for (const [name, args, code, pattern, withinMs = 20_000] of CASES) {
  test(`${name}: exit ${code}, one line`, async () => {
    const io = fakeIo();
    const started = Date.now();
    const got = await runCli(args, io);
    const err = io.err().replace(/^booting…\n/, '');
    assert.equal(got, code, err);
    assert.match(code === 2 ? err : `${io.out()}${err}`, pattern);
    assert.doesNotMatch(err, /\n\s+at /, 'no stack');
    assert.ok(Date.now() - started < withinMs, `took ${Date.now() - started} ms`);
    assert.equal(trackedGroupCount(), 0, 'nothing left running');
  });
}

test('a destination checked at start leaves no file behind', async () => {
  const out = path.join(dir, 'checked.json');
  await runCli(['run', '-r', '1e99', '--out', out], fakeIo());
  assert.equal(existsSync(out), false);
});

test('--out that cannot be written at the end (its directory went away): the summary still prints, then one line, exit 1', async () => {
  const gone = mkdtempSync(path.join(dir, 'gone-'));
  const io = fakeIo();
  // An open loop at a low rate: the result file's failure is checked, not the server's figures.
  const running = runCli(['run', '-s', 'baseline', '-d', '1s', '-w', '0s', '-c', '2', '-r', '20', '--no-dashboard', '--out', path.join(gone, 'result.json')], io);
  await new Promise((r) => setTimeout(r, 300));
  rmSync(gone, { recursive: true });
  assert.equal(await running, 1);
  assert.match(io.out(), /Requests\s+[\d,]+ in/);
  assert.match(io.err(), /spawnbench: --out .*result\.json: cannot write the result file \(no such file or directory\)\n$/);
});

test('durations of hours read as hours', async () => {
  const { formatDuration } = await import('../../src/ui/cell-format.js');
  const units = await import('../../src/base/units.js');
  assert.equal(formatDuration(5 * 3_600_000), '5h00m');
  assert.equal(formatDuration(3_720_000 + 5000), '1h02m');
  assert.equal(formatDuration(65_000), '1m05s');
  assert.equal(units.formatDuration(5 * 3_600_000), '5h');
  assert.equal(units.parseDuration('5h', '-d'), 5 * 3_600_000);
});

test('cleanup', () => rmSync(dir, { recursive: true, force: true }));
