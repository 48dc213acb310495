// Words that misled (issue 25, defect 8), each with the case that showed it:
// - "no request got a response; is the server listening at that address?" after responses
//   that did not finish in time, after a server that is not HTTP, and with -d 1ms (there
//   with a bogus "generator thread was busy 100%"): the hint now follows the error kind;
// - a --url run said "booting…" and "workload echo";
// - a server that daemonised was "exited with code 0 during the run";
// - run's advice said "The machine was shared" when the run's own processes made the wait;
// - compare --command's crash reason ended at "its stderr ends:" with nothing after it.
// (`report bad.json` exits 2: test/cli/report-hostile.test.js; "about NaN s" and the HTML's
// commands: test/report/html-copyable.test.js; --log-file's words: test/cli/atomic-outputs.test.js.)
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { describeCrash } from '../../src/runner/engine-shell.js';
import net from 'node:net';
import http from 'node:http';
import { once } from 'node:events';
import { noResponseFailure } from '../../src/load/host-check.js';
import { attachProgressLines } from '../../src/ui/progress-lines.js';
import { EventEmitter } from 'node:events';
import { adviceInput } from '../../src/analysis/advice-input.js';
import { adviseRun } from '../../src/analysis/run-advice.js';
import { formatSummary } from '../../src/report/summary.js';
import { failureLine } from '../../src/report/compare-text.js';
import { misbehaveHandler } from '../../fixtures/servers/misbehave-responses.js';
import { cli, fixtureServer, spawnCli, waitFor } from '../helpers/harness.js';
import { processesMatching } from '../helpers/processes.js';
import { syntheticRun, evenWorkers } from '../analysis/synthetic-runs.js';

const servers = [];
after(() => Promise.all(servers.map((s) => new Promise((resolve) => s.close(resolve)))));
async function listen(server) {
  servers.push(server);
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return `http://127.0.0.1:${server.address().port}/`;
}
const NONE = { total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0, tls: 0 };

test('no response: the hint follows the error kind', () => {
  const planned = { durationMs: 1000, timeoutMs: 10_000 };
  const slow = noResponseFailure({ requests: 0, errors: NONE, bytes: 52_428_800 }, false, planned);
  assert.match(slow, /^no response finished within the measured 1s: responses were still arriving when it ended/);
  assert.doesNotMatch(slow, /listening/);
  assert.match(noResponseFailure({ requests: 0, errors: NONE, bytes: 0 }, false, planned), /^no response arrived within the measured 1s: .*longer --duration/);
  const garbage = noResponseFailure({ requests: 0, errors: { ...NONE, total: 9, parse: 9 } }, false, planned);
  assert.match(garbage, /^no request got a response: 9 bad responses \(not HTTP\/1\.1\); what answers at that address does not speak HTTP\/1\.1/);
  assert.match(noResponseFailure({ requests: 0, errors: { ...NONE, total: 3, connect: 3 } }, false, planned), /: 3 connect errors; is the server listening at that address\?$/);
  assert.match(noResponseFailure({ requests: 0, errors: { ...NONE, total: 2, timeout: 2 } }, false, planned), /2 timeouts; the server accepted connections but answered none within --timeout 10s/);
  assert.match(noResponseFailure({ requests: 0, errors: { ...NONE, total: 4, reset: 4 } }, false, planned), /4 resets; the server closed or reset every connection/);
  assert.equal(noResponseFailure({ requests: 1, errors: NONE }, false, planned), null);
  assert.equal(noResponseFailure({ requests: 0, errors: NONE }, true, planned), null, 'stopped early: not this failure');
});

test('run --url -d 1ms: "no response arrived", no "listening" hint, no generator note', async () => {
  const url = await listen(http.createServer((req, res) => res.end('ok\n')));
  const { code, out } = await cli('run', '--url', url, '-d', '1ms', '-w', '0s', '-c', '1', '--no-dashboard');
  assert.doesNotMatch(out, /listening at that address/);
  assert.doesNotMatch(out, /generator thread was busy/);
  // On a fast day a response may finish within 1 ms: then there is nothing to blame, and the run exits 0.
  if (/Requests +0 /.test(out)) {
    assert.equal(code, 1);
    assert.match(out, /FAILED: no response (arrived|finished) within the measured 1ms/);
  }
});

test('diagnose --url -d 1ms: no "check the path" step, no generator finding', async () => {
  const url = await listen(http.createServer((req, res) => res.end('ok\n')));
  const { out } = await cli('diagnose', '--url', url, '-d', '1ms', '-w', '0s', '-c', '1', '--no-dashboard');
  assert.doesNotMatch(out, /load generator was the limit|generator thread was busy/);
  if (/no request completed/.test(out)) {
    assert.match(out, /next: give a longer --duration, or measure with -n <requests>/);
    assert.doesNotMatch(out, /check the path and method/);
  }
});

