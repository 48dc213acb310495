/**
 * The dashboard's live figures: a tick's metrics block, the metrics of the table
 * (src/analysis/metrics.js) with a tick reader, measured from the tick. A tick that
 * carries its own `metrics` (a test's, measured with a table of its own) is read as it
 * is; any other is measured here with the table. Each panel takes the figures it has a
 * place for (PLACED), and the Metrics line shows the rest, so a metric added to the
 * table with a tick reader is on the dashboard with no panel touched.
 */
import { METRICS, measureTickMetrics, formatOf } from '../analysis/metrics.js';

/** @typedef {import('../analysis/metrics.js').TickFigure} TickFigure */

/**
 * A tick's live figures, in reading order.
 * @param {{ metrics?: TickFigure[] }|null|undefined} tick
 * @returns {TickFigure[]}
 */
export function tickFigures(tick) {
  if (!tick) return [];
  return Array.isArray(tick.metrics) ? tick.metrics : measureTickMetrics(tick);
}

/**
 * The latency figures (shown as ms) of a tick, the Latency panel's columns: those of the
 * table's metrics with a tick reader before the first tick, so the columns never move.
 * @param {{ metrics?: TickFigure[] }|null|undefined} tick
 * @returns {{ id: string, value: number|null, interval: number|null }[]}
 */
export function latencyFigures(tick) {
  if (!tick) return METRICS.filter((m) => m.tick && formatOf(m) === 'ms').map((m) => ({ id: m.id, value: null, interval: null }));
  return tickFigures(tick).filter(isLatency);
}

/** @param {{ format: string }} figure */
const isLatency = (figure) => figure.format === 'ms';

/** The figures a panel of their own shows (the throughput and errors panels); latencies go to the Latency panel. */
const PLACED = new Set(['rps', 'errors']);

/**
 * The figures no panel has a place for: the Metrics line's.
 * @param {{ metrics?: TickFigure[] }|null|undefined} tick
 * @returns {TickFigure[]}
 */
export function otherFigures(tick) {
  return tickFigures(tick).filter((f) => !PLACED.has(f.id) && !isLatency(f));
}

/**
 * One figure of a tick by id (the throughput panel's rps, the errors panel's errors); null without it.
 * @param {{ metrics?: TickFigure[] }|null|undefined} tick
 * @param {string} id
 * @returns {TickFigure|null}
 */
export function tickFigure(tick, id) {
  return tickFigures(tick).find((f) => f.id === id) ?? null;
}
