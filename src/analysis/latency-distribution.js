/**
 * Figures read from a result's HDR histogram (base64, µs): the latency
 * distribution for the percentile plot, and a confidence interval of a
 * percentile (how far it could move by chance) for --against.
 */
import { createRequire } from 'node:module';

// hdr-histogram-js (CommonJS, ~45 modules with pako) is required on first use:
// --help and --version reach this module through the command table and never decode.
// Only its encoding part (src/load/histogram.js says why not its index).
const require = createRequire(import.meta.url);

// The percentiles of the distribution plot: evenly spaced on the "number of
// nines" axis the HdrHistogram plots use (50%, 90%, 99%, 99.9%, …), three per decade.
const PLOT_NINES_STEP = 1 / 3;
const PLOT_MAX_NINES = 5;

/**
 * @param {string|null|undefined} base64 a result file's histogram, which may be missing or hand-edited
 */
function decode(base64) {
  if (typeof base64 !== 'string' || base64 === '') return null;
  try {
    return require('hdr-histogram-js/dist/encoding.js').decodeFromCompressedBase64(base64, 32, false);
  } catch {
    return null; // a hand-edited or truncated file: the plot is left out, nothing else fails
  }
}

/**
 * The latency distribution: latency at percentiles from 0 to the highest the
 * sample count supports (99.999% needs 100,000 requests), then the max.
 * @param {string|null|undefined} base64 LoadResult.histogram
 * @returns {{ count: number, points: { percentile: number, nines: number, ms: number }[] }|null}
 */
export function latencyDistribution(base64) {
  const h = decode(base64);
  if (!h) return null;
  try {
    const count = h.totalCount;
    if (count === 0) return { count: 0, points: [] };
    // Beyond 1/count the percentiles repeat the max: stop there.
    const maxNines = Math.min(PLOT_MAX_NINES, Math.log10(count));
    /** @type {{ percentile: number, nines: number, ms: number }[]} */
    const points = [];
    for (let k = 0; k * PLOT_NINES_STEP <= maxNines + 1e-9; k++) {
      const nines = k * PLOT_NINES_STEP;
      const percentile = 100 * (1 - 10 ** -nines);
      points.push({ percentile, nines, ms: h.getValueAtPercentile(percentile) / 1000 });
    }
    points.push({ percentile: 100, nines: Math.max(maxNines, points[points.length - 1].nines) + PLOT_NINES_STEP, ms: h.maxValue / 1000 });
    return { count, points };
  } finally {
    h.destroy();
  }
}

/**
 * A distribution-free confidence interval of one percentile: the latencies at the
 * ranks n·q ± z·√(n·q·(1−q)) (the binomial spread of the order statistic).
 * @param {string|null|undefined} base64
 * @param {number} percentile e.g. 99
 * @param {number} z 2 ≈ 95%
 * @returns {{ lowMs: number, highMs: number, count: number }|null}
 */
export function percentileInterval(base64, percentile, z) {
  const h = decode(base64);
  if (!h) return null;
  try {
    const n = h.totalCount;
    if (n === 0) return null;
    const q = percentile / 100;
    const half = z * Math.sqrt(n * q * (1 - q));
    /** @param {number} r */
    const rank = (r) => Math.min(100, Math.max(0, (100 * r) / n));
    return {
      lowMs: h.getValueAtPercentile(rank(n * q - half)) / 1000,
      highMs: (q >= 1 ? h.maxValue : h.getValueAtPercentile(rank(n * q + half + 1))) / 1000,
      count: n,
    };
  } finally {
    h.destroy();
  }
}
