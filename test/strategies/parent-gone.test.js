// A pool worker whose main is killed while it sends: the send fails (EPIPE) before 'disconnect' is seen. Unhandled, the
// worker died with a stack trace, and that trace was the stderr quoted for the strategy ("killed by SIGKILL … its stderr
// ends: at target._send …") in place of the main's own reason. The worker now exits quietly, and is gone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { waitFor } from '../helpers/harness.js';

test('a worker sending as its main is SIGKILLed exits without an unhandled EPIPE, and is gone', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'parent-gone-'));
  try {
    const fork = pathToFileURL(join(import.meta.dirname, '../../strategies/lib/fork.js')).href;
    // Busy 20 ms, then a send: the main dies inside the busy part, so the send comes before the read that sees it gone.
    writeFileSync(join(dir, 'worker.mjs'), `import { onParentGone } from '${fork}';\nonParentGone();\n` +
      "setInterval(() => { const t = Date.now() + 20; while (Date.now() < t); process.send('x'); }, 0);\n");
    const main = "const { fork } = require('node:child_process'); const c = fork(process.argv[1], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });" +
      "console.log(c.pid); c.on('message', () => {}); setTimeout(() => process.kill(process.pid, 'SIGKILL'), 300);";
    for (let i = 0; i < 2; i++) {
      const r = spawnSync(process.execPath, ['-e', main, join(dir, 'worker.mjs')], { encoding: 'utf8', timeout: 10_000 });
      const pid = Number(r.stdout.trim());
      assert.ok(pid > 0, r.stdout);
      await waitFor(() => !existsSync(`/proc/${pid}`) || /\) Z /.test(readStat(pid)), { what: `worker ${pid} gone`, timeoutMs: 5000 });
      assert.doesNotMatch(r.stderr, /Unhandled 'error'|EPIPE/, r.stderr);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** @param {number} pid */
function readStat(pid) {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return '';
  }
}
