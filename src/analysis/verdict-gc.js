/** Rule: garbage-collection pauses take a large share of a thread's time. */
import { pct, ms } from '../report/format.js';
import { where, worst, num } from './verdict-common.js';
import { GC_FRACTION, GC_PEAK_MS_PER_SEC } from '../thresholds.js';
export { GC_FRACTION, GC_PEAK_MS_PER_SEC } from '../thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function gcPressure(evidence) {
  const p = worst(evidence.processes, (x) =>
    Math.max(num(x.gcFraction) ?? -1, (num(x.gcPeakMsPerSec) ?? -1000) / 1000),
  );
  if (!p) return null;
  const byShare = num(p.gcFraction) !== null && p.gcFraction >= GC_FRACTION;
  const byPeak = num(p.gcPeakMsPerSec) !== null && p.gcPeakMsPerSec >= GC_PEAK_MS_PER_SEC;
  if (!byShare && !byPeak) return null;
  return {
    id: 'gc-pressure',
    kind: 'problem',
    title: 'garbage-collection pauses stall the event loop',
    where: where(p),
    evidence: [
      `GC pauses ${pct(p.gcFraction, 1)} of wall time (threshold ${pct(GC_FRACTION)})`,
      `up to ${ms(p.gcPeakMsPerSec)} of GC in one second (threshold ${ms(GC_PEAK_MS_PER_SEC)})`,
    ],
    next: [
      'allocate less per request: reuse buffers and objects, avoid building large strings or arrays per request',
      'see which functions allocate: node --heap-prof, or spawnbench diagnose --cpu-prof and look for (garbage collector)',
    ],
    figures: { gcFraction: num(p.gcFraction), gcPeakMsPerSec: num(p.gcPeakMsPerSec) },
  };
}
