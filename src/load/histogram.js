/**
 * Latency histograms: hdr-histogram-js at microsecond resolution, the same
 * settings in every generator thread so their histograms add up exactly.
 */
import hdr from 'hdr-histogram-js';

// Highest latency recorded, in µs: one hour. Anything slower is a timeout long
// before; values above are clamped so recordValue never throws.
export const HISTOGRAM_MAX_US = 3_600_000_000;
// 3 significant digits: 0.1% error on every percentile (1 µs near 1 ms, 1 ms near 1 s).
const SIGNIFICANT_DIGITS = 3;

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

/** Records one latency given in milliseconds (fractional). */
export function recordMs(histogram, ms) {
  const us = Math.round(ms * 1000);
  histogram.recordValue(us < 1 ? 1 : us > HISTOGRAM_MAX_US ? HISTOGRAM_MAX_US : us);
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

/** The LoadResult latency block in ms, zeros when empty. */
export function fullSummary(histogram) {
  if (histogram.totalCount === 0) {
    return { minMs: 0, meanMs: 0, p50Ms: 0, p75Ms: 0, p90Ms: 0, p99Ms: 0, p999Ms: 0, maxMs: 0 };
  }
  return {
    minMs: usToMs(histogram.minNonZeroValue),
    meanMs: usToMs(histogram.mean),
    p50Ms: usToMs(histogram.getValueAtPercentile(50)),
    p75Ms: usToMs(histogram.getValueAtPercentile(75)),
    p90Ms: usToMs(histogram.getValueAtPercentile(90)),
    p99Ms: usToMs(histogram.getValueAtPercentile(99)),
    p999Ms: usToMs(histogram.getValueAtPercentile(99.9)),
    maxMs: usToMs(histogram.maxValue),
  };
}
