// A server that a launcher restarts (nodemon) is followed to its successor, and the successor is
// read in the sample that finds it: followed only after the read, it was left out of that sample,
// and under load a child the launcher replaced within one interval was in no sample at all (a
// diagnose of the restarts fixture had no `main` process; 1 run of 8 at load 14). A real launcher
// here: it runs one child, and on SIGUSR2 ends it and starts another.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { startSampler } from '../../src/sample/index.js';
import { isAlive } from '../helpers/processes.js';
import { waitFor } from '../helpers/harness.js';

const LAUNCHER = `
const { spawn } = require('node:child_process');
let child;
const start = () => {
  child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
  console.log(child.pid);
};
start();
process.on('SIGUSR2', () => { child.once('exit', start); child.kill('SIGKILL'); });
process.on('SIGTERM', () => { child.kill('SIGKILL'); process.exit(0); });
`;

test('the successor of a restarted server is in the sample that follows it, with the main role', async () => {
  const launcher = spawn(process.execPath, ['-e', LAUNCHER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const pids = [];
  createInterface({ input: launcher.stdout }).on('line', (line) => pids.push(Number(line)));
  let sampler = null;
  try {
    await waitFor(() => pids.length === 1, { what: 'the first child' });
    // findServer() names the process that listens; here the launcher's newest child.
    sampler = startSampler({ rootPid: launcher.pid, serverPid: pids[0], launchers: [{ pid: launcher.pid, name: 'launcher' }], intervalMs: 100, findServer: () => pids.at(-1) });
    const samples = [];
    sampler.on('sample', (s) => samples.push(s));
    await waitFor(() => samples.length >= 2, { what: 'two samples' });
    launcher.kill('SIGUSR2');
    await waitFor(() => pids.length === 2, { what: 'the second child' });
    await waitFor(() => samples.some((s) => s.processes.some((p) => p.pid === pids[1])), { what: 'a sample of the second child' });
    const summary = await sampler.stop();
    sampler = null;
    assert.deepEqual(summary.serverRestarts.map((r) => [r.from, r.to]), [[pids[0], pids[1]]]);
    const found = samples.find((s) => s.t === summary.serverRestarts[0].t);
    assert.ok(found, `the sample that followed the restart: ${JSON.stringify(samples.map((s) => s.t))}`);
    const successor = found.processes.find((p) => p.pid === pids[1]);
    assert.ok(successor, `the successor ${pids[1]} is read in the sample that followed it: ${JSON.stringify(found.processes.map((p) => [p.pid, p.role]))}`);
    assert.equal(successor.role, 'main');
    assert.ok(!found.processes.some((p) => p.pid === pids[0]), 'the replaced child is gone from that sample');
  } finally {
    await sampler?.stop();
    launcher.kill('SIGTERM');
    await once(launcher, 'exit');
    await waitFor(() => !pids.some(isAlive), { what: 'the children to end' });
  }
});
