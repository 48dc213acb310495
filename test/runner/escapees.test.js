// Escapees: a server that starts a process which leaves its process group (setsid) or
// its parent (a double fork) and keeps the inherited stdout/stderr. spawnbench used to
// hang after its summary, waiting on the pipes the escapee held, and left it running.
// Now the escapee is ended (a cgroup's cgroup.kill where one can be made; the remembered
// tree and the pipe holders otherwise), --json says how, and spawnbench exits within 2 s
// of its summary.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { readFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { startSpawnbench } from '../helpers/spawnbench-process.js';
import { processesMatching } from '../helpers/processes.js';
import { waitFor } from '../helpers/harness.js';
import { spawn, spawnSync } from 'node:child_process';
import { spawnInCgroup, removeCgroup, ownCgroupDir } from '../../src/runner/cgroup-containment.js';
import { trackTree } from '../../src/runner/escapees.js';
import { spawnContained } from '../../src/runner/contained-spawn.js';
import { procPids, readStat } from '../../src/sample/proc.js';
import { STOP_GRACE_MS } from '../../src/base/thresholds.js';

const HEALTHY = fileURLToPath(new URL('../../fixtures/servers/healthy.js', import.meta.url));
const EXIT_AFTER_SUMMARY_MS = 2_000;

// Whether this machine lets spawnbench make cgroups (root, or a delegated cgroup v2 subtree).
const probe = spawnInCgroup(() => spawnSync('true'));
const cgroups = probe.containment.method === 'cgroup';
if (cgroups) await removeCgroup(probe.containment.dir);

// Each escapee sleeps a unique number of seconds, so it can be found by its command line.
const CASES = [
  { name: 'setsid, keeping stdio', shell: 'setsid sleep 1004 & exec "$0" "$1"', marker: 'sleep 1004', containment: 'process-group' },
  { name: 'double fork + setsid, keeping stdio', shell: '(setsid sleep 1005 &); exec "$0" "$1"', marker: 'sleep 1005', containment: 'process-group' },
  { name: 'setsid, keeping stdio', shell: 'setsid sleep 1006 & exec "$0" "$1"', marker: 'sleep 1006', containment: 'cgroup' },
  // No pipe to find it by and gone from the tree at once: only a cgroup holds this one.
  { name: 'double fork + setsid, stdio closed', shell: '(setsid sleep 1007 </dev/null >/dev/null 2>&1 &); exec "$0" "$1"', marker: 'sleep 1007', containment: 'cgroup' },
];

for (const c of CASES) {
  test(`diagnose of a server with an escapee (${c.name}), ${c.containment} containment: ended, exit within 2 s of the summary`, async (t) => {
    if (c.containment === 'cgroup') assert.ok(cgroups || process.getuid() !== 0, 'root can make cgroups here, so the cgroup path must be tested');
    if (c.containment === 'cgroup' && !cgroups) return; // not root and no delegated subtree: nothing to test here
    const env = c.containment === 'process-group' ? { SPAWNBENCH_CONTAINMENT: 'process-group' } : {};
    // An open loop at a low rate: what is checked is the escapee's end, not the server's figures.
    const sb = startSpawnbench(['diagnose', '-d', '1s', '-w', '0s', '-c', '2', '-r', '20', '--json', '--', 'sh', '-c', c.shell, process.execPath, HEALTHY], { env });
    t.after(sb.removeLog);
    let summaryAt = null;
    sb.child.stdout.on('data', () => { summaryAt = Date.now(); });
    const { code, at } = await sb.exited;
    try {
      assert.equal(code, 0, sb.err());
      assert.ok(summaryAt, 'the summary was printed');
      assert.ok(at - summaryAt < EXIT_AFTER_SUMMARY_MS, `exited ${at - summaryAt} ms after the summary`);
      const { containment } = JSON.parse(sb.out()).target;
      assert.equal(containment.method, c.containment);
      assert.ok(containment.escapees.found >= 1 && containment.escapees.ended >= 1, JSON.stringify(containment));
      assert.deepEqual(containment.escapees.notEnded, []);
      assert.ok(await waitFor(() => processesMatching(c.marker).length === 0, { timeoutMs: 2000 }), `${c.marker} still runs`);
    } finally {
      for (const pid of processesMatching(c.marker)) process.kill(pid, 'SIGKILL');
    }
  });
}

