/**
 * Reads the `.cpuprofile` files a --cpu-prof run left and ranks functions by self
 * time (time on top of the stack), the figure a flame graph's widest frames show.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { TOP_FUNCTIONS } from '../base/thresholds.js';

export { TOP_FUNCTIONS };
/** V8's name for time the thread had nothing to do: not the code's cost, left out. */
const IDLE = '(idle)';

/**
 * Self time per function of one profile, highest first.
 * @param {{ nodes: object[], samples: number[], timeDeltas: number[], startTime: number, endTime: number }} profile
 * @param {number} [limit]
 * @returns {{ busyMs: number, functions: Array<{ name: string, url: string, line: number|null, selfMs: number, share: number }> }}
 *   `share`: of the busy (non-idle) time, 0..1
 */
export function topSelfTime(profile, limit = TOP_FUNCTIONS) {
  const byNode = new Map(profile.nodes.map((n) => [n.id, n.callFrame]));
  const selfUs = new Map();
  const { samples = [], timeDeltas = [] } = profile;
  // Sample i lasts from its own timestamp until the next one (the last until endTime).
  let at = profile.startTime;
  const stamps = samples.map((_, i) => (at += timeDeltas[i] ?? 0));
  for (let i = 0; i < samples.length; i++) {
    const until = i + 1 < samples.length ? stamps[i + 1] : Math.max(profile.endTime, stamps[i]);
    const frame = byNode.get(samples[i]);
    if (!frame || frame.functionName === IDLE) continue;
    const key = `${frame.functionName}\0${frame.url}\0${frame.lineNumber}`;
    selfUs.set(key, (selfUs.get(key) ?? 0) + Math.max(0, until - stamps[i]));
  }
  const busyUs = [...selfUs.values()].reduce((a, b) => a + b, 0);
  const functions = [...selfUs]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, us]) => {
      const [name, url, line] = key.split('\0');
      return {
        name: name || '(anonymous)',
        url,
        line: Number(line) >= 0 ? Number(line) + 1 : null, // V8 counts lines from 0
        selfMs: us / 1000,
        share: busyUs > 0 ? us / busyUs : 0,
      };
    });
  return { busyMs: busyUs / 1000, functions };
}

/**
 * The profiles in a folder, each ranked; the busiest first (a command that starts
 * several Node processes leaves one file per process).
 * @param {string} dir
 * @param {{ since?: number }} [options] only files written at or after this time (ms since the epoch):
 *   a --cpu-prof-dir given twice keeps the older runs' profiles out of this one
 * @returns {Array<{ file: string, busyMs: number, functions: object[] }>}
 */
export function readProfiles(dir, { since = 0 } = {}) {
  let names;
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.cpuprofile'));
  } catch {
    return [];
  }
  const profiles = [];
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (statSync(file).mtimeMs < since) continue;
      profiles.push({ file, ...topSelfTime(JSON.parse(readFileSync(file, 'utf8'))) });
    } catch {
      // A truncated file (the process was killed while writing) is skipped, not fatal.
    }
  }
  return profiles.sort((a, b) => b.busyMs - a.busyMs);
}
