#!/usr/bin/env node
import { openFilesRefusal } from '../src/runner/open-files-limit.js';
import { removeOrphanedTempDirs } from '../src/runner/owned-temp-dir.js';

// Before the CLI's modules load: with too few open files, loading them is what would fail.
const refusal = openFilesRefusal();
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(2);
}
// What a SIGKILLed spawnbench could not remove, its next start does.
removeOrphanedTempDirs();
const { installCrashHandlers } = await import('../src/runner/crash.js');
const { runCli } = await import('../src/cli.js');
installCrashHandlers();
process.exitCode = await runCli(process.argv.slice(2));
