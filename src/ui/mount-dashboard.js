import React from 'react';
import { render } from 'ink';
import { App } from './components/app.js';
import { createRunStore } from './run-store.js';
import { DASHBOARD_REFRESH_MS } from '../base/thresholds.js';
import { colorEnabled, makeTone } from './theme.js';

const h = React.createElement;

/**
 * Ink's own frame cap, above the store's refresh so it never drops one of our
 * frames, but low enough that a burst of resizes does not redraw 30 times a second.
 */
const MAX_FPS = 10;

/**
 * Mounts the live dashboard for a run engine (src/runner/run-engine.js events) on a TTY.
 * Subscribes at once, so call it before `run.start()`. `q` or Ctrl-C (when stdin is
 * a TTY, read in raw mode) calls `run.stop()` once; the run then ends normally.
 * On `done` the live area is cleared, Ink unmounts, and the summary
 * (`formatSummary(result)`) is written to stdout, where it stays in the scrollback.
 * Never exits the process: the command cleans up and sets the exit code.
 *
 * @param {import('node:events').EventEmitter & { stop: () => unknown }} run
 * @param {object} [options]
 * @param {NodeJS.WriteStream} [options.stdout]
 * @param {NodeJS.ReadStream} [options.stdin]
 * @param {NodeJS.WriteStream} [options.stderr]
 * @param {Record<string, string|undefined>} [options.env] read for NO_COLOR
 * @param {(result: object) => string} [options.formatSummary] the summary of the result's kind, from src/report/
 *   (the command passes it: the dashboard does not import report/); none is printed without it
 * @param {import('./components/advice.js').FormatAdvice} [options.formatAdvice] the words of the live
 *   recommendation, from src/report/ (passed in for the same reason); no advice panel without it
 * @param {number} [options.refreshMs] frame interval (default 250 ms: at most 4 frames/s)
 * @returns {{ done: Promise<void>, unmount: () => Promise<void>, interrupted: () => boolean }}
 *   done: settles after the summary is printed and Ink unmounted (rejects if the summary
 *   cannot be formatted); unmount(): clear the live area and unmount without a summary
 *   (the run failed before `done`), returns done; interrupted(): whether Ctrl-C stopped it
 */
export function mountDashboard(run, options = {}) {
  const {
    stdout = process.stdout,
    stdin = process.stdin,
    stderr = process.stderr,
    env = process.env,
    refreshMs = DASHBOARD_REFRESH_MS,
  } = options;
  const formatter = options.formatSummary ?? (() => '');

  const store = createRunStore(run, { refreshMs });
  let stopAsked = false;
  let interrupted = false;
  const onStop = (key) => {
    if (key === 'ctrl-c') interrupted = true; // Ctrl-C in raw mode is a keypress, not a SIGINT: exit as if it were one (130)
    store.markStopRequested();
    if (stopAsked) return;
    stopAsked = true;
    Promise.resolve()
      .then(() => run.stop())
      .catch((error) => store.addLog({ level: 'error', msg: `stop failed: ${error.message}` }));
  };
  const props = { store, onStop, keys: Boolean(stdin?.isTTY), tone: makeTone(colorEnabled(env)), finished: false, formatAdvice: options.formatAdvice ?? null };
  const instance = render(h(App, props), { stdout, stdin, stderr, exitOnCtrlC: false, maxFps: MAX_FPS });

  let resolveDone;
  let rejectDone;
  const done = new Promise((resolve, reject) => {
    resolveDone = resolve;
    rejectDone = reject;
  });
  let finishing = null;
  const finish = (result) => {
    finishing ??= (async () => {
      run.off('done', finish);
      store.close();
      let text = '';
      let failure = null;
      try {
        if (result) text = formatter(result);
      } catch (error) {
        failure = error;
      }
      instance.rerender(h(App, { ...props, finished: true }));
      instance.unmount();
      await instance.waitUntilExit();
      if (failure) throw failure;
      // Ink's last frame is the finished App, which draws nothing: Ink still ends it
      // with a newline, so on a terminal the summary starts one line up, where that
      // blank line is (cursor up, CSI 1 A).
      const overBlankLine = stdout.isTTY ? '\u001B[1A' : '';
      if (text) stdout.write(`${overBlankLine}${text.endsWith('\n') ? text : `${text}\n`}`);
    })().then(resolveDone, rejectDone);
    return done;
  };
  run.on('done', finish);
  return { done, unmount: () => finish(null), interrupted: () => interrupted };
}
