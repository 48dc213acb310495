/**
 * The comparison table from the runs: per workload and strategy, the median of
 * the repeats with their spread, errors, and the ratio to the first strategy
 * (whose repeats may overlap: then there is no meaningful difference). Pure.
 */
import { spread, overlaps } from './stats.js';

/**
 * @typedef {object} CompareRow
 * @property {string} workload
 * @property {string} strategy
 * @property {number} runs
 * @property {{ median: number|null, min: number|null, max: number|null, n: number }} rps
 * @property {{ median: number|null, min: number|null, max: number|null, n: number }} p99Ms
 * @property {number} errors summed over the repeats
 * @property {string|null} failed why a run could not start
 * @property {number|null} ratio median rps over the first strategy's
 * @property {boolean} sameAsFirst its repeats overlap the first strategy's, in req/s and in p99
 */

/**
 * @param {Array<{ workload: string, strategy: string, repeat?: number, rps?: number|null, p99Ms?: number|null, errors?: number, partial?: boolean, failed?: string|null, failures?: string[] }>} runs
 * @param {{ strategies: string[], workloads: string[] }} plan
 * @returns {CompareRow[]} workloads in order, strategies in order within each
 */
export function compareTable(runs, { strategies, workloads }) {
  /** @type {CompareRow[]} */
  const rows = [];
  for (const workload of workloads) {
    /** @type {CompareRow|null} */
    let first = null;
    for (const strategy of strategies) {
      const mine = runs.filter((r) => r.workload === workload && r.strategy === strategy && !r.partial);
      if (mine.length === 0) continue;
      const ok = mine.filter((r) => !r.failed);
      /** @type {CompareRow} */
      const row = {
        workload,
        strategy,
        runs: mine.length,
        rps: spread(ok.map((r) => r.rps)),
        p99Ms: spread(ok.map((r) => r.p99Ms)),
        errors: mine.reduce((sum, r) => sum + (r.errors ?? 0), 0),
        failed: mine.find((r) => r.failed)?.failed ?? null,
        ratio: null,
        sameAsFirst: false,
      };
      first ??= row;
      const firstRps = first.rps.median;
      // A row whose every run failed while measured (the server crashed): its figures are not the server's, and
      // "0.00×" read as a measured ratio beside the warning that says so.
      const measured = ok.some((r) => !((r.failures?.length ?? 0) > 0));
      if (measured && firstRps !== null && firstRps > 0 && row.rps.median !== null) row.ratio = row.rps.median / firstRps;
      // Their p99 too: at a fixed --rate every row's req/s is the rate, and a server 6× slower at p99 (48 ms against
      // 8.4) read "0.99× no meaningful difference".
      row.sameAsFirst = row !== first && overlaps(row.rps, first.rps) && overlaps(row.p99Ms, first.p99Ms);
      rows.push(row);
    }
  }
  return rows;
}
