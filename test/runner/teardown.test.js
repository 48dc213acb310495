// The exit paths of a real spawnbench process: normal end, Ctrl-C (SIGINT), SIGTERM.
// Every process the run started (strategy, its children) must be gone afterwards.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { descendants, waitFor } from '../helpers/processes.js';

const BIN = fileURLToPath(new URL('../../bin/spawnbench.js', import.meta.url));

function start(args) {
  const child = spawn(process.execPath, [BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, CI: 'true' } });
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  const seen = new Set();
  const watch = setInterval(() => descendants(child.pid).forEach((p) => seen.add(p)), 50);
  const exited = once(child, 'exit').then(([code, signal]) => {
    clearInterval(watch);
    return { code, signal, out, err };
  });
  return { child, seen, exited };
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function assertAllGone(seen) {
  assert.ok(seen.size > 0, 'the run started processes');
  const gone = await waitFor(() => [...seen].every((p) => !alive(p)), { timeoutMs: 5000 });
  assert.ok(gone, `still alive: ${[...seen].filter(alive)}`);
}

for (const [signal, exitCode] of [['SIGINT', 130], ['SIGTERM', 143]]) {
  test(`${signal} stops the run, prints the summary, leaves nothing behind`, async () => {
    const run = start(['--strategy', 'baseline', '--duration', '60s', '--warmup', '0s', '--connections', '4', '--no-dashboard']);
    // Wait until the strategy has spawned workload commands under load: beyond the strategy
    // and its group's watchdog (a `sh` spawnbench starts with it), at least one more.
    assert.ok(await waitFor(() => run.seen.size >= 3, { timeoutMs: 15_000 }), 'strategy started');
    await new Promise((r) => setTimeout(r, 1000));
    run.child.kill(signal);
    const { code, out, err } = await run.exited;
    assert.equal(code, exitCode, err);
    assert.match(out, /Requests\s+[\d,]+/);
    assert.match(out, /stopped early/);
    await assertAllGone(run.seen);
  });
}

test('a normal end leaves nothing behind', async () => {
  const run = start(['--strategy', 'baseline', '--duration', '1s', '--warmup', '0s', '--connections', '2', '--no-dashboard']);
  const { code, out, err } = await run.exited;
  assert.equal(code, 0, err);
  assert.match(out, /Errors\s+none/);
  await assertAllGone(run.seen);
});
