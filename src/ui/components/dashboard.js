import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../theme.js';
import { Header, headerLines } from './header.js';
import { Progress } from './progress.js';
import { Throughput, THROUGHPUT_LINES } from './throughput.js';
import { Latency, LATENCY_LINES, latencyWidth } from './latency.js';
import { MetricsLine, metricsLineLines } from './metrics-line.js';
import { Errors, errorsLines } from './errors-panel.js';
import { workerDeaths } from '../../analysis/worker-deaths.js';
import { Generator, generatorBusy, GENERATOR_LINES } from './generator.js';
import { Processes, processesFixedLines } from './processes-panel.js';
import { Tune, tuneLines } from './tune-panel.js';
import { Advice, adviceLines } from './advice.js';

const h = React.createElement;

// Panels re-render only when their own props change: samples arrive 4 times a second,
// ticks once, so most frames redraw the process table alone (React's share of a frame's CPU).
const panels = {
  Header: React.memo(Header),
  Progress: React.memo(Progress),
  Throughput: React.memo(Throughput),
  Latency: React.memo(Latency),
  MetricsLine: React.memo(MetricsLine),
  Errors: React.memo(Errors),
  Generator: React.memo(Generator),
  Processes: React.memo(Processes),
  Tune: React.memo(Tune),
  Advice: React.memo(Advice),
};

/** From this width throughput and latency sit side by side; below, they stack. Columns */
export const SIDE_BY_SIDE_COLUMNS = 80;
/** Process lines shown however short the terminal: main, the busiest worker, "(N workers, busiest shown)". */
const MIN_PROCESS_ROWS = 3;

/**
 * Whether errors and the generator share one line: only when both are calm (no
 * errors, no generator warning), so neither is ever cut.
 */
function calm(state, generator) {
  const errors = state.tick?.errors;
  const hasNon2xx = Object.keys(state.tick?.statuses ?? {}).some((status) => !status.startsWith('2'));
  return !errors?.total && !hasNon2xx && !generatorBusy(generator, state.plan?.threads ?? 1) && deathsOf(state).length === 0;
}

/** The pool workers that died so far (each worker entry carries its slot's exits). */
function deathsOf(state) {
  return workerDeaths(state.workers, state.measureStartedAt ?? null);
}

/**
 * Which panels the frame shows and how many lines each gets, so the frame stays
 * shorter than the terminal: a frame as tall as the terminal makes Ink clear the
 * screen and the scrollback (ESC[2J ESC[3J) on every refresh, which took a split tmux
 * pane's history. Panels are given lines in the order a short terminal needs them:
 * the progress line (the phase and the stop keys) always, then the errors, throughput
 * and latency, what is measured, the tune view, the process table, the advice
 * headline, the last log line, the rest of the header, the advice's reasons; a panel
 * that does not fit is left out and the next ones still get their turn. The process
 * table takes whatever is left at the end.
 * @returns {{ header: number, perf: boolean, errors: boolean, tune: boolean, processes: boolean,
 *   maxRows: number, advice: number, log: boolean }}
 */
export function frameLayout(state, { rows, sideBySide, oneLine, formatAdvice, columns = Infinity }) {
  let budget = rows - 1;
  const take = (lines) => {
    if (lines > budget) return false;
    budget -= lines;
    return true;
  };
  // Each panel says how many lines it draws; the frame only adds them up.
  const header = headerLines(state.plan);
  const advice = liveAdvice(state, formatAdvice);
  const adviceFull = adviceLines(advice, formatAdvice, columns);
  take(1); // progress
  const layout = {
    // errors (and a worker's death), and the generator on its own line unless calm (then both on one)
    errors: take(oneLine ? 1 : errorsLines({ tick: state.tick, deaths: deathsOf(state) }) + GENERATOR_LINES),
    // throughput and latency, and the line of the metric table's other live figures under them
    perf: take((sideBySide ? Math.max(THROUGHPUT_LINES, LATENCY_LINES) : THROUGHPUT_LINES + LATENCY_LINES) + metricsLineLines({ tick: state.tick })),
    header: take(1) ? 1 : 0,
    tune: Boolean(state.tune) && take(tuneLines(state.tune)),
    processes: take(processesFixedLines(state) + MIN_PROCESS_ROWS),
    advice: adviceFull && take(1) ? 1 : 0,
    log: Boolean(state.logs.length) && take(1),
    maxRows: 0,
  };
  if (layout.header && take(header - 1)) layout.header = header;
  if (layout.advice) {
    const reasons = Math.min(adviceFull - 1, budget);
    budget -= reasons;
    layout.advice += reasons;
  }
  layout.maxRows = layout.processes ? MIN_PROCESS_ROWS + budget : 0;
  return layout;
}

