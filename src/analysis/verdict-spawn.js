/** Rule: a thread spends a large share of its time frozen inside child_process spawn. */
import { pct, ms, int } from '../report/format.js';
import { where, worst, num } from './verdict-common.js';
import { FASTER_SPAWN_SENTENCE } from '../report/runtimes.js';

/**
 * 0.10 of wall time (the threshold). libuv forks and waits for exec on the
 * calling thread (~1.3 ms per `echo` here), so at 10% the thread already loses a
 * tenth of its time, and one process cannot pass ~800 spawns/s; the incident
 * behind spawnbench sat at 30%.
 */
export const SPAWN_BLOCKED_FRACTION = 0.1;

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function spawnBlocked(evidence) {
  const p = worst(evidence.processes, (x) => num(x.blockedFraction));
  if (!p || p.blockedFraction < SPAWN_BLOCKED_FRACTION) return null;
  return {
    id: 'spawn-blocked',
    kind: 'problem',
    title: `the event loop is blocked inside spawn ${pct(p.blockedFraction)} of the time`,
    where: where(p),
    evidence: [
      `blocked in spawn ${pct(p.blockedFraction, 1)} of wall time (threshold ${pct(SPAWN_BLOCKED_FRACTION)})`,
      `${int(p.spawnsPerSec)} spawns/s, ${ms(p.msPerSpawn)} frozen per spawn (fork copies the page tables of the whole process)`,
    ],
    next: [
      'move spawns off the main thread into small forked worker processes (the smaller the process that forks, the cheaper each fork)',
      'compare strategies on your workload: spawnbench tune --strategy fork-pool',
      ...(p.spawnMechanism === 'fork' ? [FASTER_SPAWN_SENTENCE] : []),
    ],
    figures: {
      blockedFraction: p.blockedFraction,
      spawnsPerSec: num(p.spawnsPerSec),
      msPerSpawn: num(p.msPerSpawn),
      spawnMechanism: p.spawnMechanism ?? null,
    },
  };
}
