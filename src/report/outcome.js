/**
 * How much of a run succeeded, in words: the part of the throughput line that
 * says it, and the line no reader can miss when most requests failed. Used by
 * the text summary (and so `report` and the HTML report) and diagnose's report.
 * Plain figures in (src/analysis/request-outcome.js), strings out.
 */
import { int, pct } from './text-format.js';

/**
 * What follows the req/s of the throughput line: '' when every request succeeded,
 * else " (251 req/s succeeded, 97%)" or " (0 req/s succeeded)".
 * @param {import('../analysis/request-outcome.js').RequestOutcome|null|undefined} outcome
 * @returns {string}
 */
export function succeededPart(outcome) {
  if (!outcome || outcome.failed === 0 || outcome.attempts === 0) return '';
  const rate = Number.isFinite(outcome.succeededRps) ? `${int(outcome.succeededRps)} req/s` : int(outcome.succeeded);
  return outcome.succeeded === 0 ? ` (${rate} succeeded)` : ` (${rate} succeeded, ${pct(1 - outcome.failedShare)})`;
}

/**
 * The alarm line of a run whose requests mostly failed, or null: "FAILED     no request
 * succeeded: …" (the run exits 1) or "WARNING    85% of requests failed …".
 * @param {import('../analysis/request-outcome.js').RequestOutcome|null|undefined} outcome
 * @returns {string|null}
 */
export function outcomeAlarm(outcome) {
  if (!outcome) return null;
  if (outcome.id === 'none-succeeded') {
    return `FAILED     no request succeeded: all ${int(outcome.attempts)} failed (see Errors); the throughput is that of the errors`;
  }
  if (outcome.id === 'mostly-failed') {
    return `WARNING    ${pct(outcome.failedShare)} of requests failed (${int(outcome.failed)} of ${int(outcome.attempts)}, see Errors); the throughput counts them, the latency does not`;
  }
  return null;
}
