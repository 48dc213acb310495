import React from 'react';
import { Box, Text } from 'ink';
import { bar } from '../charts.js';
import { formatCount, formatElapsed } from '../cell-format.js';
import { useTone } from '../theme.js';
import { phaseWord } from '../describe-plan.js';

const h = React.createElement;

/** Progress bar length in characters at full width; shrinks to fit narrower rows. */
const PROGRESS_BAR_WIDTH = 20;
/** Characters the progress text around the bar takes at most ("● measuring  10s / 10s  …  2,720 requests"). */
const PROGRESS_TEXT_WIDTH = 50;
/** The key hint at the end of the line (cut first when the terminal is narrow). */
const KEY_HINT = 'q or Ctrl-C: stop';

/**
 * Where the run is: phase, elapsed / planned, a bar, requests counted.
 * A warm-up shows "(not counted)"; a stop asked for by the user shows "stopping…".
 * With `keys` (keys are read), the line ends with the key hint.
 * @param {{ phase: string, tick: object|null, plan: object|null, stopRequested?: boolean, keys?: boolean, columns: number }} props
 */
export function Progress({ phase, tick: lastTick, plan, stopRequested = false, keys = false, columns }) {
  const tone = useTone();
  const loading = phase === 'warmup' || phase === 'measure';
  // Right after a phase change the latest tick may still be the previous phase's.
  const tick = loading && lastTick?.phase !== phase ? null : lastTick;
  const inWarmup = phase === 'warmup' || (!loading && tick?.phase === 'warmup');
  const word = stopRequested && phase !== 'done' ? 'stopping' : phaseWord(phase, plan);
  const reserved = PROGRESS_TEXT_WIDTH + (keys ? KEY_HINT.length + 2 : 0);
  const barWidth = Math.max(0, Math.min(PROGRESS_BAR_WIDTH, columns - reserved));

  let amount = '';
  let ratio = 0;
  if (plan?.requests && !inWarmup && (tick || loading)) {
    amount = `${formatCount(tick?.requests ?? 0)} / ${formatCount(plan.requests)} requests`;
    ratio = (tick?.requests ?? 0) / plan.requests;
  } else if (tick || loading) {
    const planned = tick?.plannedMs ?? (inWarmup ? plan?.warmupMs : plan?.durationMs);
    const elapsed = tick?.elapsedMs ?? 0;
    amount = `${formatElapsed(elapsed)} / ${formatElapsed(planned)}`;
    ratio = planned ? elapsed / planned : 0;
  }
  const counted = !inWarmup && !plan?.requests && (tick || loading) ? `${formatCount(tick?.requests ?? 0)} requests` : '';
  const phaseTone = inWarmup || word === 'stopping' ? 'warn' : word === 'measuring' ? 'ok' : 'accent';

  return h(
    Box,
    null,
    h(
      Text,
      { wrap: 'truncate-end' },
      h(Text, { bold: true, color: tone(phaseTone) }, `● ${word}${word === 'stopping' ? '…' : ''}`),
      amount ? `  ${amount}` : '',
      amount && barWidth > 0 ? `  ${bar(ratio * 100, 100, barWidth)}` : '',
      counted ? `  ${counted}` : '',
      inWarmup && amount ? h(Text, { color: tone('dim') }, '  (not counted)') : '',
      keys ? h(Text, { color: tone('dim') }, stopRequested ? '  the summary follows' : `  ${KEY_HINT}`) : '',
    ),
  );
}
