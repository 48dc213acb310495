// A real run's --html drawn by a real browser: headless Chromium, 1280 px wide,
// writes a PNG of the page. Chromium comes from the system's packages; where it
// is not installed this test is skipped and says so (the structure of the page
// is checked without a browser in html.test.js).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, readFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../src/cli.js';
import { trackedGroupCount } from '../../src/runner/cleanup.js';
import { fakeIo } from '../helpers/io.js';
import { processesInGroup } from '../helpers/processes.js';
import { waitFor } from '../helpers/harness.js';
import { findChromium, screenshot } from '../../scripts/screenshot.js';

const chromium = findChromium();
const dir = mkdtempSync(join(tmpdir(), 'spawnbench-chromium-test-'));
after(() => rmSync(dir, { recursive: true, force: true }));

test('run --html: headless Chromium draws the page at 1280 px', { skip: chromium ? false : 'chromium is not installed (apt-get install chromium)' }, async () => {
  const html = join(dir, 'r.html');
  const io = fakeIo();
  const code = await runCli(['run', '--strategy', 'baseline', '--duration', '1s', '--warmup', '200ms', '--connections', '4', '--html', html], io);
  assert.equal(code, 0, io.err());
  assert.equal(trackedGroupCount(), 0);
  const png = join(dir, 'r.png');
  const { pid } = await screenshot(chromium, html, png, { width: 1280, height: 900 });
  assert.ok(existsSync(png));
  const bytes = readFileSync(png);
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
  assert.equal(bytes.readUInt32BE(16), 1280, 'IHDR width');
  assert.equal(bytes.readUInt32BE(20), 900, 'IHDR height');
  // A blank page compresses to a few KB; charts, text and tables do not.
  assert.ok(bytes.length > 30_000, `${bytes.length} bytes: the page looks empty`);
  await waitFor(() => processesInGroup(pid).length === 0, { what: `chromium left running in group ${pid}` });
});
