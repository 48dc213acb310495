/**
 * Rule: a share of the requests failed, and what the server answered (or wrote to
 * stderr) is a downstream turning it away: PostgreSQL's "sorry, too many clients
 * already", a refused connect, a pool's connect timeout, or a text that names the
 * process listening on one of its downstream connections. Apart from
 * "waits on a downstream" (slow, not refused) and from plain failing requests.
 */
import { downstreamRefusal } from './error-reasons.js';
import { ERROR_RATE } from '../base/thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function downstreamRefuses(evidence) {
  const { load } = evidence;
  if (load.errorRate < ERROR_RATE || load.errors === 0) return null;
  const found = downstreamRefusal({ errorTexts: evidence.errorTexts }, evidence.stderr, evidence.downstreams);
  if (!found) return null;
  return {
    id: 'downstream-refuses',
    kind: 'problem',
    where: found.downstream?.peer ?? null,
    figures: { ...found, errors: load.errors, errorRate: load.errorRate, attempts: load.attempts },
  };
}
