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
    Math.max(num(x.gcFraction) ?? -1, (num(x.gcPeakMsPerSec) ?? -1000) / 1000) / stretchOf(evidence, x),
  );
  if (!p) return null;
  // A pause is timed on the wall: a thread that waited for a core in it waited in the pause too. That wait is taken
  // out as from its busy time (busy-time.js): a server sharing its one CPU with a busy loop, 48% of its time waiting
  // for it, read "garbage-collection pauses stall the event loop … allocate less per request" (13.5% of wall time),
  // where alone on it its GC was a few per cent and its JavaScript the verdict.
  const stretch = stretchOf(evidence, p);
  const byShare = isFiniteNumber(p.gcFraction) && p.gcFraction / stretch >= GC_FRACTION;
  const byPeak = isFiniteNumber(p.gcPeakMsPerSec) && p.gcPeakMsPerSec / stretch >= GC_PEAK_MS_PER_SEC;
  if (!byShare && !byPeak) return null;
  return {
    id: 'gc-pressure',
    kind: 'problem',
    where: where(p),
    figures: { gcFraction: num(p.gcFraction), gcPeakMsPerSec: num(p.gcPeakMsPerSec) },
  };
}

/**
 * How much the wait for a core stretched the wall time of a process's main thread: (on a CPU + waiting) ÷ on a CPU,
 * from its schedstat; 1 where it is not the thread measured so or was not measured.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @param {import('./verdict-common.js').ProcessEvidence} p
 */
function stretchOf(evidence, p) {
  const t = evidence.mainThread;
  if (!t || t.pid !== p.pid || !(num(t.onCpu) ?? 0) || num(t.waitingForCpu) === null) return 1;
  return (t.onCpu + t.waitingForCpu) / t.onCpu;
}
