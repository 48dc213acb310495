import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../theme.js';
import { Header } from './header.js';
import { Progress } from './progress.js';
import { Throughput } from './throughput.js';
import { Latency } from './latency.js';
import { Errors } from './errors.js';
import { Generator, generatorBusy } from './generator.js';
import { Processes, runtimesWithoutProbe } from './processes.js';
import { Tune, tuneLines } from './tune.js';
import { Advice, adviceLines } from './advice.js';

const h = React.createElement;

// Panels re-render only when their own props change: samples arrive 4 times a second,
// ticks once, so most frames redraw the process table alone (React's share of a frame's CPU).
const panels = {
  Header: React.memo(Header),
  Progress: React.memo(Progress),
  Throughput: React.memo(Throughput),
  Latency: React.memo(Latency),
  Errors: React.memo(Errors),
  Generator: React.memo(Generator),
  Processes: React.memo(Processes),
  Tune: React.memo(Tune),
  Advice: React.memo(Advice),
};

/** From this width throughput and latency sit side by side; below, they stack. Columns */
export const SIDE_BY_SIDE_COLUMNS = 80;
/** Width of the latency table (11-character label + four 7-character cells). Columns */
const LATENCY_WIDTH = 39;
/** Process lines shown however short the terminal: main, the busiest worker, "(N workers, busiest shown)". */
const MIN_PROCESS_ROWS = 3;

/**
 * Whether errors and the generator share one line: only when both are calm (no
 * errors, no generator warning), so neither is ever cut.
 */
function calm(state, generator) {
  const errors = state.tick?.errors;
  const hasNon2xx = Object.keys(state.tick?.statuses ?? {}).some((status) => !status.startsWith('2'));
  return !errors?.total && !hasNon2xx && !generatorBusy(generator, state.plan?.threads ?? 1);
}

/**
 * Lines every panel but the process rows takes, so the frame
 * stays shorter than the terminal (a frame as tall as the terminal makes Ink
 * clear the screen on every refresh).
 */
function fixedLines(state, { sideBySide, oneLine, formatAdvice }) {
  const errors = state.tick?.errors;
  const hasNon2xx = Object.keys(state.tick?.statuses ?? {}).some((status) => !status.startsWith('2'));
  return (
    (state.plan ? 3 : 2) + // header
    1 + // progress
    (state.tune ? tuneLines(state.tune) : 0) +
    (sideBySide ? 3 : 5) + // throughput + latency
    (oneLine ? 0 : errors?.total && hasNon2xx ? 2 : 1) + // errors
    1 + // generator (and errors, when calm)
    1 + // process table header
    (runtimesWithoutProbe(state.sample, state.plan).length ? 1 : 0) +
    1 + // spawned commands and cores
    (state.logs.length ? 1 : 0) +
    adviceLines(liveAdvice(state, formatAdvice), formatAdvice)
  );
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
  const maxRows = Math.max(MIN_PROCESS_ROWS, rows - 1 - fixedLines(state, { sideBySide, oneLine, formatAdvice }));
  const errors = h(panels.Errors, { tick: state.tick });
  const generatorPanel = h(panels.Generator, { generator, threads: state.plan?.threads ?? 1 });
  const lastLog = state.logs.at(-1);
  const perf = sideBySide
    ? h(
        Box,
        null,
        h(panels.Throughput, { rpsHistory: state.rpsHistory, tick: state.tick, width: columns - LATENCY_WIDTH - 2 }),
        h(Box, { marginLeft: 2 }, h(panels.Latency, { tick: state.tick, width: LATENCY_WIDTH })),
      )
    : h(
        Box,
        { flexDirection: 'column' },
        h(panels.Throughput, { rpsHistory: state.rpsHistory, tick: state.tick, width: columns }),
        h(panels.Latency, { tick: state.tick, width: Math.min(columns, LATENCY_WIDTH) }),
      );
  return h(
    Box,
    { flexDirection: 'column', width: columns },
    h(panels.Header, { plan: state.plan, machine: state.machine, runtimes: state.runtimes }),
    h(panels.Progress, { phase: state.phase, tick: state.tick, plan: state.plan, stopRequested: state.stopRequested, keys, columns }),
    state.tune ? h(panels.Tune, { steps: state.tune.steps, current: state.tune.current, columns }) : null,
    perf,
    oneLine ? h(Box, null, errors, h(Box, { marginLeft: 4 }, generatorPanel)) : errors,
    oneLine ? null : generatorPanel,
    h(panels.Processes, { sample: state.sample, workers: state.workers, plan: state.plan, columns, maxRows }),
    h(panels.Advice, { advice: liveAdvice(state, formatAdvice), formatAdvice }),
    lastLog ? h(Text, { wrap: 'truncate-end', color: tone(lastLog.level === 'error' ? 'bad' : 'warn') }, `${lastLog.level}: ${lastLog.msg}`) : null,
  );
}