const execdSleep = (pid) => {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim() === 'sleep';
  } catch {
    return false;
  }
};

test('the remembered tree forgets processes that ended, and keeps the ones still running', async (t) => {
  // A group of its own: a shell that runs 20 short commands, one after another, then waits.
  const group = spawn('sh', ['-c', 'for i in $(seq 20); do sleep 0.05; done; exec sleep 1008'], { detached: true, stdio: 'ignore' });
  t.after(() => { try { process.kill(-group.pid, 'SIGKILL'); } catch {} });
  const tree = trackTree(group.pid);
  t.after(tree.stop);
  let most = 0;
  const ended = await waitFor(() => {
    tree.scan();
    most = Math.max(most, tree.seen());
    // Done once the shell has exec'd sleep (its command line names `sleep 1008` from the start,
    // so that alone could match between two of its commands): then only its own pid is left.
    return execdSleep(group.pid) && tree.seen() === 1;
  }, { timeoutMs: 10_000, intervalMs: 20 }).then(() => true, (error) => error);
  assert.equal(ended, true, `seen ${tree.seen()} (at most ${most})`);
  assert.ok(most >= 2, `the short commands were seen while they ran (at most ${most})`);
});

/** Whether the group holds a zombie (a process that ended and was not reaped yet). */
const holdsZombie = (pgid) => procPids().some((pid) => {
  const stat = readStat(pid);
  return stat?.pgrp === pgid && stat.state === 'Z';
});

// A zombie in the group whose parent left the group and never reaps it (an init that reaps
// late leaves zombies the same way): kill(-pgid, 0) still succeeds, but nothing in the group
// runs. The stop does not wait the grace period for it, and ends the parent, an escapee.
for (const method of ['process-group', 'cgroup']) {
  test(`a stop does not wait for a zombie left in the group (${method} containment)`, async (t) => {
    if (method === 'cgroup' && !cgroups) return; // not root and no delegated subtree: nothing to test here
    const saved = process.env.SPAWNBENCH_CONTAINMENT;
    if (method === 'process-group') process.env.SPAWNBENCH_CONTAINMENT = 'process-group';
    // The inner shell starts `sleep 0.1` and becomes `sleep 1009` in a session of its own (it is
    // not its group's leader, so setsid needs no fork); the outer one becomes `sleep 1010`.
    const proc = spawnContained({ command: 'sh', args: ['-c', 'sh -c "sleep 0.1 & exec setsid sleep 1009" & exec sleep 1010'], onStdout: () => {}, onStderr: () => {} });
    if (saved === undefined) delete process.env.SPAWNBENCH_CONTAINMENT;
    else process.env.SPAWNBENCH_CONTAINMENT = saved;
    t.after(() => { for (const pid of [...processesMatching('sleep 1009'), ...processesMatching('sleep 1010')]) process.kill(pid, 'SIGKILL'); });
    await waitFor(() => holdsZombie(proc.pid), { what: () => `a zombie in group ${proc.pid}` });
    const started = Date.now();
    const { containment } = await proc.stop();
    const took = Date.now() - started;
    assert.ok(took < STOP_GRACE_MS, `the stop took ${took} ms: it waited out the ${STOP_GRACE_MS} ms grace for the zombie`);
    assert.equal(containment.method, method);
    assert.ok(containment.escapees.found >= 1 && containment.escapees.ended >= 1, JSON.stringify(containment));
    await waitFor(() => processesMatching('sleep 1009').length === 0 && processesMatching('sleep 1010').length === 0, { timeoutMs: 2000, what: 'sleep 1009 and 1010 to end' });
  });
}

// Not root and no delegated cgroup v2 subtree: a cgroup cannot be made, so there is no cgroup to leave (root here, and in CI).
const NO_CGROUPS = cgroups ? false : 'making a cgroup needs root or a delegated cgroup v2 subtree';

