// test: run alone (its advice reads the whole machine's CPU: another test file's servers beside
// the loop would fill the cores, and then "the cores are the limit" is the right advice, not this)
// Outside load does not flip a single process's advice (issue 37): a busy loop using 0.3 of a
// core beside a Fastify server whose one route fills its main thread, on an otherwise quiet
// machine; run still advises 2 processes, as it does without the loop.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after } from 'node:test';
import { spawnCli } from '../helpers/harness.js';
import { assertNothingLeft, busyLoop, stopLoop, BUSY_LOOP_NAME } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'spawnbench-outside-process-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('a busy loop at ~0.3 of a core beside a single process whose route fills its main thread: still 2 processes', async () => {
  const loop = busyLoop();
  const server = fileURLToPath(new URL('../../fixtures/servers/fastify-cpu-route.cjs', import.meta.url));
  try {
    // ~3 ms of JavaScript a request (3,000 hashes, not 14,000): a few hundred req/s, so 3 s holds the
    // responses a run needs to advise (at 13 ms a request, 3 s was too-short).
    const out = join(dir, 'cpu-route.json');
    const { code, err } = await spawnCli(['run', '-d', '3s', '-w', '1s', '--out', out, '--', process.execPath, server], { env: { ...process.env, CI: 'true', CPU_ROUTE_ROUNDS: '3000' } });
    assert.equal(code, 0, err);
    const result = JSON.parse(readFileSync(out, 'utf8'));
    const rec = result.recommendation;
    const main = result.samples.processes.find((p) => p.role === 'main')?.summary ?? {};
    const why = JSON.stringify({
      size: rec.size, reasons: rec.reasons.map((r) => [r.id, r.figures?.limit]), others: result.samples.otherUsers, cpus: result.samples.system.cpus,
      main: { elu: main.elu, busy: main.busy, waitPct: main.waitPct }, rps: result.load.rps,
    });
    assert.equal(rec.size, 2, why);
    assert.ok(rec.reasons.some((r) => r.id === 'more-processes'), why);
    const loopSeen = result.samples.otherUsers.users.find((u) => u.name === BUSY_LOOP_NAME);
    assert.ok(loopSeen && loopSeen.cores > 0.15 && loopSeen.cores < 0.6, `the loop is seen using ~0.3 of a core: ${why}`);
    await assertNothingLeft({ pids: [result.target.pid], marker: server });
  } finally {
    await stopLoop(loop);
  }
});
