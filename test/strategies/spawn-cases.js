// Runs a set of commands through strategies/lib/spawn-command.js's runCommand and prints
// what each gave (stdout, exit code or start error) as one JSON line, with the spawn API
// used. posix-spawn.test.js runs it both ways on this Node and on Node 26, and compares.
import { writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { runCommand, SPAWN_API } from '../../strategies/lib/spawn-command.js';

const dir = mkdtempSync(path.join(tmpdir(), 'spawnbench-spawn-cases-'));
const notExecutable = path.join(dir, 'not-executable');
writeFileSync(notExecutable, '#!/bin/sh\necho no\n');

const run = (command, args) =>
  new Promise((resolve) => {
    const chunks = [];
    runCommand(command, args, {
      onStdout: (chunk) => chunks.push(Buffer.from(chunk)),
      onExit: (code) => resolve({ code, stdout: Buffer.concat(chunks).toString('latin1') }),
      onError: (error) => resolve({ error }),
    });
  });

const CASES = {
  echo: ['echo', ['hi', 'there']],
  exitCode: ['sh', ['-c', 'echo "$0"; exit 3', 'x y']],
  notFound: ['/no/such/command', []],
  notExecutable: [notExecutable, []],
  killedBySignal: ['sh', ['-c', 'kill -TERM $$']],
  stdoutClosedFirst: ['sh', ['-c', 'exec 1>&-; sleep 0.2; exit 4']],
  // What the command starts with: its open fds, stdin/stderr, signal mask and ignored signals.
  fds: ['ls', ['/proc/self/fd']], // ls's own: 0-2, the directory it reads, and whatever else the command got
  stdio: ['sh', ['-c', 'readlink /proc/$$/fd/0 /proc/$$/fd/2']],
  signals: ['grep', ['-E', '^Sig(Blk|Ign)', '/proc/self/status']],
  bytes: ['seq', ['1', '60000']], // 349 KB over many reads, compared by hash
  large: ['head', ['-c', '300000', '/dev/zero']],
};

const results = {};
for (const [name, [command, args]] of Object.entries(CASES)) results[name] = await run(command, args);
results.large = { ...results.large, stdout: results.large.stdout.length };
results.bytes = { ...results.bytes, stdout: createHash('sha256').update(results.bytes.stdout, 'latin1').digest('hex') };
results.notExecutable.error = results.notExecutable.error?.replace(dir, '<dir>');
process.env.SPAWNBENCH_CASE = 'set after start';
// eslint-disable-next-line no-template-curly-in-string -- a shell parameter expansion, not a template
results.env = await run('sh', ['-c', 'echo "${SPAWNBENCH_CASE-unset}"']);
// Many at once: each gets its own output.
const many = await Promise.all(Array.from({ length: 50 }, (_, i) => run('echo', [String(i)])));
results.many = many.every((r, i) => r.stdout === `${i}\n` && r.code === 0);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`${JSON.stringify({ api: SPAWN_API, results })}\n`);
