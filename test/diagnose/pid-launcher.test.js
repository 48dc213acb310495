// diagnose --url with --pid of a launcher above the server (sh -c '…; true', npm, a subshell's $!): the process
// that listens below it is the server, sampled as `main`, and the launcher is named as one. Sampled as the
// server, the launcher's 0% CPU stood beside the server's own main thread, and a pbkdf2 server whose
// threadpool filled the cores read "requests wait on I/O or a downstream".
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { connect } from 'node:net';
import { readFileSync } from 'node:fs';
import { findFreePort } from '../../src/runner/free-port.js';
import { cli, fixtureServer, waitFor } from '../helpers/harness.js';
import { processesMatching } from '../helpers/processes.js';

const accepts = (port) => new Promise((resolve) => {
  const socket = connect(port, '127.0.0.1', () => { socket.destroy(); resolve(true); }).on('error', () => resolve(false));
});

test('--pid of a shell that started the server: the process that listens is main, the shell a launcher', async () => {
  const port = await findFreePort();
  const file = fixtureServer('slow-downstream');
  // `; true` keeps sh from exec-ing node: the pid given is the shell's, its child listens.
  const shell = spawn('sh', ['-c', '"$0" "$1"; true', process.execPath, file], { env: { ...process.env, PORT: String(port) }, detached: true, stdio: 'ignore' });
  try {
    await waitFor(() => accepts(port), { what: `the server to accept connections on port ${port}` });
    const { code, out, err } = await cli('diagnose', '--url', `http://127.0.0.1:${port}/`, '--pid', String(shell.pid), '-d', '1s', '-w', '0', '--rate', '20', '--json');
    assert.equal(code, 0, err);
    const result = JSON.parse(out);
    const main = result.samples.processes.find((p) => p.role === 'main');
    const node = Number(readFileSync(`/proc/${shell.pid}/task/${shell.pid}/children`, 'utf8').trim());
    assert.equal(main?.pid, node, `main is the node that listens (${node}), not the shell (${shell.pid})`);
    assert.deepEqual(result.samples.processes.filter((p) => p.role === 'launcher').map((p) => p.pid), [shell.pid]);
  } finally {
    process.kill(-shell.pid, 'SIGKILL');
    await once(shell, 'exit');
  }
  await waitFor(() => processesMatching(file).length === 0, { what: 'the server to be gone' });
});

test('--pid of a node:cluster primary: its workers are sampled as workers, not left out beside "main CPU 0%"', async () => {
  const port = await findFreePort();
  const file = fixtureServer('cluster-env');
  const primary = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port), WORKERS: '2' }, detached: true, stdio: 'ignore' });
  try {
    await waitFor(() => accepts(port), { what: `the server to accept connections on port ${port}` });
    const { code, out, err } = await cli('diagnose', '--url', `http://127.0.0.1:${port}/`, '--pid', String(primary.pid), '-d', '1s', '-w', '0', '--rate', '20', '--json');
    assert.equal(code, 0, err);
    const processes = JSON.parse(out).samples.processes;
    assert.equal(processes.find((p) => p.role === 'main')?.pid, primary.pid);
    const children = readFileSync(`/proc/${primary.pid}/task/${primary.pid}/children`, 'utf8').trim().split(/\s+/).map(Number).sort();
    assert.deepEqual(processes.filter((p) => p.role === 'worker').map((p) => p.pid).sort(), children);
  } finally {
    process.kill(-primary.pid, 'SIGKILL');
    await once(primary, 'exit');
  }
  await waitFor(() => processesMatching(file).length === 0, { what: 'the server to be gone' });
});
