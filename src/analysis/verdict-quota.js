/**
 * Rule: the CPU quota of the server's cgroup (or of an ancestor: a pod, a slice)
 * throttled it in many periods. A throttled group's threads all stop until the
 * next period (its cfs period, 100 ms by default), so loop delays and latency carry the quota's
 * stalls; more workers only split the same quota. Read from cpu.stat
 * (src/sample/throttling.js). A quota that binds spawnbench alone holds back the
 * load generator: a limit on what was measured, not the server's problem.
 */
import { QUOTA_THROTTLED_FRACTION } from '../base/thresholds.js';
export { QUOTA_THROTTLED_FRACTION } from '../base/thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function quotaThrottled(evidence) {
  const q = evidence.quota ?? null;
  if (!q || !(q.throttledFraction >= QUOTA_THROTTLED_FRACTION)) return null;
  const server = q.roles.includes('server');
  return {
    id: server ? 'cpu-quota' : 'generator-quota',
    kind: server ? 'problem' : 'limit',
    where: q.cgroup ? `cgroup ${q.cgroup}` : null,
    figures: { quotaCpus: q.quotaCpus, throttledFraction: q.throttledFraction, throttledMs: q.throttledMs, periodMs: q.periodMs ?? null, sharedWith: server && q.roles.includes('spawnbench') ? 'spawnbench' : null },
  };
}
