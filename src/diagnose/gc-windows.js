/**
 * GC pauses per thread from the probe's reports: the share of wall time, and the
 * most pause time in any one-second window (Clinic Doctor's GC signal). The
 * sampler's summary keeps a total only, so diagnose folds the reports itself.
 */
import { GC_WINDOW_MS } from '../base/thresholds.js';

export { GC_WINDOW_MS };

/**
 * The sampler's key of a report's thread: '1234' for a main thread, '1234/2' for a worker thread.
 * @param {{ pid: number, threadId: number, isMainThread: boolean }} report
 */
export function reportKey(report) {
  return report.isMainThread ? `${report.pid}` : `${report.pid}/${report.threadId}`;
}

/**
 * @returns {{ add: (report: object) => void, result: () => Map<string, { gcFraction: number|null, gcPeakMsPerSec: number|null }> }}
 */
export function createGcWindows() {
  /** key → { wallMs, gcMs, windows: Map<windowIndex, ms> } */
  const threads = new Map();
  return {
    add(report) {
      if (report.gcMs == null || !(report.intervalMs > 0)) return;
      const key = reportKey(report);
      const entry = threads.get(key) ?? { wallMs: 0, gcMs: 0, windows: new Map() };
      entry.wallMs += report.intervalMs;
      entry.gcMs += report.gcMs;
      const index = Math.floor(report.t / GC_WINDOW_MS);
      entry.windows.set(index, (entry.windows.get(index) ?? 0) + report.gcMs);
      threads.set(key, entry);
    },
    result() {
      const out = new Map();
      for (const [key, { wallMs, gcMs, windows }] of threads) {
        out.set(key, {
          gcFraction: wallMs > 0 ? gcMs / wallMs : null,
          gcPeakMsPerSec: windows.size > 0 ? Math.max(...windows.values()) : null,
        });
      }
      return out;
    },
  };
}
