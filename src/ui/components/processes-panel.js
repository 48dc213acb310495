import React from 'react';
import { Box, Text } from 'ink';
import { bar } from '../charts.js';
import { formatBytes, formatElu, formatFraction, formatMs, formatPct, DASH } from '../cell-format.js';
import { useTone } from '../theme.js';
import { buildProcessRows, collapseRows } from './process-rows.js';
import { LOOP_DELAY_P99_MS, LOOP_DELAY_MAX_MS, SATURATED_ELU, SPAWN_BLOCKED_FRACTION, BUSY_FRACTION, QUOTA_THROTTLED_FRACTION } from '../../base/thresholds.js';
import { budgetAmount } from '../../base/labels.js';

const h = React.createElement;

/** Longest CPU bar (characters); it shrinks first when the row is narrow. */
const MAX_BAR = 12;
/** Shortest CPU bar worth drawing; below this only the percentage is shown. */
const MIN_BAR = 3;
/** Label column: room for "busiest w31" at 80 columns, "main" and "w31" when narrow. */
const LABEL_WIDE = 14;
const LABEL_NARROW = 11;
/** Below this many columns the label column narrows. */
const NARROW_COLUMNS = 70;

/**
 * Table columns, in display order; `drop` orders which go first when a row does not
 * fit (1 first). The CPU bar is not listed: it takes what is left.
 */
const COLUMNS = [
  { key: 'label', title: 'process', width: LABEL_WIDE },
  { key: 'loop', title: 'loop p99/max', width: 12, right: true, drop: 3 },
  { key: 'elu', title: 'ELU', width: 4, right: true, drop: 4 },
  { key: 'spawn', title: 'spawn', width: 5, right: true, drop: 2 },
  { key: 'cpu', title: 'CPU', width: 4, right: true },
  { key: 'rss', title: 'RSS', width: 5, right: true, drop: 1 },
  { key: 'inFlight', title: 'in-fl', width: 5, right: true, drop: 5 },
];

/**
 * Which columns fit in `columns`, and how long the CPU bar is. The in-flight column is
 * there only where some row has a figure for it: a strategy's workers report theirs; a
 * user's server (cluster workers, threads) has none, and a column of dashes says nothing.
 * @param {number} columns
 * @param {{ inFlight?: boolean }} [options] inFlight: some row has an in-flight count
 * @returns {{ columns: typeof COLUMNS, barWidth: number }}
 */
export function fitColumns(columns, { inFlight = true } = {}) {
  const labelWidth = columns < NARROW_COLUMNS ? LABEL_NARROW : LABEL_WIDE;
  let shown = COLUMNS
    .filter((column) => inFlight || column.key !== 'inFlight')
    .map((column) => (column.key === 'label' ? { ...column, width: labelWidth } : column));
  const used = () => shown.reduce((sum, column) => sum + column.width + 1, 0);
  const droppable = shown.filter((column) => column.drop).sort((a, b) => a.drop - b.drop);
  while (used() > columns && droppable.length) {
    const next = droppable.shift();
    shown = shown.filter((column) => column !== next);
  }
  const room = columns - used() - 1;
  return { columns: shown, barWidth: room >= MIN_BAR ? Math.min(MAX_BAR, room) : 0 };
}

const cellText = (row, key) => {
  switch (key) {
    case 'label':
      return row.label;
    case 'loop':
      if (row.loopP99Ms == null) return DASH;
      return `${formatMs(row.loopP99Ms, { unit: false })}/${formatMs(row.loopMaxMs, { unit: false })}`;
    case 'elu':
      // A thread waiting in Atomics.wait reads ELU 1.00 at rest: its busy share (CPU time) is its figure, dimmed.
      return formatElu(row.busyFromCpu ? row.busy : row.elu);
    case 'spawn':
      return formatFraction(row.spawnBlocked);
    case 'cpu':
      return formatPct(row.cpuPct);
    case 'rss':
      return formatBytes(row.rssBytes);
    case 'inFlight':
      return row.inFlight == null ? DASH : String(row.inFlight);
    default:
      return '';
  }
};

const cellHot = (row, key) => {
  switch (key) {
    case 'loop':
      return row.loopP99Ms >= LOOP_DELAY_P99_MS || row.loopMaxMs >= LOOP_DELAY_MAX_MS;
    case 'elu':
      // A thread waiting in Atomics.wait reads ELU 1: not a hot loop (the line under the table gives its busy share).
      return row.elu >= SATURATED_ELU && !row.busyFromCpu;
    case 'spawn':
      return row.spawnBlocked >= SPAWN_BLOCKED_FRACTION;
    case 'cpu':
      return row.cpuPct >= BUSY_FRACTION * 100;
    default:
      return false;
  }
};

const pad = (text, column) => {
  const cut = text.length > column.width ? text.slice(0, column.width) : text;
  return column.right ? cut.padStart(column.width) : cut.padEnd(column.width);
};

/**
 * One table row as styled runs of text, adjacent runs of the same style merged so a
 * row is one Text with few children (Ink's cost per frame grows with text nodes).
 * @returns {{ text: string, color?: string, bold?: boolean }[]}
 */
