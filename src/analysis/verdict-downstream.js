/**
 * Rule: requests are slow while the server is idle: it is waiting on something
 * outside its own thread (a database, an HTTP downstream, a disk, a lock).
 */
import { pct, ms } from '../report/format.js';
import { where, worst, num } from './verdict-common.js';

/** 20 ms median latency on loopback: a request that only runs local JavaScript takes well under a millisecond. */
export const SLOW_P50_MS = 20;
/** ELU at most 0.5: the loop is idle at least half of the time, so it is not what makes requests wait. */
export const IDLE_ELU_MAX = 0.5;
/** At most 50% of one core: the process is not busy either (used when there is no probe, with --pid). */
export const IDLE_CPU_MAX_PCT = 50;

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function waitingOnDownstream(evidence) {
  const { load } = evidence;
  if (num(load.p50Ms) === null || load.p50Ms < SLOW_P50_MS) return null;
  const measured = evidence.processes.filter((p) => num(p.elu) !== null || num(p.cpuPct) !== null);
  if (measured.length === 0) return null;
  const idle = measured.every((p) =>
    num(p.elu) !== null ? p.elu <= IDLE_ELU_MAX : p.cpuPct <= IDLE_CPU_MAX_PCT,
  );
  if (!idle) return null;
  const busiest = worst(measured, (p) => num(p.elu) ?? (num(p.cpuPct) ?? 0) / 100);
  const busy = num(busiest.elu) !== null
    ? `the loop is busy only ${pct(busiest.elu)} of the time (ELU, threshold ≤ ${pct(IDLE_ELU_MAX)})`
    : `CPU only ${Math.round(busiest.cpuPct)}% of a core (threshold ≤ ${IDLE_CPU_MAX_PCT}%)`;
  return {
    id: 'downstream-wait',
    kind: 'problem',
    title: 'requests wait on I/O or a downstream, not on this process',
    where: where(busiest),
    evidence: [
      `latency p50 ${ms(load.p50Ms)}, p99 ${ms(load.p99Ms)} (threshold p50 ≥ ${ms(SLOW_P50_MS)})`,
      `while ${busy}`,
    ],
    next: [
      'time the calls each request waits on (database, HTTP, file system) and check their pools and timeouts',
      'more concurrency helps only if the downstream has room: raise its pool size, cache, or batch the calls',
    ],
    figures: { p50Ms: load.p50Ms, p99Ms: num(load.p99Ms), elu: num(busiest.elu), cpuPct: num(busiest.cpuPct) },
  };
}
