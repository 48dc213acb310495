/**
 * How one run's recommended size is checked against a sweep: by throughput, not by
 * size. Tune's throughput at the run's size (measured there, or read off the straight
 * line between the two measured sizes around it) must be within RPS_BAND of tune's
 * best, the band tune itself calls "as good as the best". On a 16-core machine run
 * said 7 where tune's best was 4 (12,498 req/s): "within one size" fails, though 7
 * loses only a few percent; on 2 cores a size one off the best can lose 20% (#36).
 * Pure: figures in, figures out; bench/advice.js and bench/machines.js print them.
 */
import { RPS_BAND } from '../base/thresholds.js';

/**
 * @typedef {object} RunAgainstTune
 * @property {number} size the run's recommended size
 * @property {number|null} rps tune's median throughput at that size (null: outside the sizes tune measured)
 * @property {boolean} interpolated `rps` lies between two measured sizes
 * @property {number} bestSize tune's size of highest median throughput
 * @property {number} bestRps its median throughput
 * @property {number|null} share rps / bestRps
 * @property {boolean|null} within share ≥ 1 − RPS_BAND (null: not known)
 */

/**
 * @param {number|null} size the run's recommended size
 * @param {Array<{ size: number, rps: { median: number|null } }>} sizes tune's clean sizes (its recommendation's `sizes`)
 * @returns {RunAgainstTune|null} null when there is nothing to compare (no size, no clean tune size)
 */
export function runAgainstTune(size, sizes) {
  // kept: the sizes with a median
  const measured = /** @type {Array<{ size: number, rps: { median: number } }>} */ (sizes.filter((x) => Number.isFinite(x.rps?.median))).sort((a, b) => a.size - b.size);
  if (size === null || !Number.isFinite(size) || measured.length === 0) return null;
  const best = measured.reduce((a, b) => (b.rps.median > a.rps.median ? b : a));
  const at = measured.find((x) => x.size === size);
  const below = measured.filter((x) => x.size < size).at(-1);
  const above = measured.find((x) => x.size > size);
  /** @type {number|null} */
  let rps = null;
  if (at) rps = at.rps.median;
  else if (below && above) rps = below.rps.median + ((above.rps.median - below.rps.median) * (size - below.size)) / (above.size - below.size);
  const share = rps === null ? null : rps / best.rps.median;
  return {
    size,
    rps,
    interpolated: !at && rps !== null,
    bestSize: best.size,
    bestRps: best.rps.median,
    share,
    within: share === null ? null : share >= 1 - RPS_BAND,
  };
}
