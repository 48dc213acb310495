import React from 'react';
import { Box, Text } from 'ink';
import { formatMs } from '../cell-format.js';
import { useTone } from '../theme.js';

const h = React.createElement;

/** Width of one latency cell ("1234" ms, or "12.3 s"), right-aligned. */
const CELL = 7;
/** Width of the row label ("latency ms", "last 1s", "overall"). */
const LABEL = 11;
const COLUMNS = [
  ['p50', 'p50Ms'],
  ['p90', 'p90Ms'],
  ['p99', 'p99Ms'],
  ['max', 'maxMs'],
];

const row = (label, values) =>
  label.padEnd(LABEL) + values.map((value) => value.padStart(CELL)).join('');

/**
 * Latency percentiles in ms for the last second and for the whole measurement.
 * @param {{ tick: object|null, width: number }} props
 */
/** The lines Latency draws: the column titles, the last second, overall. */
export const LATENCY_LINES = 3;

export function Latency({ tick, width }) {
  const tone = useTone();
  const cells = (stats) => COLUMNS.map(([, key]) => formatMs(stats?.[key], { unit: false }));
  return h(
    Box,
    { flexDirection: 'column', width },
    h(
      Text,
      { wrap: 'truncate-end' },
      h(Text, { bold: true }, 'latency ms'.padEnd(LABEL)),
      h(Text, { color: tone('dim') }, COLUMNS.map(([title]) => title.padStart(CELL)).join('')),
    ),
    h(Text, { wrap: 'truncate-end' }, row('last 1s', cells(tick?.interval))),
    h(Text, { wrap: 'truncate-end' }, row('overall', cells(tick?.overall))),
  );
}
