/**
 * Without a terminal (pipes, as in CI or `| tee`): no dashboard, plain progress
 * lines on stderr, the summary on stdout, and no ANSI escape anywhere. Needs the CLI.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const BIN = join(ROOT, 'bin', 'spawnbench.js');
/** Any ANSI escape sequence (cursor movement, erase, colour). */
const ESCAPE = /\u001B\[/;
/** Booting on a busy shared machine can take seconds; a bound, not a speed check. ms */
const LIMIT_MS = 60_000;

const skip = existsSync(BIN) ? false : 'bin/spawnbench.js does not exist yet: this test needs the CLI';

describe('a run without a TTY', { skip }, () => {
  it('prints plain progress lines on stderr and the summary on stdout, with no escapes', async () => {
    const env = { ...process.env };
    delete env.CI;
    const { stdout, stderr } = await new Promise((resolve, reject) => {
      execFile(process.execPath, [BIN, '--strategy', 'baseline', '--duration', '3s', '--warmup', '500ms'], { cwd: ROOT, env, timeout: LIMIT_MS }, (error, out, err) =>
        error ? reject(Object.assign(error, { stderr: err })) : resolve({ stdout: out, stderr: err }),
      );
    });
    assert.doesNotMatch(stdout, ESCAPE);
    assert.doesNotMatch(stderr, ESCAPE);
    assert.match(stdout, /^spawnbench run · strategy baseline/m);
    assert.match(stderr, /^spawnbench baseline on node · workload echo · 30 connections · 3s \+ 0\.5s warm-up$/m);
    assert.match(stderr, /^measure [\d.]+s\/3s {2}[\d,]+ rps {2}p99 /m);
  });
});
