import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../theme.js';
import { Header } from './header.js';
import { Progress } from './progress.js';
import { Throughput } from './throughput.js';
import { Latency } from './latency.js';
import { Errors } from './errors.js';
import { Generator } from './generator.js';
import { Processes, runtimesWithoutProbe } from './processes.js';
import { Tune, tuneLines } from './tune.js';

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
};

/** From this width throughput and latency sit side by side; below, they stack. Columns */
export const SIDE_BY_SIDE_COLUMNS = 80;
/** Width of the latency table (11-character label + four 7-character cells). Columns */
const LATENCY_WIDTH = 39;
/** Process lines shown however short the terminal: main, the busiest worker, "(N workers, busiest shown)". */
const MIN_PROCESS_ROWS = 3;

/**
 * Lines every panel but the process rows and the key hint takes, so the frame
 * stays shorter than the terminal (a frame as tall as the terminal makes Ink
 * clear the screen on every refresh).
 */
function fixedLines(state, { sideBySide }) {
  const errors = state.tick?.errors;
  const hasNon2xx = Object.keys(state.tick?.statuses ?? {}).some((status) => !status.startsWith('2'));
  return (
    (state.plan ? 3 : 2) + // header
    1 + // progress
    (state.tune ? tuneLines(state.tune) : 0) +
    (sideBySide ? 3 : 5) + // throughput + latency
    (errors?.total && hasNon2xx ? 2 : 1) +
    1 + // generator
    1 + // process table header
    (runtimesWithoutProbe(state.sample, state.plan).length ? 1 : 0) +
    1 + // spawned commands and cores
    (state.logs.length ? 1 : 0)
  );
}

/**
 * The whole live frame from a run state, sized to the terminal. Pure props in,
 * so each layout is tested from fixed data.
 * @param {{ state: import('../run-state.js').RunState, columns: number, rows: number, keys?: boolean }} props
 *   keys: keys are read; show the "q / Ctrl-C" hint when there is room
 */
export function Dashboard({ state, columns, rows, keys = false }) {
  const tone = useTone();
  const sideBySide = columns >= SIDE_BY_SIDE_COLUMNS;
  const room = rows - 1 - fixedLines(state, { sideBySide });
  const hint = keys && room > MIN_PROCESS_ROWS;
  const maxRows = Math.max(MIN_PROCESS_ROWS, room - (hint ? 1 : 0));
  const generator = state.tick?.generator ?? state.sample?.generator ?? null;
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
    h(panels.Header, { plan: state.plan, machine: state.machine }),
    h(panels.Progress, { phase: state.phase, tick: state.tick, plan: state.plan, stopRequested: state.stopRequested, columns }),
    state.tune ? h(panels.Tune, { steps: state.tune.steps, current: state.tune.current, columns }) : null,
    perf,
    h(panels.Errors, { tick: state.tick }),
    h(panels.Generator, { generator, threads: state.plan?.threads ?? 1 }),
    h(panels.Processes, { sample: state.sample, workers: state.workers, plan: state.plan, columns, maxRows }),
    lastLog ? h(Text, { wrap: 'truncate-end', color: tone(lastLog.level === 'error' ? 'bad' : 'warn') }, `${lastLog.level}: ${lastLog.msg}`) : null,
    hint ? h(Text, { color: tone('dim') }, state.stopRequested ? 'stopping… the summary follows' : 'q or Ctrl-C: stop early (the summary still prints)') : null,
  );
}
