import React from 'react';
import { Box, Text } from 'ink';
import { median, sparkline } from '../charts.js';
import { formatCompact, formatMs, DASH } from '../format.js';
import { useTone } from '../theme.js';

const h = React.createElement;

/** Width of one value cell ("12.3k", "1,234"), right-aligned. */
const CELL = 7;
/** Width of the metric label ("rps", "p99 ms") and of the policy name. */
const METRIC = 7;
const POLICY = 15;
/** Marks the cell being measured now. */
const MEASURING = '…';

/**
 * The median of repeated steps per (size, policy), as a lookup.
 * @param {{ size: number, policy: string, rps: number, p99Ms: number, errors: number }[]} steps
 * @returns {{ sizes: number[], policies: string[], cell: (size: number, policy: string) => { rps: number|null, p99Ms: number|null, errors: number }|null }}
 */
export function tuneGrid(steps) {
  const groups = new Map();
  for (const step of steps) {
    const id = `${step.size}\u0000${step.policy}`;
    if (!groups.has(id)) groups.set(id, []);
    groups.get(id).push(step);
  }
  const sizes = [...new Set(steps.map((step) => step.size))].sort((a, b) => a - b);
  const policies = [...new Set(steps.map((step) => step.policy))];
  const cell = (size, policy) => {
    const group = groups.get(`${size}\u0000${policy}`);
    if (!group) return null;
    return {
      rps: median(group.map((step) => step.rps)),
      p99Ms: median(group.map((step) => step.p99Ms)),
      errors: group.reduce((sum, step) => sum + (step.errors ?? 0), 0),
    };
  };
  return { sizes, policies, cell };
}

/**
 * The live view of `spawnbench tune`: the step being measured, then rps and p99
 * against pool size, one line per policy (median of repeats; "…" marks the step
 * in progress, "!" a step with errors, green the best throughput so far).
 *
 * @param {object} props
 * @param {{ size: number, policy: string, rps: number, p99Ms: number, errors: number }[]} props.steps
 *   measured steps so far (one per repeat; repeats of a size and policy are combined by median)
 * @param {{ size: number, policy: string, repeat: number }|null} props.current
 *   the step now being measured (repeat counts from 1), or null between steps
 * @param {number} props.columns terminal width; sizes that do not fit are cut with "…"
 */
export function Tune({ steps, current, columns }) {
  const tone = useTone();
  const grid = tuneGrid(steps);
  const sizes = [...grid.sizes];
  const policies = [...grid.policies];
  if (current && !sizes.includes(current.size)) sizes.push(current.size);
  if (current && !policies.includes(current.policy)) policies.push(current.policy);
  sizes.sort((a, b) => a - b);

  const label = METRIC + POLICY;
  const fit = Math.max(1, Math.floor((columns - label) / CELL));
  const shownSizes = sizes.slice(0, fit);
  const cut = sizes.length > shownSizes.length;
  const bestRps = Math.max(0, ...steps.map((step) => step.rps ?? 0));
  const sparkRoom = columns - label - shownSizes.length * CELL - 2;

  const isCurrent = (size, policy) => current && current.size === size && current.policy === policy;
  const line = (metric, policy, format, pick) => {
    const cells = shownSizes.map((size) => {
      const value = grid.cell(size, policy);
      if (!value) return { text: isCurrent(size, policy) ? MEASURING : DASH };
      const text = format(pick(value)) + (value.errors ? '!' : '');
      const color = value.errors ? tone('bad') : metric === 'rps' && pick(value) === bestRps ? tone('ok') : undefined;
      return { text, color };
    });
    const values = shownSizes.map((size) => grid.cell(size, policy)).filter(Boolean).map(pick);
    return h(
      Text,
      { key: `${metric}:${policy}`, wrap: 'truncate-end' },
      h(Text, { color: tone('dim') }, (policy === policies[0] ? metric : '').padEnd(METRIC)),
      policy.slice(0, POLICY - 1).padEnd(POLICY),
      ...cells.map((cell, index) => h(Text, { key: index, color: cell.color }, cell.text.padStart(CELL))),
      cut ? ' …' : '',
      metric === 'rps' && sparkRoom >= shownSizes.length && values.length > 1
        ? h(Text, { color: tone('accent') }, `  ${sparkline(values, values.length)}`)
        : '',
    );
  };

  return h(
    Box,
    { flexDirection: 'column' },
    h(
      Text,
      { wrap: 'truncate-end' },
      h(Text, { bold: true }, 'tune '),
      current
        ? h(Text, { color: tone('accent') }, `● measuring pool size ${current.size} · ${current.policy} · repeat ${current.repeat}`)
        : h(Text, { color: tone('dim') }, `${steps.length} step${steps.length === 1 ? '' : 's'} measured`),
    ),
    h(Text, { wrap: 'truncate-end', color: tone('dim') }, 'pool size'.padEnd(label) + shownSizes.map((size) => String(size).padStart(CELL)).join('')),
    ...policies.map((policy) => line('rps', policy, formatCompact, (value) => value.rps)),
    ...policies.map((policy) => line('p99 ms', policy, (ms) => formatMs(ms, { unit: false }), (value) => value.p99Ms)),
  );
}
