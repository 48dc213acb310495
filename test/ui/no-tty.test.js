/**
 * Without a terminal (pipes, as in CI or `| tee`): no dashboard, plain progress
 * lines on stderr, the summary on stdout, and no ANSI escape anywhere. Needs the CLI.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawnCli } from '../helpers/harness.js';

/** Any ANSI escape sequence (cursor movement, erase, colour). */
const ESCAPE = /\u001B\[/;
/** Booting on a busy shared machine can take seconds; a bound, not a speed check. ms */
const LIMIT_MS = 60_000;

describe('a run without a TTY', () => {
  it('prints plain progress lines on stderr and the summary on stdout, with no escapes', async () => {
    const env = { ...process.env };
    delete env.CI;
    // An open loop, not a saturating closed one: the lines are what is checked. 300 measured
    // requests, over the 200 a recommendation needs, so the summary holds one as after any run.
    const { code, out: stdout, err: stderr } = await spawnCli(['--strategy', 'baseline', '--duration', '3s', '--warmup', '500ms', '--rate', '100'], { env, timeoutMs: LIMIT_MS });
    assert.equal(code, 0, stderr);
    assert.doesNotMatch(stdout, ESCAPE);
    assert.doesNotMatch(stderr, ESCAPE);
    assert.match(stdout, /^spawnbench run · strategy baseline/m);
    assert.match(stderr, /^spawnbench baseline on node · workload echo · 100 req\/s open loop · 3s \+ 0\.5s warm-up$/m);
    assert.match(stderr, /^measure [\d.]+s\/3s {2}[\d,]+ rps {2}p99 /m);
  });
});
