#!/usr/bin/env node
import { openFilesRefusal } from '../src/runner/open-files-limit.js';

// Before any other module loads (the clean-up's too): with too few open files, loading them is what would fail.
// The address-space and stack checks load after it: at 18 open files one more module at start is one too many.
let refusal = openFilesRefusal();
if (!refusal) {
  const { addressSpaceRefusal, stackRefusal } = await import('../src/runner/address-space-limit.js');
  refusal = addressSpaceRefusal() ?? stackRefusal();
}
if (refusal) {
  process.stderr.write(`${refusal}\n`);
  process.exit(2);
}
const [{ removeOrphanedTempDirs }, { removeOrphanedCgroups }] = await Promise.all([
  import('../src/sample/owned-temp-dir.js'), import('../src/runner/cgroup-containment.js'),
]);
// What a SIGKILLed spawnbench could not remove, its next start does (any command, even --version).
removeOrphanedTempDirs();
removeOrphanedCgroups();
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  // The version alone loads no more: as quick as Node starts (issue 28).
  const { VERSION } = await import('../src/base/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  const [{ installCrashHandlers }, { runCli }, { exitAfterHangup, SIGHUP_EXIT_CODE }] = await Promise.all([
    import('../src/runner/crash.js'), import('../src/cli.js'), import('../src/runner/hangup-exit.js'),
  ]);
  installCrashHandlers();
  process.exitCode = await runCli(argv);
  // After a hangup (SIGHUP: the terminal was closed), Node's own exit would abort on the dead terminal.
  if (process.exitCode === SIGHUP_EXIT_CODE) exitAfterHangup();
}
