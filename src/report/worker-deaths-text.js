/**
 * The pool workers that died during a run, for the text summary (and so `report`
 * and the HTML report's text): one line each under the errors, the few first when
 * a slot kept dying. Plain figures in (src/analysis/worker-deaths.js), lines out.
 */
import { workerDeathLabel } from '../base/labels.js';

/** Deaths listed one a line; the rest are counted. */
const MAX_LISTED = 4;

/**
 * @param {import('../analysis/worker-deaths.js').WorkerDeath[]|undefined} deaths
 * @returns {string[]} "Workers    worker 0 (pid 4242) died (SIGKILL) at 2.5 s; replaced by pid 4250", …
 */
export function formatWorkerDeaths(deaths) {
  if (!deaths?.length) return [];
  const lines = deaths.slice(0, MAX_LISTED).map((d, i) => `${i === 0 ? 'Workers    ' : '           '}${workerDeathLabel(d)}`);
  if (deaths.length > MAX_LISTED) lines.push(`           and ${deaths.length - MAX_LISTED} more worker deaths`);
  return lines;
}
