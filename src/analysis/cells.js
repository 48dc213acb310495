/**
 * Groups the measured steps of a sweep into cells, one per (pool size, policy):
 * the median of the repeats and their min–max spread. Partial steps (stopped
 * early) are kept out: they cover less time than the others.
 */
import { spread, median } from './stats.js';

/**
 * @typedef {object} Step
 * @property {number} size
 * @property {string} policy
 * @property {number} repeat       counts from 1
 * @property {number} rps
 * @property {number|null} p99Ms
 * @property {number} errors
 * @property {boolean} [partial]   stopped early
 * @property {string|null} [failed] why the step could not run (boot failure)
 * @property {import('./run-figures.js').RunSignals} [signals]
 */

/**
 * @typedef {object} Cell
 * @property {number} size
 * @property {string} policy
 * @property {number} repeats
 * @property {{ median: number|null, min: number|null, max: number|null, n: number }} rps
 * @property {{ median: number|null, min: number|null, max: number|null, n: number }} p99Ms
 * @property {number} errors   summed over the repeats
 * @property {string|null} failed
 * @property {object} signals  per-signal median over the repeats
 */

/**
 * @param {Step[]} steps
 * @returns {Cell[]} sorted by size, then by the order policies first appear
 */
export function groupCells(steps) {
  const groups = new Map();
  const policyOrder = [];
  for (const step of steps) {
    if (step.partial) continue;
    if (!policyOrder.includes(step.policy)) policyOrder.push(step.policy);
    const id = `${step.size}\u0000${step.policy}`;
    if (!groups.has(id)) groups.set(id, []);
    groups.get(id).push(step);
  }
  const cells = [...groups.values()].map((group) => ({
    size: group[0].size,
    policy: group[0].policy,
    repeats: group.length,
    rps: spread(group.filter((s) => !s.failed).map((s) => s.rps)),
    p99Ms: spread(group.filter((s) => !s.failed).map((s) => s.p99Ms)),
    errors: group.reduce((sum, s) => sum + (s.errors ?? 0), 0),
    failed: group.find((s) => s.failed)?.failed ?? null,
    signals: medianSignals(group.map((s) => s.signals).filter(Boolean)),
  }));
  return cells.sort((a, b) => a.size - b.size || policyOrder.indexOf(a.policy) - policyOrder.indexOf(b.policy));
}

/** A cell that can be recommended: measured, no errors, no failure. */
export function isClean(cell) {
  return cell.errors === 0 && !cell.failed && cell.rps.median > 0;
}

function medianSignals(list) {
  if (list.length === 0) return {};
  const out = {};
  for (const key of Object.keys(list[0])) out[key] = median(list.map((s) => s[key]));
  return out;
}
