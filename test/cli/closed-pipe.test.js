// A reader that goes away (`spawnbench --help | head -1`) is not an error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/spawnbench.js', import.meta.url));

test('stdout closed by its reader: no "internal error", exit 0', async () => {
  const child = spawn(process.execPath, [BIN, 'run', '--help'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    stderr += chunk;
  });
  // Hang up before it writes, as `head -1` does once it has its line.
  child.stdout.destroy();
  const [code] = await once(child, 'exit');
  assert.equal(stderr, '');
  assert.equal(code, 0);
});
