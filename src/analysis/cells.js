/**
 * Groups the measured steps of a sweep into cells, one per (pool size, policy):
 * the median of the repeats and their min–max spread. Partial steps (stopped
 * early) are kept out: they cover less time than the others; so are steps with too
 * few responses to rank (`tooFew`, src/analysis/step-enough.js).
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
 * @property {boolean} [tooFew]    ended without enough responses to rank (step-enough.js)
 * @property {string|null} [failed] why the step could not run (boot failure)
 * @property {string[]} [failures] what failed while it was measured (the server crashed, stopped answering)
 * @property {import('./run-figures.js').RunSignals} [signals]
 * @property {number} [requests]
 * @property {number} [durationMs]
 * @property {Array<{ status?: number|null, kind?: string|null, count: number, texts?: Array<{ text: string, count: number }> }>} [errorTexts]
 *   the most frequent error statuses or kinds (src/analysis/error-reasons.js)
 * @property {Array<{ text: string, count: number }>} [stderr] the server's most frequent stderr lines
 * @property {Array<{ peer: string, name: string|null, connections: number }>|null} [downstreams]
 */

/**
 * @typedef {object} Cell
 * @property {number} size
 * @property {string} policy
 * @property {number} repeats
 * @property {{ median: number|null, min: number|null, max: number|null, n: number }} rps
 * @property {{ median: number|null, min: number|null, max: number|null, n: number }} p99Ms
 * @property {number} errors   summed over the repeats
 * @property {string|null} failed why a step of it could not run, or the first failure while one was measured (a crash, a stall)
 * @property {Partial<import('./run-figures.js').RunSignals>} signals  per-signal median over the repeats
 * @property {import('./metrics.js').MetricFigure[]} [metrics] the metrics of the table it has a figure of
 *   (measureCellMetrics(), added by the tune engine for --json)
 */

/**
 * @param {Step[]} steps
 * @returns {Cell[]} sorted by size, then by the order policies first appear
 */
export function groupCells(steps) {
  /** @type {Map<string, Step[]>} */
  const groups = new Map();
  /** @type {string[]} */
  const policyOrder = [];
  for (const step of steps) {
    if (step.partial || step.tooFew) continue;
    if (!policyOrder.includes(step.policy)) policyOrder.push(step.policy);
    const id = `${step.size}\u0000${step.policy}`;
    const group = groups.get(id) ?? [];
    groups.set(id, group);
    group.push(step);
  }
  const cells = [...groups.values()].map((group) => ({
    size: group[0].size,
    policy: group[0].policy,
    repeats: group.length,
    rps: spread(group.filter((s) => !s.failed).map((s) => s.rps)),
    p99Ms: spread(group.filter((s) => !s.failed).map((s) => s.p99Ms)),
    errors: group.reduce((sum, s) => sum + (s.errors ?? 0), 0),
    // A step that could not start (`failed`), or whose measurement failed (`failures`: the server crashed, stopped
    // answering): the cell is not recommended.
    failed: group.find((s) => s.failed)?.failed ?? group.find((s) => (s.failures?.length ?? 0) > 0)?.failures?.[0] ?? null,
    signals: medianSignals(group.map((s) => s.signals).filter(isSignals)),
  }));
  return cells.sort((a, b) => a.size - b.size || policyOrder.indexOf(a.policy) - policyOrder.indexOf(b.policy));
}

/**
 * @typedef {object} SizeFigures
 * @property {number} size
 * @property {{ median: number|null, min: number|null, max: number|null, n: number }} rps
 *   over the repeats, each repeat's value being the median of its clean steps at this size (all policies)
 * @property {{ median: number|null, min: number|null, max: number|null, n: number }} p99Ms same, for p99
 * @property {number} policies clean policies measured at this size
 * @property {Partial<import('./run-figures.js').RunSignals>} signals per-signal median over its clean steps
 */

