/**
 * Exiting after the terminal hung up. Node's own exit restores the terminal's modes
 * (tcsetattr on each of fds 0–2 that is a TTY) and asserts that this worked; on a hung-up
 * terminal it fails with EIO, and Node aborts (SIGABRT, or SIGSEGV on the way), after
 * spawnbench's cleanup but with a crash instead of an exit code. So after a hangup, with a
 * TTY among fds 0–2, spawnbench ends itself the way a program ended by SIGHUP ends: the
 * default action of SIGHUP, which a shell reports as 129. Without a TTY, Node's exit is
 * safe and gives 129 itself.
 */
import { isatty } from 'node:tty';

// Read at startup: on a hung-up terminal isatty() says false (tcgetattr fails with EIO), yet Node's exit still resets it.
const TTY_AT_START = [0, 1, 2].some((fd) => isatty(fd));

/** The shell's code for SIGHUP (128 + 1). */
export const SIGHUP_EXIT_CODE = 129;

/**
 * Ends the process after a hangup. Call it only after the cleanup is done.
 * @param {number} [code]
 */
export function exitAfterHangup(code = SIGHUP_EXIT_CODE) {
  if (!TTY_AT_START) process.exit(code);
  process.removeAllListeners('SIGHUP'); // the default action again: the kernel ends the process
  process.kill(process.pid, 'SIGHUP');
  // SIGHUP ignored (nohup): nothing else exits without Node's terminal reset.
  setTimeout(() => process.kill(process.pid, 'SIGKILL'), 100);
}

/** Whether an error is the terminal (or the reader of a pipe) going away under a write. */
export function isHangupError(error) {
  return error?.code === 'EIO' && (error.syscall === 'write' || error.syscall === 'read');
}