function rowRuns(row, layout, tone) {
  const runs = [];
  const push = (text, color, bold = false) => {
    const last = runs.at(-1);
    if (last && last.color === color && last.bold === bold) last.text += text;
    else runs.push({ text, color, bold });
  };
  for (const column of layout.columns) {
    if (column.key === 'cpu' && layout.barWidth) {
      push(bar(row.cpuPct, 100, layout.barWidth) + ' ', tone(cellHot(row, 'cpu') ? 'warn' : 'accent'));
    }
    const hot = cellHot(row, column.key);
    const dim = (row.role === 'summary' && column.key === 'label') || (row.busyFromCpu && column.key === 'elu');
    const color = hot ? tone('warn') : dim ? tone('dim') : undefined;
    push(pad(cellText(row, column.key), column) + ' ', color, hot);
  }
  return runs;
}

function Row({ row, layout, tone }) {
  const runs = rowRuns(row, layout, tone);
  return h(
    Text,
    { wrap: 'truncate-end' },
    ...runs.map((run, index) => (run.color || run.bold ? h(Text, { key: index, color: run.color, bold: run.bold }, run.text) : run.text)),
  );
}

/**
 * Runtimes whose processes report no probe data, for "probe not available on …".
 * Node processes without data are only waiting for their first report.
 * @param {object|null} sample
 * @param {object|null} plan
 * @returns {string[]}
 */
export function runtimesWithoutProbe(sample, plan) {
  const missing = new Set();
  for (const proc of sample?.processes ?? []) {
    if (proc.probe) continue;
    const runtime = proc.role === 'main' ? plan?.runtime : plan?.workerRuntime ?? plan?.runtime;
    if (runtime && runtime !== 'node') missing.add(runtime);
  }
  return [...missing];
}

/**
 * The lines Processes draws besides its rows (and the line that says rows were
 * collapsed, which counts among maxRows): the column titles, the probe's absence,
 * busy by CPU, and the spawned commands and cores line, kept from the start so the
 * frame does not jump when the first sample arrives.
 * @param {{ sample: object|null, workers: object[], plan: object|null }} props
 */
export function processesFixedLines({ sample, workers, plan }) {
  const noProbe = runtimesWithoutProbe(sample, plan).length ? 1 : 0;
  const cpuBusy = buildProcessRows(sample, workers).some((row) => row.busyFromCpu) ? 1 : 0;
  return 1 + noProbe + cpuBusy + 1;
}

/**
 * One row per process and worker (loop delay p99/max, ELU, blocked in spawn, CPU
 * bar, RSS, in flight), collapsed to min/median/max plus the busiest worker when
 * the rows (and the line saying so) would take more than `maxRows` lines; then
 * spawned commands and the machine's cores, with the CPU quota's throttling of the last interval.
 * @param {{ sample: object|null, workers: object[], plan: object|null, columns: number, maxRows: number }} props
 */
export function Processes({ sample, workers, plan, columns, maxRows }) {
  const tone = useTone();
  const all = buildProcessRows(sample, workers);
  const layout = fitColumns(columns, { inFlight: all.some((row) => row.inFlight != null) });
  // Collapsed rows are followed by a line saying so, which takes one of maxRows.
  const { rows, collapsed } = all.length <= maxRows ? { rows: all, collapsed: 0 } : collapseRows(all, Math.max(2, maxRows - 1));
  const header = layout.columns.map((column) => {
    const title = pad(column.title, column) + ' ';
    return column.key === 'cpu' && layout.barWidth ? ' '.repeat(layout.barWidth + 1) + title : title;
  });
  const noProbe = runtimesWithoutProbe(sample, plan);
  const cpuBusy = rows.filter((row) => row.busyFromCpu);
  const spawned = sample?.spawned;
  const cores = sample?.system?.cpus ?? [];
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, { wrap: 'truncate-end', color: tone('dim') }, header.join('')),
    all.length === 0
      ? h(Text, { color: tone('dim') }, 'waiting for the first sample…')
      : rows.map((row) => h(Row, { key: row.key, row, layout, tone })),
    collapsed ? h(Text, { wrap: 'truncate-end', color: tone('dim') }, rows.length > 3 ? `(${collapsed} workers summarised: min / median / max, busiest)` : `(${collapsed} workers, busiest shown)`) : null,
    noProbe.length ? h(Text, { wrap: 'truncate-end', color: tone('warn') }, `probe not available on ${noProbe.join(', ')}`) : null,
    cpuBusy.length
      ? h(Text, { wrap: 'truncate-end', color: tone('dim') }, `busy by CPU (ELU counts waiting for work): ${cpuBusy.map((row) => `${row.label} ${formatPct((row.busy ?? 0) * 100)}`).join(' ')}, in the ELU column`)
      : null,
    spawned || cores.length
      ? h(
          Text,
          { wrap: 'truncate-end' },
          spawned ? `spawned commands ${spawned.count ?? DASH} · CPU ${formatPct(spawned.cpuPct)} · RSS ${formatBytes(spawned.rssBytes)}` : '',
          cores.length ? h(Text, { color: tone('dim') }, `${spawned ? '  ' : ''}cores ${cores.map(formatPct).join(' ')}`) : '',
          ...throttleParts(sample?.throttling, tone),
        )
      : null,
  );
}

/** "  quota 1.0 CPU throttled 87%" per quota that binds the server or spawnbench; loud from QUOTA_THROTTLED_FRACTION. */
function throttleParts(throttling, tone) {
  return (throttling ?? []).filter((t) => Number.isFinite(t.fraction)).map((t) => h(
    Text,
    { key: t.cgroup, color: t.fraction >= QUOTA_THROTTLED_FRACTION ? tone('warn') : tone('dim') },
    `  quota ${budgetAmount({ budget: t.quotaCpus, source: 'quota' })}${t.roles.includes('server') ? '' : ' (spawnbench)'} throttled ${formatPct(t.fraction * 100)}`,
  ));
}
