import React from 'react';
import { Box, Text } from 'ink';
import { sparkline } from '../charts.js';
import { formatCount } from '../cell-format.js';
import { useTone } from '../theme.js';
import { requestOutcome } from '../../analysis/request-outcome.js';
import { tickFigure } from '../tick-figures.js';

const h = React.createElement;

/** Fewest sparkline characters worth drawing. */
const MIN_SPARK_WIDTH = 8;

/**
 * Requests per second, one sparkline character per second (warm-up seconds dim),
 * with the current and the mean of the measured seconds (the metric table's rps,
 * live: src/ui/tick-figures.js).
 * @param {{ rpsHistory: { phase: string, rps: number }[], tick: object|null, width: number }} props
 */
/** The lines Throughput draws: the figures and the sparkline. */
export const THROUGHPUT_LINES = 2;

export function Throughput({ rpsHistory, tick, width }) {
  const tone = useTone();
  const sparkWidth = Math.max(MIN_SPARK_WIDTH, width - 2);
  const shown = rpsHistory.slice(-sparkWidth);
  const max = Math.max(0, ...shown.map((entry) => entry.rps));
  const warm = shown.filter((entry) => entry.phase === 'warmup');
  const measured = shown.filter((entry) => entry.phase !== 'warmup');
  // With errors among the measured requests, the mean counts them: say how much of it succeeded.
  const outcome = tick?.phase === 'measure' ? requestOutcome(tick) : null;
  const succeeded = outcome && outcome.failed > 0 ? outcome.succeededRps : null;
  const rps = tickFigure(tick, 'rps');
  const peak = Math.max(0, ...rpsHistory.filter((entry) => entry.phase !== 'warmup').map((entry) => entry.rps));
  return h(
    Box,
    { flexDirection: 'column', width },
    h(
      Text,
      { wrap: 'truncate-end' },
      h(Text, { bold: true }, 'rps '),
      `now ${formatCount(rps?.interval)}  mean ${formatCount(rps?.value)}`,
      succeeded !== null ? h(Text, { color: tone('bad') }, `  succeeded ${formatCount(succeeded)}/s`) : '',
      peak > 0 ? h(Text, { color: tone('dim') }, `  peak ${formatCount(peak)}`) : '',
    ),
    h(
      Text,
      { wrap: 'truncate-end' },
      '  ',
      h(Text, { color: tone('dim') }, sparkline(warm.map((entry) => entry.rps), warm.length, { max })),
      h(Text, { color: tone('accent') }, sparkline(measured.map((entry) => entry.rps), measured.length, { max })),
      shown.length === 0 ? h(Text, { color: tone('dim') }, 'waiting for the first second…') : '',
    ),
  );
}
