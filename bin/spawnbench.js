#!/usr/bin/env node
// `spawnbench --version` prints the version and loads nothing else: as quick as Node starts (issue 28).
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-v')) {
  const { VERSION } = await import('../src/version.js');
  process.stdout.write(`${VERSION}\n`);
} else {
  await main();
}

async function main() {
  const { openFilesRefusal } = await import('../src/runner/open-files-limit.js');
  // Before the CLI's modules load: with too few open files, loading them is what would fail.
  const refusal = openFilesRefusal();
  if (refusal) {
    process.stderr.write(`${refusal}\n`);
    process.exit(2);
  }
  const { asksTopLevelOnly, runCli } = await import('../src/cli.js');
  if (!asksTopLevelOnly(argv)) {
    // What a SIGKILLed spawnbench could not remove, its next start does (not its --help).
    const [{ removeOrphanedTempDirs }, { removeOrphanedCgroups }] = await Promise.all([
      import('../src/owned-temp-dir.js'), import('../src/runner/cgroup-containment.js'),
    ]);
    removeOrphanedTempDirs();
    removeOrphanedCgroups();
  }
  const [{ installCrashHandlers }, { exitAfterHangup, SIGHUP_EXIT_CODE }] = await Promise.all([
    import('../src/runner/crash.js'), import('../src/runner/hangup-exit.js'),
  ]);
  installCrashHandlers();
  process.exitCode = await runCli(argv);
  // After a hangup (SIGHUP: the terminal was closed), Node's own exit would abort on the dead terminal.
  if (process.exitCode === SIGHUP_EXIT_CODE) exitAfterHangup();
}
