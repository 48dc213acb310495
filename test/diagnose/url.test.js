// diagnose --url: a server that already runs (started here, on a free port), seen
// from outside: with --pid its CPU from /proc, without it only the latency shape;
// either way the report says what could not be seen without the probe.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { runCli } from '../../src/cli.js';
import { findFreePort } from '../../src/diagnose/free-port.js';
import { accepts } from '../../src/diagnose/wait-listening.js';
import { fakeIo } from '../helpers/io.js';
import { waitFor, processesMatching } from '../helpers/processes.js';
import { unlessCrowded } from './crowded.js';

const SERVERS = ['cpu-burn', 'slow-downstream'];
const servers = {};

before(async () => {
  for (const name of SERVERS) {
    const port = await findFreePort();
    const file = fileURLToPath(new URL(`../../fixtures/servers/${name}.js`, import.meta.url));
    const child = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port) }, stdio: 'ignore' });
    servers[name] = { child, port, file };
    assert.ok(await waitFor(() => accepts('127.0.0.1', port), { timeoutMs: 5000 }), `${name} did not start`);
  }
});

after(async () => {
  for (const { child, file } of Object.values(servers)) {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGKILL');
      await once(child, 'exit');
    }
    assert.equal(processesMatching(file).length, 0);
  }
});

async function diagnoseUrl(name, ...extra) {
  const io = fakeIo();
  const url = `http://127.0.0.1:${servers[name].port}/`;
  const code = await runCli(['diagnose', '--url', url, '--duration', '1500ms', '--warmup', '300ms', '--json', ...extra], io);
  assert.equal(code, 0, io.err());
  return JSON.parse(io.out());
}

test('--url with --pid: a CPU-burning server is CPU-bound from outside, the probe figures are listed as not seen', async (t) => {
  const result = await unlessCrowded(t, () => diagnoseUrl('cpu-burn', '--pid', String(servers['cpu-burn'].child.pid)));
  if (!result) return;
  assert.equal(result.target.kind, 'url');
  assert.equal(result.diagnosis.verdict.id, 'cpu-bound', JSON.stringify(result.diagnosis));
  assert.match(result.diagnosis.verdict.evidence.join('\n'), /cannot tell JavaScript from time blocked in spawn or GC/);
  assert.match(result.diagnosis.notSeen.join('\n'), /no probe in the server/);
  assert.ok(servers['cpu-burn'].child.exitCode === null, 'a server diagnose did not start is left running');
});

test('--url without --pid: slow responses, cause not visible, and "pass --pid" as the next step', async () => {
  const result = await diagnoseUrl('slow-downstream');
  assert.equal(result.diagnosis.verdict.id, 'slow-unexplained', JSON.stringify(result.diagnosis));
  assert.match(result.diagnosis.notSeen.join('\n'), /pass its process id with --pid/);
});

test('--url with --pid of an idle server: waiting on a downstream', async () => {
  const result = await diagnoseUrl('slow-downstream', '--pid', String(servers['slow-downstream'].child.pid));
  assert.equal(result.diagnosis.verdict.id, 'downstream-wait', JSON.stringify(result.diagnosis));
});
