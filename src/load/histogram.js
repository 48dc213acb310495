/**
 * Latency histograms: hdr-histogram-js at microsecond resolution, the same
 * settings in every generator thread so their histograms add up exactly.
 *
 * On the hot path a thread counts latencies in LatencyCounts (integer bucket
 * math into a typed array, the HDR histogram's own layout) and folds them into
 * the HDR histogram once per report: hdr-histogram-js's recordValue does a
 * Math.log2 and Math.pow per value (0.06–0.09 µs of ~1.6 µs per request, issue 28).
 * The fold records each bucket's count at that bucket's lowest value, which is the
 * same counts array, and the exact min and max seen, so percentiles, mean, min, max
 * and the encoded histogram are what recordValue would have made
 * (test/load/latency-counts.test.js).
 */
// The two parts of hdr-histogram-js a run uses: its index loads every other part too
// (log reader and writer, packed and float histograms), and the log writer makes an
// Intl.NumberFormat as it loads: 63–77 ms to load the index, 28–43 ms for these two,
// in every process and generator thread that records.
import histogramBuilder from 'hdr-histogram-js/dist/HistogramBuilder.js';
import histogramEncoding from 'hdr-histogram-js/dist/encoding.js';

const hdr = { build: histogramBuilder.build, ...histogramEncoding };

// Highest latency recorded, in µs: one hour. Anything slower is a timeout long
// before; values above are clamped so recordValue never throws.
export const HISTOGRAM_MAX_US = 3_600_000_000;
// 3 significant digits: 0.1% error on every percentile (1 µs near 1 ms, 1 ms near 1 s).
const SIGNIFICANT_DIGITS = 3;
// The HDR layout those settings give (lowest discernible value 1, so no unit shift):
// 2,048 sub-buckets (the power of two ≥ 2 × 10^3), of which the upper half, 1,024 =
// 2^10, is each further bucket; bucket b holds values [2^(b+10), 2^(b+11)) in steps of 2^b.
const SUB_BUCKET_HALF_MAGNITUDE = 10;
// Values below 2^11 all sit in bucket 0: floor(log2(v)) - 10 ≤ 0.
const BUCKET_SHIFT = 31 - SUB_BUCKET_HALF_MAGNITUDE;

/** A fresh latency histogram (values in µs). */
export function createHistogram() {
  return hdr.build({
    bitBucketSize: 32,
    lowestDiscernibleValue: 1,
    highestTrackableValue: HISTOGRAM_MAX_US,
    numberOfSignificantValueDigits: SIGNIFICANT_DIGITS,
    useWebAssembly: false,
  });
}

/** Records one latency given in milliseconds (fractional), straight into an HDR histogram. */
export function recordMs(histogram, ms) {
  histogram.recordValue(clampUs(ms));
}

/** ms → whole µs within what the histogram tracks. */
function clampUs(ms) {
  const us = Math.round(ms * 1000);
  return us < 1 ? 1 : us > HISTOGRAM_MAX_US ? HISTOGRAM_MAX_US : us;
}

/**
 * Latency counts in the HDR histogram's bucket layout, recorded with integer math
 * (generator hot path); foldInto() adds them to a histogram of createHistogram().
 */
export class LatencyCounts {
  constructor() {
    // The layout's length up to HISTOGRAM_MAX_US (< 2^32, so one clz32 finds any bucket).
    const lastIndex = LatencyCounts.indexOf(HISTOGRAM_MAX_US);
    this.counts = new Float64Array(lastIndex + 1);
    this.total = 0;
    // The exact extremes (the HDR histogram keeps them, not their buckets' edges).
    this.min = HISTOGRAM_MAX_US;
    this.max = 0;
  }

  /**
   * The HDR counts index of a whole µs value in [1, 2^32): bucket
   * max(floor(log2 v) - 10, 0), sub-bucket v >> bucket, index (bucket << 10) + sub-bucket.
   */
  static indexOf(us) {
    const shift = BUCKET_SHIFT - Math.clz32(us);
    const bucket = shift > 0 ? shift : 0;
    return (bucket << SUB_BUCKET_HALF_MAGNITUDE) + (us >>> bucket);
  }

  /** Records one latency given in milliseconds (fractional). */
  recordMs(ms) {
    const us = clampUs(ms);
    this.counts[LatencyCounts.indexOf(us)]++;
    this.total++;
    if (us > this.max) this.max = us;
    if (us < this.min) this.min = us;
  }

