import React from 'react';
import { useInput, useStdout } from 'ink';
import { ToneContext } from '../theme.js';
import { useRunStore } from '../use-run-store.js';
import { useTerminalSize } from '../use-terminal-size.js';
import { Dashboard } from './dashboard.js';

const h = React.createElement;

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
      if (input === 'q') onStop('q');
      else if (key.ctrl && input === 'c') onStop('ctrl-c');
    },
    { isActive: keys && !finished },
  );
  if (finished) return null;
  return h(ToneContext.Provider, { value: tone }, h(Dashboard, { state, columns, rows, keys, formatAdvice }));
}
