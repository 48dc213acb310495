// The server's downstreams are read once a second in the measured phase; a phase with no read (a short one, or
// ticks a loaded machine delayed) is read once at its end, while the server still runs, rather than naming no
// downstream: a loaded CI run's 2 s diagnose of a cluster holding 18 PostgreSQL connections named none.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createWideScan } from '../../src/sample/index.js';

/** A child process running `code`, with its first stdout line. */
async function child(code, env = {}) {
  const proc = spawn(process.execPath, ['-e', code], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = await once(proc.stdout.setEncoding('utf8'), 'data');
  return { proc, line: String(line).trim() };
}

test('a measured phase with no downstream read is read once at its end', async () => {
  const downstream = await child("const s = require('net').createServer((c) => c.resume()).listen(0, '127.0.0.1', () => console.log(s.address().port));");
  const server = await child("const c = require('net').connect(Number(process.env.P), '127.0.0.1', () => console.log('connected'));", { P: downstream.line });
  try {
    const wide = createWideScan(server.proc.pid);
    // A tick before the measured phase, then the phase's start (reset), and its end with no tick in between.
    wide.maybeScan([server.proc.pid]);
    wide.reset();
    const { downstreams } = wide.summary();
    assert.deepEqual(downstreams.map((d) => [d.peer, d.connections]), [[`127.0.0.1:${downstream.line}`, 1]], JSON.stringify(downstreams));
  } finally {
    server.proc.kill();
    downstream.proc.kill();
    await Promise.all([once(server.proc, 'exit'), once(downstream.proc, 'exit')]);
  }
});
