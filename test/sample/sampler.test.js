import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import os from 'node:os';
import { openProbeChannel } from '../../src/probe/channel.js';
import { startSampler, probeSupport, probeStatus, probeWithFilesLimit } from '../../src/sample/index.js';
import { unseen } from '../../src/analysis/verdicts.js';
import { unseenLines } from '../../src/report/diagnose-words.js';
import { adviceParagraphs } from '../../src/report/run-advice-text.js';
import { stopGroup } from '../probe/helpers/servers.js';

const OBSERVE_MS = 1200;

/** A non-Node root that spawns short-lived commands back to back, in its own process group. */
function startSpawningShell() {
  return spawn('sh', ['-c', 'while :; do /bin/echo hi > /dev/null; done'], { detached: true, stdio: 'ignore' });
}

test('spawned commands: their CPU comes from the parent\'s cutime; a non-Node root has no probe', async (t) => {
  const channel = await openProbeChannel({ intervalMs: 250 });
  const shell = startSpawningShell();
  try {
    const sampler = startSampler({ rootPid: shell.pid, channel, runtime: 'node', getGeneratorStats: () => ({ elu: 0.25, cpuPct: 30 }) });
    const samples = [];
    sampler.on('sample', (s) => samples.push(s));
    await new Promise((resolve) => setTimeout(resolve, OBSERVE_MS));
    const summary = await sampler.stop();
    t.diagnostic(`spawned CPU ${summary.spawned.cpuPct?.toFixed(1)}%, seen ${summary.spawned.seen}, main CPU ${summary.processes[0].summary.cpuPct?.toFixed(1)}%`);

    assert.ok(samples.length >= 3, `${samples.length} samples`);
    const [sample] = samples;
    assert.deepEqual(Object.keys(sample), ['t', 'processes', 'downstreams', 'otherUsers', 'spawned', 'system', 'generator', 'throttling']);
    assert.deepEqual(Object.keys(sample.processes[0]), ['key', 'pid', 'threadId', 'role', 'label', 'cpuPct', 'rssBytes', 'requests', 'probe', 'loopCpuPct', 'waitPct', 'inFlight', 'otherThreads']);
    // Run-queue figures of the main thread come from /proc/<pid>/schedstat from the second reading on.
    const later = samples.at(-1).processes[0];
    assert.ok(Number.isFinite(later.loopCpuPct) && later.loopCpuPct >= 0, `loopCpuPct ${later.loopCpuPct}`);
    assert.ok(Number.isFinite(later.waitPct) && later.waitPct >= 0, `waitPct ${later.waitPct}`);
    assert.deepEqual(sample.generator, { cpuPct: 30, elu: 0.25 });

    assert.deepEqual(summary.processes.map((p) => p.label), ['main'], 'echo processes are spawned commands, not workers');
    assert.ok(summary.spawned.cpuPct > 0, 'reaped children\'s CPU is counted');
    assert.equal(summary.generator.cpuPct, 30);
    assert.deepEqual(summary.downstreams, [], 'a shell running echo connects to nothing');
    assert.ok(Array.isArray(summary.otherUsers.users) && summary.otherUsers.elapsedMs > 0, JSON.stringify(summary.otherUsers));
    assert.equal(summary.probe.available, false);
    // The root here is a shell: it runs no Node.js, so no probe could report (the server's program is named).
    assert.match(summary.probe.reason, /^no probe: the server runs (ba|da)?sh, not Node\.js, so it has no ELU or loop figures/);
    assert.equal(summary.processes[0].series.length, samples.length);
  } finally {
    await stopGroup(shell);
    await channel.close();
  }
});

test('on bun or deno the summary says the probe is not available there', async () => {
  assert.deepEqual(probeSupport('node'), { available: true, reason: null });
  assert.deepEqual(probeSupport('deno'), { available: false, reason: 'probe not available on deno' });
  const shell = spawn('sleep', ['5'], { detached: true, stdio: 'ignore' });
  try {
    const sampler = startSampler({ rootPid: shell.pid, runtime: 'bun', intervalMs: 100 });
    await new Promise((resolve) => setTimeout(resolve, 250));
    const summary = await sampler.stop();
    assert.deepEqual(summary.probe, { available: false, reason: 'probe not available on bun' });
    assert.equal(await sampler.stop(), summary, 'stop is idempotent');
  } finally {
    await stopGroup(shell);
  }
});

