/**
 * Rule: a share of the requests failed because the server under test refused the
 * load generator's own connects (ECONNREFUSED): nothing listened on its port at
 * those moments. A server that a launcher restarts (nodemon ending its child and
 * starting another) does this between the two; the restarts seen in its process
 * tree are named. Apart from "the downstream refuses", which only errors that
 * came back in a response, or the server's stderr, can show.
 */
import { targetRefusal } from './error-reasons.js';
import { ERROR_RATE } from '../base/thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function targetRefuses(evidence) {
  const { load } = evidence;
  const restarts = evidence.restarts ?? [];
  // A restart seen in its process tree is named whatever share it failed: under ERROR_RATE, a server that
  // nodemon restarted mid-run (300 refused or reset of 53,057) was "healthy: nothing to fix at this load".
  const restarted = restarts.length > 0;
  if (load.errors === 0 || (!restarted && load.errorRate < ERROR_RATE)) return null;
  const refused = targetRefusal({ errorTexts: evidence.errorTexts });
  if (!refused || (!restarted && refused.count / Math.max(1, load.attempts) < ERROR_RATE)) return null;
  return {
    id: 'target-refuses',
    kind: 'problem',
    where: evidence.port != null ? `port ${evidence.port}` : null,
    figures: {
      refused: refused.count,
      text: refused.text,
      errors: load.errors,
      errorRate: load.errorRate,
      attempts: load.attempts,
      belowThreshold: load.errorRate < ERROR_RATE,
      port: evidence.port ?? null,
      mode: evidence.mode,
      // No request got a response: the port was closed the whole run.
      none: load.requests === 0,
      restarts: restarts.length,
      // The server's processes in turn: the first one measured, then each that replaced it.
      pids: restarts.length > 0 ? [restarts[0].from, ...restarts.map((r) => r.to)] : [],
    },
  };
}