test('run --url of a server that is not HTTP: names bad responses, not "is it listening"', async () => {
  const url = await listen(net.createServer(misbehaveHandler('garbage')));
  // An open loop at a low rate: every answer is garbage whatever the rate (~10 bad responses).
  const { code, out } = await cli('run', '--url', url, '-d', '500ms', '-w', '0s', '-c', '1', '-r', '20', '--no-dashboard');
  assert.equal(code, 1);
  assert.match(out, /FAILED: no request got a response: \d+ bad responses \(not HTTP\/1\.1\); what answers at that address does not speak HTTP\/1\.1/);
  assert.doesNotMatch(out, /listening at that address/);
});

test('--url runs do not say "booting" nor name a workload', () => {
  const engine = new EventEmitter();
  let text = '';
  const detach = attachProgressLines(engine, { write: (s) => { text += s; } });
  const plan = { command: 'run', target: { kind: 'url', url: 'http://127.0.0.1:9/' }, workload: { name: 'echo' }, load: { connections: 1, durationMs: 1000, warmupMs: 0 } };
  engine.emit('start', { plan });
  engine.emit('phase', { phase: 'booting' });
  engine.emit('phase', { phase: 'stopping' });
  detach();
  assert.doesNotMatch(text, /booting|workload/);
  assert.match(text, /^connecting…$/m);
  assert.match(text, /^stopping…$/m);
});

// tune (and compare) stop at a server that daemonises before it is ready; run -- <command> follows it to
// the server it left, whenever its parent exits (test/own-server/run-daemon.test.js).
test('a server that daemonises (parent exits 0 at once): tune says so, with how to run it in the foreground; its background process is ended', async () => {
  const file = fixtureServer('daemonises');
  const env = { ...process.env, CI: 'true', DAEMON_PARENT_LINGER_MS: '0' };
  const { code, out, err } = await spawnCli(['tune', '--size-env', 'WORKERS', '--sizes', '1', '--repeat', '1', '-d', '4s', '-w', '0s', '-c', '1', '--no-dashboard', '--', process.execPath, file], { env });
  assert.equal(code, 1, err);
  // Before it was ready, or (when readiness won the race with the parent's exit) during the step, named under the table.
  assert.match(`${out}${err}`, /daemonised (before it was ready|during the run): it exited with code 0 and left a process in the background serving port \d+, .*run the server in the foreground/);
  assert.doesNotMatch(`${out}${err}`, /exited with code 0 (during the run|before it was ready)/);
  await waitFor(() => processesMatching(file).length === 0, { timeoutMs: 5000, what: `the daemon of ${file} to be gone` });
});

test('a server whose command exits 0 mid-run while its port still answers: said to have daemonised during the run', () => {
  const line = describeCrash("'node d.js'", { code: 0, signal: null, stderr: '', daemonised: true, port: 4000 });
  assert.match(line, /^'node d\.js' daemonised during the run: it exited with code 0 and left a process in the background serving port 4000, .*run the server in the foreground/);
  assert.doesNotMatch(line, /exited with code 0 during the run/);
});

test('tune names what went wrong inside a measured step (it showed 0 req/s and nothing else)', async () => {
  const { formatTune } = await import('../../src/report/tune-text.js');
  const daemonised = "'node d.js' daemonised during the run: it exited with code 0 and left a process in the background serving port 4000, which spawnbench neither started nor can measure; run the server in the foreground";
  const text = formatTune({
    plan: { sizes: [1, 2], policies: ['round-robin'], repeat: 1, search: 'exhaustive', base: { target: { strategy: 'fork-pool' }, workload: { name: 'echo' }, load: { connections: 4, durationMs: 1000, warmupMs: 0 } } },
    recommendation: { size: null, policy: null, sentences: [], cells: [], sizes: [] },
    search: { mode: 'exhaustive', measuredSteps: 2, exhaustiveSteps: 2, savedSteps: 0 },
    steps: [{ size: 1, failures: [daemonised] }, { size: 2, failures: [daemonised, "'node d.js' exited with code 3 before it was ready; its stderr ends:\nboom"] }],
  });
  assert.match(text, /^step failed: pool 1, 2: 'node d\.js' daemonised during the run: .*run the server in the foreground$/m);
  assert.match(text, /^step failed: pool 2: 'node d\.js' exited with code 3 before it was ready; its stderr ends: boom$/m);
});

