import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { openProbeChannel } from '../../src/probe/channel.js';
import { groupAlive } from './helpers/servers.js';

const channel = await openProbeChannel({ intervalMs: 250 });
after(() => channel.close());

test('probe reports never reach the strategy\'s own message handlers', async () => {
  const reports = [];
  channel.on('report', (r) => reports.push(r));
  const child = spawn(process.execPath, [new URL('./fixtures/ipc-pair.js', import.meta.url).pathname], {
    env: { ...process.env, ...channel.env },
    stdio: ['ignore', 'pipe', 'inherit'],
    detached: true,
  });
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (c) => (stdout += c));
  const [code] = await once(child, 'exit');
  assert.equal(code, 0);
  assert.equal(groupAlive(child.pid), false);

  const seen = JSON.parse(stdout);
  const isOwn = (m) => m === 'ping' || m === 'report';
  assert.ok(seen.child.length >= 5 && seen.child.every(isOwn), `forked child saw only its own messages: ${JSON.stringify(seen.child)}`);
  assert.ok(seen.thread.every(isOwn), `eval thread saw only its own messages: ${JSON.stringify(seen.thread)}`);
  assert.ok(seen.fileThread.every(isOwn), `file thread saw only its own messages: ${JSON.stringify(seen.fileThread)}`);
  assert.ok(
    seen.main.every(({ message }) => message.echo === 'ping' || Array.isArray(message.seen)),
    'the main process saw only its children\'s replies',
  );

  // ...while the probes were running in all four places.
  const where = new Set(reports.map((r) => `${r.pid === child.pid ? 'main' : 'child'}:${r.isMainThread ? 'process' : r.source}`));
  assert.deepEqual([...where].sort(), ['child:process', 'main:parent', 'main:probe', 'main:process']);
});
