/**
 * The Go reference server for bench:strategies: built from bench/go-reference/
 * (standard library only) into a temp dir when `go` is on PATH, started per
 * cell like a strategy (ready line on stdout, exits when its stdin closes), and
 * measured from /proc: its own CPU (all threads) and its reaped children's
 * (the commands it spawned), in clock ticks.
 */
import { spawn, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { readStat, procUnits } from '../src/sample/proc.js';

const SOURCE = fileURLToPath(new URL('./go-reference/', import.meta.url));
/** A cold `go build` of net/http took ~25 s on the 2-core machine; a loaded one may take twice that. */
const BUILD_TIMEOUT_MS = 180_000;
const READY_TIMEOUT_MS = 10_000;

/**
 * Builds the reference server.
 * @returns {{ binary: string, cleanup: () => void } | { skipped: string }}
 */
export function buildGoReference() {
  let go;
  try {
    go = execFileSync('sh', ['-c', 'command -v go'], { encoding: 'utf8' }).trim();
  } catch {
    return { skipped: 'no Go reference: `go` is not on PATH (install Go to get the reference row)' };
  }
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-go-'));
  const binary = join(dir, 'go-reference');
  try {
    execFileSync(go, ['build', '-o', binary, '.'], {
      cwd: SOURCE, stdio: ['ignore', 'ignore', 'pipe'], timeout: BUILD_TIMEOUT_MS,
      // No network: the reference needs the standard library only.
      env: { ...process.env, GOPROXY: 'off', GOTOOLCHAIN: 'local' },
    });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const why = error.stderr?.toString().trim().split('\n')[0] || error.message.split('\n')[0];
    return { skipped: `no Go reference: go build failed: ${why}` };
  }
  return { binary, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/**
 * Starts the reference server for one workload and waits for its ready line.
 * @param {string} binary
 * @param {{ command: string, args: string[] }} workload
 * @returns {Promise<{ url: string, pid: number, cpuTicks: () => { self: number, children: number } | null, stop: () => Promise<void> }>}
 */
export async function startGoReference(binary, { command, args }) {
  const child = spawn(binary, [command, ...args], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr = (stderr + chunk).slice(-2000)));
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Go reference not ready after ${READY_TIMEOUT_MS} ms`)), READY_TIMEOUT_MS);
    child.once('error', (error) => reject(new Error(`Go reference could not start: ${error.message}`)));
    exited.then((code) => reject(new Error(`Go reference exited (${code}) before it was ready: ${stderr.trim()}`)));
    createInterface({ input: child.stdout }).once('line', (line) => {
      clearTimeout(timer);
      try {
        resolve(JSON.parse(line).port);
      } catch {
        reject(new Error(`Go reference printed ${JSON.stringify(line)} instead of its ready line`));
      }
    });
  }).catch(async (error) => {
    killGroup(child.pid);
    await exited;
    throw error;
  });
  return {
    url: `http://127.0.0.1:${port}/`,
    pid: child.pid,
    cpuTicks() {
      const stat = readStat(child.pid);
      return stat && { self: stat.utime + stat.stime, children: stat.cutime + stat.cstime };
    },
    async stop() {
      child.stdin.end(); // its way to exit; the group kill is for anything left
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 1000).unref())]);
      killGroup(child.pid);
      await exited;
    },
  };
}

function killGroup(pid) {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // already gone
  }
}

/** Clock ticks to milliseconds. */
export function ticksToMs(ticks) {
  return (ticks * 1000) / procUnits().ticksPerSec;
}
