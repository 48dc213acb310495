/**
 * Rule: requests are slow while the server is idle: it is waiting on something
 * outside its own thread (a database, an HTTP downstream, a disk, a lock).
 */
import { pct, ms } from '../report/format.js';
import { where, worst, num, outsideBusy } from './verdict-common.js';
import { SLOW_P50_MS, IDLE_ELU_MAX, IDLE_BUSY_MAX } from '../thresholds.js';
export { SLOW_P50_MS, IDLE_ELU_MAX, IDLE_BUSY_MAX } from '../thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function waitingOnDownstream(evidence) {
  const { load } = evidence;
  if (num(load.p50Ms) === null || load.p50Ms < SLOW_P50_MS) return null;
  let busy;
  let place;
  if (evidence.probe) {
    const measured = evidence.processes.filter((p) => num(p.elu) !== null);
    if (measured.length === 0 || measured.some((p) => p.elu > IDLE_ELU_MAX)) return null;
    const busiest = worst(measured, (p) => p.elu);
    busy = `the loop is busy only ${pct(busiest.elu)} of the time (ELU, threshold ≤ ${pct(IDLE_ELU_MAX)})`;
    place = where(busiest);
  } else {
    const seen = outsideBusy(evidence);
    if (!seen || seen.busy > IDLE_BUSY_MAX) return null;
    busy = `${seen.text} (threshold ≤ ${pct(IDLE_BUSY_MAX)})`;
    place = seen.where;
  }
  return {
    id: 'downstream-wait',
    kind: 'problem',
    title: 'requests wait on I/O or a downstream, not on this process',
    where: place,
    evidence: [
      `latency p50 ${ms(load.p50Ms)}, p99 ${ms(load.p99Ms)} (threshold p50 ≥ ${ms(SLOW_P50_MS)})`,
      `while ${busy}`,
    ],
    next: [
      'time the calls each request waits on (database, HTTP, file system) and check their pools and timeouts',
      'more concurrency helps only if the downstream has room: raise its pool size, cache, or batch the calls',
    ],
    figures: { p50Ms: load.p50Ms, p99Ms: num(load.p99Ms) },
  };
}
