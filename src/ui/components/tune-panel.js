import React from 'react';
import { Box, Text } from 'ink';
import { sparkline } from '../charts.js';
import { median } from '../../analysis/stats.js';
import { formatCompact, formatMs, DASH } from '../cell-format.js';
import { useTone } from '../theme.js';
import { policyLabel } from '../../base/labels.js';

const h = React.createElement;

/** Width of one "rps/p99" cell ("1.2k/31!" plus a space), right-aligned. */
const CELL = 9;
/** Width of the policy column ("least-requests" plus a space). */
const POLICY = 15;
/** Marks the cell being measured now. */
const MEASURING = '…';
/** A cell whose every repeat failed to start (the pool did not fit the machine). */
const FAILED = 'failed';

/**
 * The median of repeated steps per (size, policy), as a lookup.
 * @param {{ size: number, policy: string, rps: number, p99Ms: number, errors: number }[]} steps
 * @returns {{ sizes: number[], policies: string[], cell: (size: number, policy: string) => { rps: number|null, p99Ms: number|null, errors: number, failed: boolean }|null }}
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
    const measured = group.filter((step) => !step.failed);
    return {
      rps: median(measured.map((step) => step.rps)),
      p99Ms: median(measured.map((step) => step.p99Ms)),
      errors: group.reduce((sum, step) => sum + (step.errors ?? 0), 0),
      failed: measured.length === 0,
    };
  };
  return { sizes, policies, cell };
}

/** @param {{ index?: number, total?: number|null }} step */
const stepOf = ({ index, total }) => (index ? ` · step ${index}${total ? `/${total}` : ''}` : '');

const policiesOf = ({ steps, current }) => {
  const policies = [...new Set(steps.map((step) => step.policy))];
  if (current && !policies.includes(current.policy)) policies.push(current.policy);
  return policies;
};

/**
 * Lines the tune view takes: title, sizes, one per policy.
 * @param {{ steps: object[], current: object|null }} tune
 * @returns {number}
 */
export function tuneLines(tune) {
  return 2 + policiesOf(tune).length;
}

/**
 * The live view of `spawnbench tune`: the step being measured, then throughput
 * and p99 against pool size, one line per policy. Each cell is "rps/p99 ms"
 * (median of repeats); "…" marks the step in progress, "!" a step with errors,
 * "failed" a size whose strategy did not start, green the best throughput so far.
 * A sparkline of rps over the sizes ends each line.
 *
 * @param {object} props
 * @param {{ size: number, policy: string, rps: number, p99Ms: number, errors: number, failed?: string }[]} props.steps
 *   measured steps so far (the `tune-step` events: one per repeat, combined by median; `failed`:
 *   why the strategy did not start at that size)
 * @param {{ size: number, policy: string, repeat: number, index?: number, total?: number|null }|null} props.current
 *   the step now being measured (the latest `tune-progress`; repeat and index count from 1,
 *   total is null for an adaptive search), or null between steps
 * @param {number} props.columns terminal width; sizes that do not fit are cut with "…"
 */
export function Tune({ steps, current, columns }) {
  const tone = useTone();
  const grid = tuneGrid(steps);
  const sizes = [...grid.sizes];
  if (current && !sizes.includes(current.size)) sizes.push(current.size);
  sizes.sort((a, b) => a - b);
  const policies = policiesOf({ steps, current });

  const fit = Math.max(1, Math.floor((columns - POLICY - 2) / CELL));
  const shownSizes = sizes.slice(0, fit);
  const cut = sizes.length > shownSizes.length ? ' …' : '';
  const bestRps = Math.max(0, ...steps.map((step) => step.rps ?? 0));
  const sparkRoom = columns - POLICY - shownSizes.length * CELL - cut.length - 2;

  const line = (policy) => {
    const cells = shownSizes.map((size) => {
      const value = grid.cell(size, policy);
      if (!value) return { text: current?.size === size && current?.policy === policy ? MEASURING : DASH };
      if (value.failed) return { text: FAILED, color: tone('bad') };
      const text = `${formatCompact(value.rps)}/${formatMs(value.p99Ms, { unit: false })}${value.errors ? '!' : ''}`;
      const color = value.errors ? tone('bad') : value.rps === bestRps ? tone('ok') : undefined;
      return { text, color };
    });
    const rps = shownSizes.map((size) => grid.cell(size, policy)?.rps).filter(Number.isFinite);
    return h(
      Text,
      { key: policy, wrap: 'truncate-end' },
      policyLabel(policy).slice(0, POLICY - 1).padEnd(POLICY),
      ...cells.map((cell, index) => h(Text, { key: index, color: cell.color }, cell.text.padStart(CELL))),
      cut,
      rps.length > 1 && sparkRoom >= rps.length ? h(Text, { color: tone('accent') }, `  ${sparkline(rps, rps.length)}`) : '',
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
        ? h(Text, { color: tone('accent') }, `● measuring pool size ${current.size} · ${policyLabel(current.policy)} · repeat ${current.repeat}${stepOf(current)}`)
        : h(Text, { color: tone('dim') }, `${steps.length} step${steps.length === 1 ? '' : 's'} measured`),
    ),
    h(
      Text,
      { wrap: 'truncate-end', color: tone('dim') },
      'rps/p99 ms'.padEnd(POLICY) + shownSizes.map((size) => `×${size}`.padStart(CELL)).join(''),
    ),
    ...policies.map(line),
  );
}
