// Every flag that `--help` shows is documented where users read: README.md or a page of
// docs/ (issue 39: the reference moved to docs/, and nothing may fall out on the way).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { runCli } from '../../src/cli.js';
import { COMMANDS } from '../../src/commands/index.js';
import { fakeIo } from '../helpers/io.js';
import { allDocs } from '../helpers/docs.js';

/** The long flags a help text names ("--pool-size <n>" → "--pool-size"; "--no-probe" kept whole). */
function flagsOf(help) {
  return [...new Set([...help.matchAll(/(?<![\w-])--[a-z][a-z0-9-]*/g)].map((m) => m[0]))];
}

/** Documented: written as code, `--flag` or `-x, --flag` (a table row or a command line in backticks). */
function documented(docs, flag) {
  return new RegExp(`\`(?:-[a-zA-Z], )?${flag}(?![a-z0-9-])`).test(docs) || new RegExp(`\`spawnbench [^\`]*${flag}(?![a-z0-9-])`).test(docs);
}

test('every flag of every command\'s --help is in README.md or docs/', async () => {
  const docs = allDocs();
  const missing = [];
  for (const command of [...COMMANDS.map((c) => c.name), null]) {
    const io = fakeIo();
    const code = await runCli(command ? [command, '--help'] : ['--help'], io);
    assert.equal(code, 0, `${command ?? ''} --help`);
    const flags = flagsOf(io.out());
    assert.ok(command === null || flags.length > 0, `${command} --help names flags`);
    for (const flag of flags) if (!documented(docs, flag)) missing.push(`${command ?? '(top)'} ${flag}`);
  }
  assert.deepEqual(missing, [], `flags in --help that no page documents: ${missing.join(', ')}`);
});

test('the flag reader finds long flags, negations included, and not words with dashes', () => {
  assert.deepEqual(flagsOf('  -p, --pool-size <n>  workers\n  --no-probe  off\n  a well-known x --json'), ['--pool-size', '--no-probe', '--json']);
});
