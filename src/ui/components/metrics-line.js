import React from 'react';
import { Text } from 'ink';
import { formatFigure } from '../cell-format.js';
import { otherFigures } from '../tick-figures.js';
import { metricLabel } from '../../base/labels.js';

const h = React.createElement;

/**
 * The lines MetricsLine draws: one when a tick carries a metric no other panel shows
 * (a metric of the table with a tick reader beyond throughput, latency and errors), else none.
 * @param {{ tick: object|null }} props
 */
export function metricsLineLines({ tick }) {
  return otherFigures(tick).length > 0 ? 1 : 0;
}

/**
 * The live figures of the metric table that no other panel has a place for, each with its
 * last second: "metrics    goodput 950/s (last 1s 940/s)".
 * @param {{ tick: object|null }} props
 */
export function MetricsLine({ tick }) {
  const figures = otherFigures(tick);
  if (figures.length === 0) return null;
  const parts = figures.map((f) => `${metricLabel(f.id)} ${formatFigure(f.value, f.format)} (last 1s ${formatFigure(f.interval, f.format)})`);
  return h(Text, { wrap: 'truncate-end' }, h(Text, { bold: true }, 'metrics    '), parts.join('   '));
}
