// A strategy that cannot start because the process limit is reached (issue #25, defect 3):
// one line naming the limit, exit 1, nothing left running; not a 15 s wait for a port that
// never comes (a Node short of threads waits forever) nor Node's native assertion stack.
// The limit is set with prlimit (util-linux); RLIMIT_NPROC does not bind root, so as root
// the case runs as `nobody` through setpriv (util-linux too). Each tool missing: skipped, named.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { BIN, findOnPath, waitFor } from '../helpers/harness.js';
import { processesMatching } from '../helpers/processes.js';
import { ownStartFailure } from '../../src/runner/start-limits.js';
import { RunError } from '../../src/base/errors.js';

const NOBODY = 65534;

const FORK_POOL = ['-s', 'fork-pool', '-p', '2'];

/** spawnbench run under `--nproc=limit`, as this user or (root) as nobody; `target`: what it runs (a strategy, or `--` and a command). */
async function runUnderProcessLimit(t, limit, target = FORK_POOL, marker = '/strategies/fork-pool/') {
  const prlimit = findOnPath('prlimit');
  if (!prlimit) return t.skip('prlimit (util-linux) is not installed');
  const asRoot = process.getuid() === 0;
  const setpriv = asRoot ? findOnPath('setpriv') : null;
  if (asRoot && !setpriv) return t.skip('setpriv (util-linux) is not installed: root is not held to a process limit, and the case needs another user');
  // A Node short of a thread may wait for it forever: the readiness timeout then says the limit.
  const command = [prlimit, `--nproc=${limit}:${limit}`, process.execPath, BIN, 'run', '-d', '1s', '-w', '200ms', '--ready-timeout', '6s', '--no-dashboard', ...target];
  const argv = asRoot ? [setpriv, `--reuid=${NOBODY}`, `--regid=${NOBODY}`, '--clear-groups', ...command] : command;
  const child = spawn(argv[0], argv.slice(1), { env: { ...process.env, HOME: '/tmp', TMPDIR: '/tmp' }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c) => (out += c));
  const [code] = await once(child, 'exit');
  await waitFor(() => processesMatching(marker).filter((pid) => uidOf(pid) === (asRoot ? NOBODY : process.getuid())).length === 0, { what: 'the strategy to be gone' });
  return { code, out };
}

function uidOf(pid) {
  try {
    return Number(/^Uid:\s+(\d+)/m.exec(readFileSync(`/proc/${pid}/status`, 'latin1'))?.[1]);
  } catch {
    return null;
  }
}

for (const limit of [15, 30]) {
  test(`a strategy started under ulimit -u ${limit}: one line naming the process limit, exit 1`, async (t) => {
    const ran = await runUnderProcessLimit(t, limit);
    if (!ran) return;
    t.diagnostic(ran.out);
    assert.equal(ran.code, 1);
    assert.match(ran.out, new RegExp(`^spawnbench: strategy 'fork-pool' could not start: the process limit \\(ulimit -u ${limit}\\) (was reached|leaves room for only \\d+ more) .*; raise it with \`ulimit -u\`, or run fewer workers( \\(--pool-size\\))?$`, 'm'));
    assert.doesNotMatch(ran.out, /Native stack trace|did not report a listening port/);
  });
}

// A node:cluster server: a worker short of threads aborts (SIGABRT), often without a word,
// and its primary exits with another worker's EPIPE stack; or waits for its thread forever;
// or spawnbench's own load generator threads cannot start (EAGAIN). Either way one line
// names the limit. A Node that needs fewer threads (Node 26) may start under 40 or 45 and
// then fail the spawns per request instead: then the run's Spawns line names the limit.
for (const limit of [25, 40, 45]) {
  test(`a node:cluster server started under ulimit -u ${limit}: one line naming the process limit, no stack`, async (t) => {
    const server = fileURLToPath(new URL('../../fixtures/servers/cluster-env.js', import.meta.url));
    const ran = await runUnderProcessLimit(t, limit, ['--', process.execPath, server], server);
    if (!ran) return;
    t.diagnostic(ran.out);
    const started = /^Requests /m.test(ran.out);
    if (started && limit > 25) {
      assert.equal(ran.code, 0);
      assert.match(ran.out, new RegExp(`^Spawns {5}spawn echo: EAGAIN ×[\\d,]+: the process limit \\(ulimit -u ${limit}\\) was reached$`, 'm'));
    } else {
      assert.equal(ran.code, 1);
      assert.match(ran.out, new RegExp(`^spawnbench: ('.*cluster-env\\.js'|the load generator) could not start: the process limit \\(ulimit -u ${limit}\\) (was reached|leaves room for only \\d+ more)`, 'm'));
    }
    assert.doesNotMatch(ran.out, /Native stack trace|\n\s+at |EPIPE|exited with code|^spawnbench: EAGAIN/m);
  });
}

test('the user\'s server whose own fork failed with EAGAIN (ulimit -u 11: spawnbench fits, its server does not): one line naming the limit', () => {
  // Seen as nobody under `ulimit -u 11`: "'node fork.js' could not be started: spawn node EAGAIN", no limit named.
  const eagain = Object.assign(new Error('spawn node EAGAIN'), { code: 'EAGAIN', syscall: 'spawn node' });
  const reading = { uid: NOBODY, limit: () => 11, tasks: () => 11 };
  const said = ownStartFailure("'node fork.js'", eagain, reading);
  assert.ok(said instanceof RunError);
  assert.equal(said.message, "'node fork.js' could not start: the process limit (ulimit -u 11) was reached (11 processes and threads of this user run; each Node process needs ~10 threads); raise it with `ulimit -u`, or run fewer workers (--pool-size)");
  // The message alone says it too (a Worker's error has no code).
  assert.ok(ownStartFailure('the load generator', new Error('spawn node EAGAIN'), reading) instanceof RunError);
  // Root is not held to the limit; another errno is not the limit's; no limit read: the error as it was.
  assert.equal(ownStartFailure('x', eagain, { ...reading, uid: 0 }), eagain);
  const enoent = Object.assign(new Error('spawn nod ENOENT'), { code: 'ENOENT' });
  assert.equal(ownStartFailure('x', enoent, reading), enoent);
  assert.equal(ownStartFailure('x', eagain, { ...reading, limit: () => undefined }), eagain);
});
