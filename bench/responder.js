/**
 * bench:generator's fast responder, bench/responder/hello.c, built when a C compiler
 * (`cc`) is on PATH: "hi\n" to every request from one thread on epoll, cheaper per
 * request than any load generator, so that the generator is the bottleneck the bench
 * measures (a Go net/http responder pinned to one core answered slower than one core
 * of wrk asked, and every tool then measured its idle wake-ups).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SOURCE = fileURLToPath(new URL('./responder/hello.c', import.meta.url));

/** @returns {{ binary: string, cleanup: () => void } | { skipped: string }} */
export function buildResponder() {
  const dir = mkdtempSync(join(tmpdir(), 'spawnbench-responder-'));
  const binary = join(dir, 'hello');
  try {
    execFileSync('cc', ['-O2', '-o', binary, SOURCE], { stdio: ['ignore', 'ignore', 'pipe'] });
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    const why = error.code === 'ENOENT' ? '`cc` is not on PATH' : (error.stderr?.toString().trim().split('\n')[0] ?? error.message);
    return { skipped: `no C responder: ${why}` };
  }
  return { binary, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
