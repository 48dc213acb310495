/** Rule: a thread spends a large share of its time frozen inside child_process spawn. */
import { where, worst, num } from './verdict-common.js';
import { spawningRoutes } from './route-costs.js';
import { SPAWN_BLOCKED_FRACTION } from '../base/thresholds.js';
export { SPAWN_BLOCKED_FRACTION } from '../base/thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function spawnBlocked(evidence) {
  const p = worst(evidence.processes, (x) => num(x.blockedFraction));
  // worst() picks only a process whose blockedFraction is a finite number.
  if (!p || p.blockedFraction === null || p.blockedFraction < SPAWN_BLOCKED_FRACTION) return null;
  return {
    id: 'spawn-blocked',
    kind: 'problem',
    where: where(p),
    figures: { blockedFraction: p.blockedFraction, spawnsPerSec: num(p.spawnsPerSec), msPerSpawn: num(p.msPerSpawn), spawnMechanism: p.spawnMechanism ?? null, routes: spawningRoutes(p) },
  };
}
