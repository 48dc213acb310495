#!/usr/bin/env node
import { openFilesRefusal } from '../src/runner/open-files-limit.js';
import { removeOrphanedTempDirs } from '../src/owned-temp-dir.js';
import { removeOrphanedCgroups } from '../src/runner/cgroup-containment.js';

// Before the CLI's modules load: with too few open files, loading them is what would fail.
const refusal = openFilesRefusal();
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(2);
}
// What a SIGKILLed spawnbench could not remove, its next start does.
removeOrphanedTempDirs();
removeOrphanedCgroups();
const { installCrashHandlers } = await import('../src/runner/crash.js');
const { runCli } = await import('../src/cli.js');
const { exitAfterHangup, SIGHUP_EXIT_CODE } = await import('../src/runner/hangup-exit.js');
installCrashHandlers();
process.exitCode = await runCli(process.argv.slice(2));
// After a hangup (SIGHUP: the terminal was closed), Node's own exit would abort on the dead terminal.
if (process.exitCode === SIGHUP_EXIT_CODE) exitAfterHangup();
