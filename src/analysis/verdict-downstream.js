/**
 * Rule: requests are slow while the server is idle: it is waiting on something
 * outside its own thread (a database, an HTTP downstream, a disk, a lock).
 */
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
    busy = { busyFrom: 'elu', elu: busiest.elu };
    place = where(busiest);
  } else {
    const seen = outsideBusy(evidence);
    if (!seen || seen.busy > IDLE_BUSY_MAX) return null;
    busy = seen.figures;
    place = seen.where;
  }
  return {
    id: 'downstream-wait',
    kind: 'problem',
    where: place,
    figures: { p50Ms: load.p50Ms, p99Ms: num(load.p99Ms), ...busy },
  };
}
