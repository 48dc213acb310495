import React from 'react';
import { Box, Text } from 'ink';
import { bar } from '../charts.js';
import { formatCount, formatDuration } from '../format.js';
import { useTone } from '../theme.js';

const h = React.createElement;

/** Progress bar length in characters at full width; shrinks to fit narrower rows. */
const PROGRESS_BAR_WIDTH = 20;
/** Characters the progress text around the bar takes at most ("measuring 10s / 10s  …"). */
const PROGRESS_TEXT_WIDTH = 50;

const PHASE_WORDS = {
  booting: 'booting',
  warmup: 'warming up',
  measure: 'measuring',
  stopping: 'stopping',
  done: 'done',
};

/**
 * Where the run is: phase, elapsed / planned, a bar, requests counted.
 * A warm-up shows "(not counted)"; a stop asked for by the user shows "stopping…".
 * @param {{ phase: string, tick: object|null, plan: object|null, stopRequested?: boolean, columns: number }} props
 */
export function Progress({ phase, tick, plan, stopRequested = false, columns }) {
  const tone = useTone();
  const inWarmup = tick?.phase === 'warmup' || phase === 'warmup';
  const word = stopRequested && phase !== 'done' ? 'stopping' : PHASE_WORDS[phase] ?? phase;
  const barWidth = Math.max(0, Math.min(PROGRESS_BAR_WIDTH, columns - PROGRESS_TEXT_WIDTH));

  let amount = '';
  let ratio = 0;
  if (tick && plan?.requests && !inWarmup) {
    amount = `${formatCount(tick.requests)} / ${formatCount(plan.requests)} requests`;
    ratio = tick.requests / plan.requests;
  } else if (tick) {
    const planned = tick.plannedMs ?? (inWarmup ? plan?.warmupMs : plan?.durationMs);
    amount = `${formatDuration(tick.elapsedMs)} / ${formatDuration(planned)}`;
    ratio = planned ? tick.elapsedMs / planned : 0;
  }
  const counted = tick && !inWarmup && !plan?.requests ? `${formatCount(tick.requests)} requests` : '';
  const phaseTone = inWarmup || word === 'stopping' ? 'warn' : word === 'measuring' ? 'ok' : 'accent';

  return h(
    Box,
    null,
    h(
      Text,
      { wrap: 'truncate-end' },
      h(Text, { bold: true, color: tone(phaseTone) }, `● ${word}${word === 'stopping' ? '…' : ''}`),
      amount ? `  ${amount}` : '',
      tick && barWidth > 0 ? `  ${bar(ratio * 100, 100, barWidth)}` : '',
      counted ? `  ${counted}` : '',
      inWarmup && tick ? h(Text, { color: tone('dim') }, '  (not counted)') : '',
    ),
  );
}
