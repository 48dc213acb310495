// The run's temp directory: strategies keep files there (comm-channel's socket
// files under a bun main with node workers), and spawnbench removes it even when
// the strategy was killed before it could clean up.
import { test, before as beforeAll, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { run } from 'spawnbench';
import { runtimePath, missingRuntime } from '../helpers/runtimes.js';
import { processesInGroup } from '../helpers/processes.js';
import { waitFor } from '../helpers/harness.js';

// bun from the runtime cache (test/helpers/runtimes.js); the run is given its path.
const bun = runtimePath('bun');

// A temp folder of this test's own (TMPDIR, which os.tmpdir() reads on every call):
// other spawnbench runs on a shared machine make and remove their own run
// directories in /tmp, and must not count as this run's. Its name is long on purpose
// (~36 bytes with /tmp): comm-channel's socket paths must still fit in sun_path under it.
const systemTmp = tmpdir();
const savedTmpdir = process.env.TMPDIR;
let ownTmp;
beforeAll(() => {
  ownTmp = mkdtempSync(path.join(systemTmp, 'spawnbench-temp-dir-test-'));
  process.env.TMPDIR = ownTmp;
});
after(() => {
  if (savedTmpdir === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmpdir;
  rmSync(ownTmp, { recursive: true, force: true });
});

const runDirs = () => new Set(readdirSync(tmpdir()).filter((name) => name.startsWith('spawnbench-run-')));

/** The parent pid of a process, from /proc/<pid>/stat (the field after the parenthesised name). */
const parentOf = (pid) => Number(readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ')[1]);

test('a normal run removes the temp directory it made for the strategy', async () => {
  assert.equal(tmpdir(), ownTmp);
  const before = runDirs();
  // An open loop at a low rate: the temp directory's end is checked, not the server's figures.
  const result = await run({ strategy: 'baseline', duration: '500ms', warmup: '100ms', connections: 2, rate: 20 });
  assert.equal(result.load.errors.total, 0);
  assert.deepEqual([...runDirs()].filter((d) => !before.has(d)), []);
});

test('comm-channel on bun with node workers, killed mid-run: its socket files go with the run', { skip: missingRuntime('bun') }, async () => {
  const before = runDirs();
  let killed = null;
  let socketDir = null;
  const events = [];
  const outcome = run(
    { strategy: 'comm-channel', runtime: bun, workerRuntime: 'node', poolSize: 2, duration: '20s', warmup: '0s', connections: 2 },
    {
      onEvent(name, payload) {
        events.push(name);
        if (name !== 'workers' || killed || payload.length === 0) return;
        const main = parentOf(payload[0].pid);
        const made = [...runDirs()].filter((d) => !before.has(d));
        if (made.length !== 1) return;
        const inside = readdirSync(path.join(tmpdir(), made[0])).filter((d) => d.startsWith('comm-'));
        if (inside.length === 0) return;
        socketDir = path.join(tmpdir(), made[0], inside[0]);
        killed = main;
        process.kill(main, 'SIGKILL');
      },
    },
  );
  const result = await outcome;
  assert.notEqual(result.exitCode, 0);
  assert.match(JSON.stringify(result.failures), /killed by SIGKILL/);
  assert.ok(killed, `the strategy was killed (events: ${[...new Set(events)].join(', ')})`);
  assert.ok(socketDir && !existsSync(socketDir), 'the socket files are gone');
  assert.deepEqual([...runDirs()].filter((d) => !before.has(d)), [], 'no run directory is left');
  await waitFor(() => processesInGroup(killed).length === 0, { what: 'the workers to be gone too' });
});
