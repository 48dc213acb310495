import React from 'react';
import { Text } from 'ink';
import { formatElu, formatPct } from '../cell-format.js';
import { useTone } from '../theme.js';

const h = React.createElement;

import { GENERATOR_BUSY_CPU_PCT } from '../../base/thresholds.js';

/** The generator's busy level, % of one core per thread (kept as this panel's export name). */
export const GENERATOR_BUSY_PCT = GENERATOR_BUSY_CPU_PCT;

/**
 * Whether the generator passes GENERATOR_BUSY_PCT of a core per thread.
 * @param {{ cpuPct?: number }|null} generator
 * @param {number} [threads]
 * @returns {boolean}
 */
export function generatorBusy(generator, threads = 1) {
  const cpuPct = generator?.cpuPct;
  return Number.isFinite(cpuPct) && cpuPct / Math.max(1, threads) >= GENERATOR_BUSY_PCT;
}

/**
 * The load generator's CPU (% of one core) and ELU, with a warning when it is busy.
 * @param {{ generator: { cpuPct?: number, elu?: number }|null, threads?: number }} props
 */
/** The lines Generator draws. */
export const GENERATOR_LINES = 1;

export function Generator({ generator, threads = 1 }) {
  const tone = useTone();
  const cpuPct = generator?.cpuPct;
  const busy = generatorBusy(generator, threads);
  const threadText = threads > 1 ? ` (${threads} threads)` : '';
  return h(
    Text,
    { wrap: 'truncate-end' },
    h(Text, { bold: true }, 'generator '),
    h(Text, { color: busy ? tone('warn') : undefined }, `CPU ${formatPct(cpuPct)}${threadText}`),
    `  ELU ${formatElu(generator?.elu)}`,
    busy ? h(Text, { color: tone('warn'), bold: true }, '  ! results may be limited by the load generator') : '',
  );
}