/**
 * Starts `shell` contained, with `other` a cgroup beside the run's for a process to move into; waits until `sleep
 * <escapee>` and `sleep <stayer>` are each running as `sleep` itself (the shell's own command line names both before it
 * forks and execs, and a wait that matched it stopped the group before the child left it: found 0 in a fresh-clone CI
 * run); stops it; returns its containment and whether the escapee is gone.
 * @param {import('node:test').TestContext} t
 * @param {string} name the other cgroup's name
 * @param {(other: string) => string} shell
 * @param {[number, number]} sleeps the escapee's and the stayer's `sleep` seconds (their markers)
 */
async function stopWithEscapee(t, name, shell, [escapee, stayer]) {
  const other = path.join(/** @type {string} */ (ownCgroupDir()), `${name}-${process.pid}`);
  mkdirSync(other);
  t.after(async () => {
    for (const pid of [...processesMatching(`sleep ${escapee}`), ...processesMatching(`sleep ${stayer}`)]) process.kill(pid, 'SIGKILL');
    await removeCgroup(other, 3000);
  });
  const proc = spawnContained({ command: 'sh', args: ['-c', shell(other)], onStdout: () => {}, onStderr: () => {} });
  const running = (args) => processesMatching(args).filter((pid) => cmdlineOf(pid) === args.replace(' ', '\0') + '\0');
  await waitFor(() => running(`sleep ${escapee}`).length === 1 && running(`sleep ${stayer}`).length === 1, { what: `sleep ${escapee} and ${stayer} to start` });
  const { containment } = await proc.stop();
  const gone = await waitFor(() => processesMatching(`sleep ${escapee}`).length === 0, { timeoutMs: 2000 });
  return { containment, gone };
}

test('a server that moves itself out of its cgroup (cgexec, systemd-run --scope) still has its escapee ended', { skip: NO_CGROUPS }, async (t) => {
  // The launcher moved the shell into another cgroup, so cgroup.kill reached nothing: a setsid
  // child that ignores SIGTERM was left running after the run, and escapees.found was 0.
  const { containment, gone } = await stopWithEscapee(t, 'moved-away',
    (other) => `echo $$ > ${other}/cgroup.procs; setsid sh -c 'trap "" TERM; exec sleep 1011' </dev/null >/dev/null 2>&1 & exec sleep 1012`, [1011, 1012]);
  assert.equal(containment.method, 'cgroup');
  assert.ok(containment.escapees.found >= 1 && containment.escapees.ended >= 1, JSON.stringify(containment));
  assert.ok(gone, 'sleep 1011 still runs');
});

test('a child that leaves both its session and the cgroup at once (setsid, then into another cgroup) is still ended', { skip: NO_CGROUPS }, async (t) => {
  // The server stays; its child moved itself out before any read of the cgroup, ignoring SIGTERM: it was left
  // running after the run (found 0). The mark in its environment finds it.
  const { containment, gone } = await stopWithEscapee(t, 'child-moved',
    (other) => `setsid sh -c 'echo $$ > ${other}/cgroup.procs; trap "" TERM; exec sleep 1013' </dev/null >/dev/null 2>&1 & exec sleep 1014`, [1013, 1014]);
  assert.equal(containment.method, 'cgroup');
  assert.ok(containment.escapees.found >= 1 && containment.escapees.ended >= 1, JSON.stringify(containment));
  assert.ok(gone, 'sleep 1013 still runs');
});

test('a child with an environment of its own (env -i) that leaves the cgroup later is still ended: the members are remembered', { skip: NO_CGROUPS }, async (t) => {
  const { containment, gone } = await stopWithEscapee(t, 'child-moved-later',
    (other) => `setsid env -i /bin/sh -c 'trap "" TERM; sleep 0.6; echo $$ > ${other}/cgroup.procs; exec sleep 1015' </dev/null >/dev/null 2>&1 & exec sleep 1016`, [1015, 1016]);
  assert.ok(containment.escapees.found >= 1 && containment.escapees.ended >= 1, JSON.stringify(containment));
  assert.ok(gone, 'sleep 1015 still runs');
});

/** A process's command line as /proc has it (NUL after each argument), or null when it is gone. */
function cmdlineOf(pid) {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, 'latin1');
  } catch {
    return null;
  }
}
