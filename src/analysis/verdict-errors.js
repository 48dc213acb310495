/** Rule: a share of the requests failed, so latency and throughput describe a broken service. */
import { pct, int } from '../report/format.js';
import { ERROR_RATE } from '../thresholds.js';
export { ERROR_RATE } from '../thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function failingRequests(evidence) {
  const { load } = evidence;
  const total = load.attempts;
  if (load.requests === 0) {
    return {
      id: 'no-responses',
      kind: 'problem',
      title: 'no request completed',
      where: null,
      evidence: [`0 responses during the measured time${load.errors ? ` (${int(load.errors)} failed requests)` : ''}`],
      next: ['check the path and method (--path, --method) and that the server answers them: curl -v the URL'],
      figures: { requests: 0, errors: load.errors },
    };
  }
  if (load.errorRate < ERROR_RATE) return null;
  const statuses = Object.entries(load.statuses ?? {})
    .filter(([status]) => !status.startsWith('2'))
    .map(([status, n]) => `${status} ×${int(n)}`);
  return {
    id: 'errors',
    kind: 'problem',
    title: `${pct(load.errorRate)} of requests failed`,
    where: null,
    evidence: [
      `${int(load.errors)} failed of ${int(total)} (threshold ${pct(ERROR_RATE)})${statuses.length ? `: ${statuses.join(', ')}` : ''}`,
    ],
    next: ['look at the server\'s log for these requests; check --path, --method, --header and --body'],
    figures: { errors: load.errors, errorRate: load.errorRate },
  };
}
