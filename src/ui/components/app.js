import React from 'react';
import { useInput, useStdout } from 'ink';
import { ToneContext } from '../theme.js';
import { useRunStore } from '../use-run-store.js';
import { useTerminalSize } from '../use-terminal-size.js';
import { Dashboard } from './dashboard.js';

const h = React.createElement;

const CTRL_C = '\u0003';

/**
 * Which stop key a read from the terminal holds, if any. Ink hands a read to
 * `useInput` whole when it holds more than one key ("qq", "x" then Ctrl-C, two
 * Ctrl-C typed faster than the dashboard reads), so the read is searched, not
 * compared: any Ctrl-C in it interrupts, else any `q` stops. A lone Ctrl-C comes
 * as `c` with `key.ctrl`.
 * @param {string} input
 * @param {{ ctrl?: boolean }} key
 * @returns {'ctrl-c'|'q'|null}
 */
export function stopKey(input, key) {
  if ((key.ctrl && input === 'c') || input.includes(CTRL_C)) return 'ctrl-c';
  if (input.includes('q') && !key.ctrl) return 'q';
  return null;
}

/**
 * The mounted dashboard: reads the run store, reads keys when it may (stdin is a
 * TTY), and draws nothing once `finished` so the live area disappears before the
 * summary is printed.
 * @param {{ store: object, onStop: (key: 'q'|'ctrl-c') => void, keys: boolean, tone: Function, finished: boolean,
 *   formatAdvice?: import('./advice.js').FormatAdvice|null }} props
 */
export function App({ store, onStop, keys, tone, finished, formatAdvice = null }) {
  const state = useRunStore(store);
  const { stdout } = useStdout();
  const { columns, rows } = useTerminalSize(stdout);
  useInput(
    (input, key) => {
      const stop = stopKey(input, key);
      if (stop) onStop(stop);
    },
    { isActive: keys && !finished },
  );
  if (finished) return null;
  return h(ToneContext.Provider, { value: tone }, h(Dashboard, { state, columns, rows, keys, formatAdvice }));
}
