/**
 * Ctrl-C and SIGTERM while a command runs: the first one stops the run gracefully
 * (the summary still prints, every process is stopped); a second one kills every
 * process group at once and exits.
 */
import { killAllSync } from '../runner/cleanup.js';
import { exitAfterHangup } from '../runner/hangup-exit.js';
import { closeAllLoggers } from '../output/logger.js';

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * Calls `stop` on the first signal until the returned `release()` is called.
 * @param {() => void} stop
 * @returns {{ release: () => void, signal: () => string|null, exitCode: () => number|null }}
 */
export function handleSignals(stop) {
  let received = null;
  const onSignal = (signal) => {
    if (received) {
      killAllSync();
      if (received === 'SIGHUP' || signal === 'SIGHUP') {
        // No 'exit' handler runs on this path: the --log-file log goes in place now (the terminal is gone: nothing to say).
        closeAllLoggers(() => {});
        exitAfterHangup();
      } else {
        process.exit(EXIT_CODES[signal] ?? 1);
      }
    }
    received = signal;
    stop();
  };
  const signals = Object.keys(EXIT_CODES);
  for (const s of signals) process.on(s, onSignal);
  return {
    release: () => {
      for (const s of signals) process.off(s, onSignal);
    },
    signal: () => received,
    exitCode: () => (received ? EXIT_CODES[received] : null),
  };
}
