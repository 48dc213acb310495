/** Rule: garbage-collection pauses take a large share of a thread's time. */
import { where, worst, num } from './verdict-common.js';
import { GC_FRACTION, GC_PEAK_MS_PER_SEC } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';
export { GC_FRACTION, GC_PEAK_MS_PER_SEC } from '../base/thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function gcPressure(evidence) {
  const p = worst(evidence.processes, (x) =>
    Math.max(num(x.gcFraction) ?? -1, (num(x.gcPeakMsPerSec) ?? -1000) / 1000),
  );
  if (!p) return null;
  const byShare = isFiniteNumber(p.gcFraction) && p.gcFraction >= GC_FRACTION;
  const byPeak = isFiniteNumber(p.gcPeakMsPerSec) && p.gcPeakMsPerSec >= GC_PEAK_MS_PER_SEC;
  if (!byShare && !byPeak) return null;
  return {
    id: 'gc-pressure',
    kind: 'problem',
    where: where(p),
    figures: { gcFraction: num(p.gcFraction), gcPeakMsPerSec: num(p.gcPeakMsPerSec) },
  };
}
