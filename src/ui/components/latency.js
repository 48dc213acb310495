import React from 'react';
import { Box, Text } from 'ink';
import { formatMs } from '../cell-format.js';
import { useTone } from '../theme.js';
import { latencyFigures } from '../tick-figures.js';
import { metricLabel } from '../../base/labels.js';

const h = React.createElement;

/** Width of one latency cell ("1234" ms, or "12.3 s"), right-aligned. */
const CELL = 7;
/** Width of the row label ("latency ms", "last 1s", "overall"). */
const LABEL = 11;

const row = (label, values) =>
  label.padEnd(LABEL) + values.map((value) => value.padStart(CELL)).join('');

/** The lines Latency draws: the column titles, the last second, overall. */
export const LATENCY_LINES = 3;

/**
 * The Latency panel's width: its label and a cell for each latency metric a tick carries
 * (four with the metric table's p50, p90, p99 and max: 39 columns).
 * @param {object|null} tick
 */
export function latencyWidth(tick) {
  return LABEL + CELL * latencyFigures(tick).length;
}

/**
 * Latency percentiles in ms for the last second and for the whole measurement: a column
 * for each metric of the table a tick carries that is shown in ms (src/ui/tick-figures.js).
 * @param {{ tick: object|null, width: number }} props
 */
export function Latency({ tick, width }) {
  const tone = useTone();
  const figures = latencyFigures(tick);
  const cells = (/** @type {'interval'|'value'} */ window) => figures.map((f) => formatMs(f[window], { unit: false }));
  return h(
    Box,
    { flexDirection: 'column', width },
    h(
      Text,
      { wrap: 'truncate-end' },
      h(Text, { bold: true }, 'latency ms'.padEnd(LABEL)),
      h(Text, { color: tone('dim') }, figures.map((f) => metricLabel(f.id).padStart(CELL)).join('')),
    ),
    h(Text, { wrap: 'truncate-end' }, row('last 1s', cells('interval'))),
    h(Text, { wrap: 'truncate-end' }, row('overall', cells('value'))),
  );
}
