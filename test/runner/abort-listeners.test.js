// A start that waits for a user's server to accept connections listens to the caller's abort
// signal, and stops listening when the wait ends: a tune's signal serves every step, and each
// start used to leave one listener behind (MaxListenersExceededWarning after 11 starts).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { startProcessGroup } from '../../src/runner/process-group.js';
import { findFreePort } from '../../src/runner/free-port.js';

const SERVER = fileURLToPath(new URL('../../fixtures/servers/healthy.js', import.meta.url));

test('each start by TCP readiness removes its abort listener from the caller\'s signal once ready', async () => {
  const controller = new AbortController();
  const before = getEventListeners(controller.signal, 'abort').length;
  for (let i = 0; i < 3; i++) {
    const port = await findFreePort();
    const server = await startProcessGroup({
      command: process.execPath,
      args: [SERVER],
      env: { PORT: String(port) },
      label: 'hello',
      readiness: { port, portSource: 'env', timeoutMs: 30_000, mentionedPorts: [] },
      signal: controller.signal,
    });
    await server.stop();
  }
  assert.equal(getEventListeners(controller.signal, 'abort').length, before, 'no listener left per start');
});