  /** Adds every count to `histogram` (at its bucket's lowest value) and zeroes them. */
  foldInto(histogram) {
    if (this.total === 0) return;
    const counts = this.counts;
    for (let i = 0; i < counts.length; i++) {
      if (counts[i] === 0) continue;
      histogram.recordValueWithCount(histogram.valueFromIndex(i), counts[i]);
      counts[i] = 0;
    }
    // A count of 0 moves only the histogram's min and max to the exact values.
    histogram.recordValueWithCount(this.min, 0);
    histogram.recordValueWithCount(this.max, 0);
    this.total = 0;
    this.min = HISTOGRAM_MAX_US;
    this.max = 0;
  }
}

/** Base64 of the compressed histogram (the HdrHistogram interchange format). */
export function encodeHistogram(histogram) {
  return hdr.encodeIntoCompressedBase64(histogram);
}

/** Adds an encoded histogram into `into`. */
export function addEncoded(into, base64) {
  const other = hdr.decodeFromCompressedBase64(base64, 32, false);
  into.add(other);
  other.destroy();
}

/** Decodes a base64 histogram (for callers of LoadResult.histogram). */
export function decodeHistogram(base64) {
  return hdr.decodeFromCompressedBase64(base64, 32, false);
}

const usToMs = (us) => Math.round(us) / 1000;

/** p50/p90/p99/max in ms, zeros when empty. */
export function shortSummary(histogram) {
  if (histogram.totalCount === 0) return { p50Ms: 0, p90Ms: 0, p99Ms: 0, maxMs: 0 };
  return {
    p50Ms: usToMs(histogram.getValueAtPercentile(50)),
    p90Ms: usToMs(histogram.getValueAtPercentile(90)),
    p99Ms: usToMs(histogram.getValueAtPercentile(99)),
    maxMs: usToMs(histogram.maxValue),
  };
}

/**
 * The histogram's mean, as hdr-histogram-js's `mean` computes it (each recorded bucket's
 * median-equivalent value times its count, in index order, over the total count), with a
 * plain loop over the counts up to the largest value: its `mean` walks an iterator that
 * builds an object per bucket, ~16 ms a result at these settings, the most of a run's summary
 * (test/load/histogram.test.js holds the two equal).
 * @param {ReturnType<typeof createHistogram>} histogram
 */
export function meanOf(histogram) {
  if (histogram.totalCount === 0) return 0;
  const h = /** @type {any} */ (histogram);
  const last = Math.min(h.countsArrayIndex(histogram.maxValue), h.countsArrayLength - 1);
  let total = 0;
  for (let i = 0; i <= last; i++) {
    const count = h.getCountAtIndex(i);
    if (count > 0) total += h.medianEquivalentValue(h.valueFromIndex(i)) * count;
  }
  return total / histogram.totalCount;
}

/**
 * The LoadResult latency block in ms; every figure null when empty (no response was
 * measured: a 0 would read as a latency, and pass a gate such as p99<1ms).
 */
export function fullSummary(histogram) {
  if (histogram.totalCount === 0) {
    return { minMs: null, meanMs: null, p50Ms: null, p75Ms: null, p90Ms: null, p99Ms: null, p999Ms: null, maxMs: null };
  }
  return {
    minMs: usToMs(histogram.minNonZeroValue),
    meanMs: usToMs(meanOf(histogram)),
    p50Ms: usToMs(histogram.getValueAtPercentile(50)),
    p75Ms: usToMs(histogram.getValueAtPercentile(75)),
    p90Ms: usToMs(histogram.getValueAtPercentile(90)),
    p99Ms: usToMs(histogram.getValueAtPercentile(99)),
    p999Ms: usToMs(histogram.getValueAtPercentile(99.9)),
    maxMs: usToMs(histogram.maxValue),
  };
}

/**
 * The latency block of the successful responses: every response's histogram less the
 * failed ones' (null figures when none succeeded).
 * @param {object} all every response's latencies
 * @param {object} failed the failed responses' latencies (a subset of `all`)
 */
export function succeededSummary(all, failed) {
  if (failed.totalCount === 0) return fullSummary(all);
  const succeeded = createHistogram();
  succeeded.add(all);
  succeeded.subtract(failed);
  const summary = fullSummary(succeeded);
  succeeded.destroy();
  return summary;
}