test('contention is worded by who caused it', () => {
  const advise = (run) => formatSummary({ ...run, recommendation: adviseRun(adviceInput(run)) });
  // The run's own processes fill both cores (193% of 2): nobody else is there.
  const own = advise(syntheticRun({
    poolSize: 4, rps: 700, cpus: [98, 99], spawnedCpuPct: 90,
    workers: evenWorkers(4, { rps: 700, elu: 0.95, cpuPct: 22, waitPct: 40 }).map((w) => ({ ...w, loopCpuPct: 20 })),
  }));
  assert.doesNotMatch(own, /machine was shared/);
  assert.match(own, /oversubscribed by this run's own processes/);
  // The run uses a fraction of a core; the cores are full: others are there.
  const shared = advise(syntheticRun({
    poolSize: 2, rps: 300, cpus: [97, 98], spawnedCpuPct: 10,
    workers: evenWorkers(2, { rps: 300, elu: 0.6, cpuPct: 10, waitPct: 40 }).map((w) => ({ ...w, loopCpuPct: 8 })),
  }));
  assert.match(shared, /The machine was shared: other processes used \d\.\d cores/);
});

test('a crash reason that quotes stderr keeps its last line on one line', () => {
  assert.equal(
    failureLine("'node app.js' exited with code 3 before it was ready; its stderr ends:\nat boot\nfixture: cannot start: DATABASE_URL is not set\n"),
    "'node app.js' exited with code 3 before it was ready; its stderr ends: fixture: cannot start: DATABASE_URL is not set",
  );
  assert.equal(failureLine("'node app.js' exited with code 3 before it was ready; its stderr ends:\n"), "'node app.js' exited with code 3 before it was ready");
  assert.equal(failureLine('EAGAIN'), 'EAGAIN');
  // A Node crash ends in its stack and "Node.js v20.20.2": compare's row said "its stderr ends: Node.js v20.20.2".
  const crashApi = "'node api.js' exited with code 1 before it was ready; its stderr ends:\n/srv/api.js:2\nthrow new Error('config missing: DATABASE_URL');\n      ^\n\n" +
    "Error: config missing: DATABASE_URL\n    at Object.<anonymous> (/srv/api.js:2:7)\n    … 8 more frames\n\nNode.js v20.20.2\n";
  assert.equal(failureLine(crashApi), "'node api.js' exited with code 1 before it was ready; its stderr ends: Error: config missing: DATABASE_URL");
  const missing = "'node gone.js' exited with code 1 before it was ready; its stderr ends:\nnode:internal/modules/esm/resolve:283\n    throw new ERR_MODULE_NOT_FOUND(\n          ^\n\n" +
    "Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/srv/gone.js' imported from /srv/\n    at finalizeResolution (node:internal/modules/esm/resolve:283:11)\n    … 8 more frames\n" +
    "  code: 'ERR_MODULE_NOT_FOUND',\n  url: 'file:///srv/gone.js'\n}\n\nNode.js v20.20.2\n";
  assert.equal(failureLine(missing), "'node gone.js' exited with code 1 before it was ready; its stderr ends: Error [ERR_MODULE_NOT_FOUND]: Cannot find module '/srv/gone.js' imported from /srv/");
  // A Node crash ends in its version under the stack: tune's table said "its stderr ends: Node.js v20.20.2".
  const crash = "'node app.js' exited with code 1 during the run; its stderr ends:\n/app/app.js:2\n  setTimeout(() => { throw new Error('boom with 2') }, 800);\n                     ^\n\nError: boom with 2\n    at Timeout._onTimeout (/app/app.js:2:30)\n    at listOnTimeout (node:internal/timers:573:17)\n\nNode.js v20.20.2\n";
  assert.equal(failureLine(crash), "'node app.js' exited with code 1 during the run; its stderr ends: Error: boom with 2");
  const emitted = "'node app.js' exited with code 1 during the run; its stderr ends:\nError: listen EADDRINUSE: address already in use :::3000\n    at Server.setupListenHandle [as _listen2] (node:net:1908:16)\nEmitted 'error' event on Server instance at:\n    at emitErrorNT (node:net:1944:8) {\n  code: 'EADDRINUSE',\n  port: 3000\n}\n\nNode.js v20.20.2\n";
  assert.equal(failureLine(emitted), "'node app.js' exited with code 1 during the run; its stderr ends: Error: listen EADDRINUSE: address already in use :::3000");
});

test('a process no sample reached says so, not a bare label', async () => {
  // Seen: `run -d 500ms --sample-interval 1s` and `-n 3` printed a line reading only "main".
  const { formatProcesses } = await import('../../src/report/processes-text.js');
  const text = formatProcesses({ processes: [{ key: '7', pid: 7, threadId: null, role: 'main', label: 'main', requests: null, series: [], summary: {} }] });
  assert.match(text, /^main {2}no figures sampled$/m);
});
