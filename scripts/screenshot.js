#!/usr/bin/env node
// The README's picture of an HTML report, made from a real run:
//   npm run docs:screenshot [-- --out docs/run-report.png --height 2150]
// runs `spawnbench run --strategy fork-pool --pool-size 3 --html <tmp>/run.html`,
// has headless Chromium draw it 1280 px wide, and writes the PNG (through
// pngquant when it is installed, to keep it small). Chromium comes from the
// system's packages (Debian: apt-get install chromium); without it, one line
// says so and the script exits 1. The test of the HTML in a real browser
// (test/gates/chromium.test.js) uses screenshot() below.
import { spawn, execFileSync } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, rmSync, copyFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];
// Longest a headless screenshot may take on a loaded 2-core machine, in ms (it takes ~2–7 s).
const CHROMIUM_TIMEOUT_MS = 60_000;

/** The first Chromium on PATH, or null. */
export function findChromium() {
  for (const name of NAMES) {
    try {
      return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim() || null;
    } catch {
      // not this one
    }
  }
  return null;
}

/**
 * Draws an HTML file with headless Chromium into a PNG. Chromium runs in its own
 * process group, killed whole if it overruns, so none of its helpers outlive it.
 * @param {string} chromium path
 * @param {string} htmlPath
 * @param {string} pngPath
 * @param {{ width?: number, height?: number }} [size]
 * @returns {Promise<{ pid: number }>} the group Chromium ran in (for "nothing left" checks)
 */
export async function screenshot(chromium, htmlPath, pngPath, { width = 1280, height = 1780 } = {}) {
  const profile = mkdtempSync(join(tmpdir(), 'spawnbench-chromium-'));
  const child = spawn(chromium, [
    '--headless', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--no-first-run',
    `--user-data-dir=${profile}`, `--window-size=${width},${height}`, `--screenshot=${pngPath}`,
    pathToFileURL(htmlPath).href,
  ], { stdio: 'ignore', detached: true });
  const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), CHROMIUM_TIMEOUT_MS);
  try {
    const [code, signal] = await once(child, 'exit');
    if (code !== 0) throw new Error(`chromium exited with ${signal ?? code}`);
  } finally {
    clearTimeout(timer);
    try {
      process.kill(-child.pid, 'SIGKILL'); // helpers still in the group
    } catch {
      // the group is empty: the normal case
    }
    rmSync(profile, { recursive: true, force: true });
  }
  return { pid: child.pid };
}

async function main() {
  const { values } = parseArgs({ options: { out: { type: 'string', default: 'docs/run-report.png' }, height: { type: 'string', default: '2150' } } });
  const chromium = findChromium();
  if (!chromium) {
    console.error('docs:screenshot: Chromium is not on PATH; install it (Debian: apt-get install chromium) and run again');
    process.exit(1);
  }
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-screenshot-'));
  try {
    const html = join(dir, 'run.html');
    const run = spawn(process.execPath, ['bin/spawnbench.js', 'run', '--strategy', 'fork-pool', '--pool-size', '3', '--no-dashboard', '--html', html], { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
    const [code] = await once(run, 'exit');
    if (code !== 0) throw new Error(`spawnbench run exited with ${code}`);
    const png = join(dir, 'run.png');
    await screenshot(chromium, html, png, { height: Number(values.height) });
    const out = join(ROOT, values.out);
    try {
      execFileSync('pngquant', ['--quality', '70-90', '--speed', '1', '--force', '--output', out, png], { stdio: 'ignore' });
    } catch {
      copyFileSync(png, out); // no pngquant: the PNG as Chromium wrote it (~300 KB)
    }
    console.log(`docs:screenshot: ${values.out} (${Math.round(statSync(out).size / 1024)} KB)`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await main();
