/**
 * The last exit path: an error nobody caught. Kill every process group spawnbench
 * started, say what happened in one line, exit 1. A reader that went away
 * (`spawnbench --help | head`: EPIPE on stdout or stderr) is not an error: stop
 * everything and exit quietly with the code so far.
 */
import { killAllSync } from './cleanup.js';
import { exitAfterHangup, isHangupError } from './hangup-exit.js';

export function installCrashHandlers() {
  const crash = (error) => {
    killAllSync();
    if (error?.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    // The terminal is gone (EIO): nothing can be shown, and Node's own exit would abort.
    if (isHangupError(error)) exitAfterHangup();
    // stdout or stderr on a full device (/dev/full, a full disk): say so once, where it may still go.
    if (error?.code === 'ENOSPC' && error.syscall === 'write') {
      try {
        process.stderr.write('spawnbench: cannot write the output: no space left on the device it goes to\n');
      } catch {
        // stderr is full too
      }
      process.exit(1);
    }
    const debug = process.argv.includes('--debug');
    process.stderr.write(`spawnbench: internal error: ${error?.message ?? error}${debug && error?.stack ? `\n${error.stack}` : ' (run with --debug for the stack)'}\n`);
    process.exit(1);
  };
  process.on('uncaughtException', crash);
  process.on('unhandledRejection', crash);
}