/**
 * The recommendation so far: runs only (a tune step is one point of a sweep, and
 * has its own view), and only when the command passed the words for it.
 */
function liveAdvice(state, formatAdvice) {
  return state.tune || !formatAdvice ? null : state.advice;
}

/**
 * The whole live frame from a run state, sized to the terminal. Pure props in,
 * so each layout is tested from fixed data.
 * @param {{ state: import('../run-state.js').RunState, columns: number, rows: number, keys?: boolean,
 *   formatAdvice?: import('./advice.js').FormatAdvice }} props
 *   keys: keys are read; the progress line ends with the "q or Ctrl-C" hint;
 *   formatAdvice: the words of the live recommendation, from src/report/ (no advice panel without it)
 */
export function Dashboard({ state, columns, rows, keys = false, formatAdvice = null }) {
  const tone = useTone();
  const sideBySide = columns >= SIDE_BY_SIDE_COLUMNS;
  const generator = state.tick?.generator ?? state.sample?.generator ?? null;
  const oneLine = calm(state, generator);
  const layout = frameLayout(state, { rows, sideBySide, oneLine, formatAdvice, columns });
  const errors = h(panels.Errors, { tick: state.tick, deaths: deathsOf(state) });
  const generatorPanel = h(panels.Generator, { generator, threads: state.plan?.threads ?? 1 });
  const lastLog = state.logs.at(-1);
  const latencyColumns = latencyWidth(state.tick);
  const rates = sideBySide
    ? h(
        Box,
        null,
        h(panels.Throughput, { rpsHistory: state.rpsHistory, tick: state.tick, width: columns - latencyColumns - 2 }),
        h(Box, { marginLeft: 2 }, h(panels.Latency, { tick: state.tick, width: latencyColumns })),
      )
    : h(
        Box,
        { flexDirection: 'column' },
        h(panels.Throughput, { rpsHistory: state.rpsHistory, tick: state.tick, width: columns }),
        h(panels.Latency, { tick: state.tick, width: Math.min(columns, latencyColumns) }),
      );
  const perf = h(Box, { flexDirection: 'column' }, rates, h(panels.MetricsLine, { tick: state.tick }));
  return h(
    Box,
    { flexDirection: 'column', width: columns },
    layout.header ? h(panels.Header, { plan: state.plan, machine: state.machine, runtimes: state.runtimes, lines: layout.header }) : null,
    h(panels.Progress, { phase: state.phase, tick: state.tick, plan: state.plan, stopRequested: state.stopRequested, keys, columns }),
    layout.tune ? h(panels.Tune, { steps: state.tune.steps, current: state.tune.current, columns }) : null,
    layout.perf ? perf : null,
    layout.errors && oneLine ? h(Box, null, errors, h(Box, { marginLeft: 4 }, generatorPanel)) : null,
    layout.errors && !oneLine ? errors : null,
    layout.errors && !oneLine ? generatorPanel : null,
    layout.processes ? h(panels.Processes, { sample: state.sample, workers: state.workers, plan: state.plan, columns, maxRows: layout.maxRows }) : null,
    layout.advice ? h(panels.Advice, { advice: liveAdvice(state, formatAdvice), formatAdvice, maxLines: layout.advice, columns }) : null,
    layout.log && lastLog ? h(Text, { wrap: 'truncate-end', color: tone(lastLog.level === 'error' ? 'bad' : 'warn') }, `${lastLog.level}: ${lastLog.msg}`) : null,
  );
}
