// Ctrl-C, SIGTERM or SIGHUP while the server is still starting: spawnbench used to wait
// for the whole --ready-timeout (then exit 1 with the timeout message); diagnose exited 1.
// Now the wait ends at once: nothing left running, exit 130 / 143 / 129.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { startSpawnbench, waitForLog, processTree, stillAlive } from '../helpers/spawnbench-process.js';
import { waitFor } from '../helpers/harness.js';

const FIXTURE_STRATEGIES = fileURLToPath(new URL('../../fixtures/strategies/', import.meta.url));
const NEVER_LISTENS = fileURLToPath(new URL('../../fixtures/servers/never-listens.js', import.meta.url));
/** Far below the 60 s ready-timeout these runs are given, and room for a loaded machine. */
const ENDS_WITHIN_MS = 5_000;

const COMMANDS = [
  { name: 'run (a strategy that never says ready)', args: ['run', '-s', 'never-ready', '--ready-timeout', '60s', '-d', '1s', '--no-dashboard'], started: 'strategy start' },
  { name: 'diagnose (a server that never listens)', args: ['diagnose', '--ready-timeout', '60s', '-d', '1s', '--no-dashboard', '--', process.execPath, NEVER_LISTENS], started: 'server start' },
];
const SIGNALS = [['SIGINT', 130], ['SIGTERM', 143], ['SIGHUP', 129]];

for (const c of COMMANDS) {
  for (const [signal, code] of SIGNALS) {
    test(`${signal} during the readiness wait of ${c.name}: exit ${code} at once, nothing left`, async (t) => {
      const sb = startSpawnbench(c.args, { env: { SPAWNBENCH_STRATEGY_PATH: FIXTURE_STRATEGIES } });
      t.after(sb.removeLog);
      await waitForLog(sb, c.started);
      // The started process exists (its tree is what must be gone afterwards).
      const tree = await waitFor(() => { const p = processTree(sb.child.pid); return p.length ? p : null; }, { timeoutMs: 5000 });
      const sentAt = Date.now();
      sb.child.kill(signal);
      const { code: exitCode, signal: killedBy, at } = await sb.exited;
      assert.equal(killedBy, null, `ended by ${killedBy}, not by its own exit`);
      assert.equal(exitCode, code, sb.err());
      assert.ok(at - sentAt < ENDS_WITHIN_MS, `exited ${at - sentAt} ms after ${signal}`);
      assert.match(sb.err(), /stopped before the load started; nothing was measured/);
      assert.doesNotMatch(sb.err(), /did not report|within 60s|internal error/);
      assert.deepEqual(stillAlive(tree ?? []), []);
    });
  }
}
