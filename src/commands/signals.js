/**
 * Ctrl-C and SIGTERM while a command runs: the first one stops the run gracefully
 * (the summary still prints, every process is stopped); a second one kills every
 * process group at once and exits. A second one within SIGNAL_REPEAT_MIN_MS of the first is the
 * same signal delivered twice (to the process and to its group), not a second press.
 */
import { killAllSync } from '../runner/cleanup.js';
import { exitAfterHangup } from '../runner/hangup-exit.js';
import { closeAllLoggers } from '../output/logger.js';
import { SIGNAL_REPEAT_MIN_MS } from '../base/thresholds.js';

const EXIT_CODES = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 };

/**
 * Calls `stop` on the first signal until the returned `release()` is called.
 * @param {() => void} stop
 * @returns {{ release: () => void, signal: () => string|null, exitCode: () => number|null }}
 */
export function handleSignals(stop) {
  let received = null;
  let receivedAt = 0;
  const onSignal = (signal) => {
    // The same signal delivered twice (to the process and its group) is not a second press.
    if (received && performance.now() - receivedAt < SIGNAL_REPEAT_MIN_MS) return;
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
    receivedAt = performance.now();
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