/**
 * Figures per pool size from the clean cells only: a size is judged on every
 * policy measured at it, which halves the noise of picking the best of several
 * noisy cells (the "winner's curse"), and matches adaptive search, which walks
 * the sizes with one policy. Each interleaved pass (repeat) gives one value, so
 * the spread says how much a size moved between passes.
 * @param {Step[]} steps
 * @param {Cell[]} cells from groupCells(steps)
 * @returns {SizeFigures[]} sorted by size
 */
export function groupSizes(steps, cells) {
  const clean = new Set(cells.filter(isClean).map((c) => `${c.size}\u0000${c.policy}`));
  /** @type {Map<number, Step[]>} */
  const bySize = new Map();
  for (const step of steps) {
    if (step.partial || step.tooFew || !clean.has(`${step.size}\u0000${step.policy}`)) continue;
    const group = bySize.get(step.size) ?? [];
    bySize.set(step.size, group);
    group.push(step);
  }
  return [...bySize.entries()]
    .sort((a, b) => a[0] - b[0])
    .map(([size, group]) => {
      const passes = [...new Set(group.map((s) => s.repeat))].map((r) => group.filter((s) => s.repeat === r));
      return {
        size,
        rps: spread(passes.map((pass) => median(pass.map((s) => s.rps)))),
        p99Ms: spread(passes.map((pass) => median(pass.map((s) => s.p99Ms)))),
        policies: new Set(group.map((s) => s.policy)).size,
        signals: medianSignals(group.map((s) => s.signals).filter(isSignals)),
      };
    });
}

/**
 * The steps a cell was made of: its size and policy's, less those groupCells() keeps out.
 * @param {Step[]} steps
 * @param {{ size: number, policy: string|null }} cell
 * @returns {Step[]}
 */
export function stepsOfCell(steps, cell) {
  return steps.filter((s) => s.size === cell.size && s.policy === cell.policy && !s.partial && !s.tooFew);
}

/**
 * A cell that can be recommended: measured, no errors, no failure.
 * @param {Pick<Cell, 'errors'|'failed'|'rps'>} cell
 */
export function isClean(cell) {
  return cell.errors === 0 && !cell.failed && (cell.rps.median ?? 0) > 0;
}

/** @typedef {import('./run-figures.js').RunSignals} RunSignals */

/**
 * @param {RunSignals|undefined} s
 * @returns {s is RunSignals}
 */
const isSignals = (s) => Boolean(s);

/**
 * @param {RunSignals[]} list
 * @returns {Partial<RunSignals>}
 */
function medianSignals(list) {
  if (list.length === 0) return {};
  /** @type {Record<string, unknown>} */
  const out = {};
  /** @type {Array<Record<string, unknown>>} the signals by name */
  const records = list;
  for (const key of new Set(records.flatMap((s) => Object.keys(s)))) out[key] = medianOf(records.map((s) => s[key]));
  return out;
}

/**
 * The median of numbers; a word (the budget's source) is the first one; an object
 * (the quota's throttling) gets the median of each of its numbers, null when no
 * repeat had it.
 */
/**
 * @param {unknown[]} values one signal over the steps
 * @returns {unknown}
 */
function medianOf(values) {
  const present = values.filter((v) => v !== null && v !== undefined);
  if (present.length === 0) return null;
  if (typeof present[0] === 'string') return present[0];
  // A list (the other CPU users): the last repeat's.
  if (Array.isArray(present[0])) return present[present.length - 1];
  if (typeof present[0] === 'object' && !Array.isArray(present[0])) {
    const objects = /** @type {Array<Record<string, unknown>>} */ (present.filter((v) => typeof v === 'object'));
    return Object.fromEntries(Object.keys(objects[0]).map((k) => [k, typeof objects[0][k] === 'number' ? median(/** @type {number[]} median skips what is not a number */ (objects.map((o) => o[k]))) : objects[0][k]]));
  }
  return median(/** @type {number[]} median skips what is not a number */ (values));
}