test('a user\'s server on another runtime (python3) is named as such, not sent after NODE_OPTIONS; its advice words its CPU, not "ELU –"', () => {
  const channel = {};
  // run --port 8123 -- python3 -m http.server said "no probe report received (was NODE_OPTIONS replaced by the strategy?)".
  assert.deepEqual(probeStatus(channel, 'node', false, 'python3.11'), { available: false, reason: 'no probe: the server runs python3.11, not Node.js, so it has no ELU or loop figures; its CPU is read from outside', program: 'python3.11' });
  for (const program of ['node', 'nodejs', 'node20', 'bun', 'deno', null]) {
    assert.match(probeStatus(channel, 'node', false, program).reason, /^no probe report received/, String(program));
  }
  assert.deepEqual(probeStatus(channel, 'node', true, 'python3'), { available: true, reason: null });
  // runuser -u nobody -- node server.js: its probe cannot reach a channel only spawnbench's user may enter, and the
  // reason read "was NODE_OPTIONS replaced by the strategy?" of a server with no strategy and NODE_OPTIONS intact.
  const other = (process.getuid?.() ?? 0) + 1;
  assert.match(probeStatus(channel, 'node', false, 'node', other).reason, new RegExp(`the server runs as uid ${other}, and the probe's channel only takes spawnbench's user`));
  assert.match(probeStatus(channel, 'node', false, 'node', process.getuid?.() ?? null).reason, /^no probe report received \(was NODE_OPTIONS/);
  // run -- env -i node server.js: the same "replaced by the strategy?" of a server whose environment a launcher emptied.
  assert.match(probeStatus(channel, 'node', false, 'node', null, false).reason, /the server's environment lost the probe's NODE_OPTIONS on the way \(env -i, sudo/);
  assert.match(probeStatus(channel, 'node', false, 'node', null, true).reason, /^no probe report received \(was NODE_OPTIONS/);
  // The advice on it said "Its main thread had room (ELU –, blocked in spawn –; …)": a claim with no figure shown.
  const figures = { elu: null, busy: 0.11, blocked: null, cpuPct: 44, eluLimit: 0.9, blockedLimit: 0.25 };
  const [, room] = adviceParagraphs({ size: null, policy: null, strategy: null, basis: 'one-run', confidence: null, reasons: [{ id: 'main-has-room', figures }], confirmWith: null, estimate: null });
  assert.equal(room, '- Its main thread had room (on a CPU 11% of the time; no ELU without the probe, so time it waited is not counted; it is the limit from 90%).');
});

test('a probe that never reported from a server short of open files names the limit; diagnose does not send a started server to "diagnose --"', () => {
  // run -c 30 -- sh -c 'ulimit -n 48; exec node server.js': "no probe report received (was NODE_OPTIONS replaced by the
  // strategy?)", where at ulimit -n 200 the same server's probe reported; diagnose added "run it under spawnbench
  // diagnose -- <command> to see them" of a server it had started so.
  const generic = probeStatus({}, 'node', false, 'node', null, true);
  const filesLimit = { openFiles: 48, connections: 30, failed: 658, needed: 62 };
  const probe = probeWithFilesLimit(generic, filesLimit);
  assert.equal(probe.reason, "no probe report received: the server's open-files limit is 48 (ulimit -n), too few for 30 connections and its own files, and the probe's channel is one of them; raise it where the server starts (ulimit -n 62 or more) for ELU and loop figures (its CPU is read from outside)");
  assert.equal(probeWithFilesLimit(generic, null), generic, 'no limit short: the reason as it was');
  const python = probeStatus({}, 'node', false, 'python3');
  assert.equal(probeWithFilesLimit(python, filesLimit), python, 'a reason of its own is kept');
  const evidence = (mode, probeReason) => ({ probe: null, probeReason, mode, processes: [{ cpuPct: 50 }] });
  const [started] = unseenLines(unseen(evidence('command', probe.reason)));
  assert.ok(started.endsWith('(its CPU is read from outside))'), started);
  assert.match(unseenLines(unseen(evidence('command', '--no-probe')))[0], /; drop --no-probe to see them$/);
  assert.match(unseenLines(unseen(evidence('url', 'the server was not started by spawnbench')))[0], /; run it under spawnbench diagnose -- <command> to see them$/);
});

test('reset restarts the summary and series', async () => {
  const shell = spawn('sleep', ['5'], { detached: true, stdio: 'ignore' });
  try {
    const sampler = startSampler({ rootPid: shell.pid, intervalMs: 50 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    sampler.reset();
    await new Promise((resolve) => setTimeout(resolve, 120));
    const summary = await sampler.stop();
    const series = summary.processes[0].series;
    assert.ok(series.length >= 1 && series.length <= 4, `${series.length} samples after reset`);
  } finally {
    await stopGroup(shell);
  }
});

test('the portable fallback (no /proc) reads the known processes through pidusage and cores through os.cpus()', async () => {
  const { createPortableSampler, PORTABLE_NOTE } = await import('../../src/sample/portable-sampler.js');
  const reader = createPortableSampler({ rootPid: process.pid });
  try {
    const reading = await reader.read({ pids: [process.pid, 999_999_999], threads: [{ key: '1/2' }] });
    assert.deepEqual([...reading.processes.keys()], [process.pid], 'a vanished pid is left out');
    assert.ok(reading.processes.get(process.pid).rssBytes > 0);
    assert.equal(reading.system.cpus.length, os.cpus().length);
    assert.deepEqual([...reading.threads], [['1/2', null]]);
    assert.equal(reading.spawned.cpuPct, null);
    assert.match(PORTABLE_NOTE, /^no \/proc on \w+/);
  } finally {
    reader.close();
  }
});
