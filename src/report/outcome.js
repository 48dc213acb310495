/**
 * How much of a run succeeded, in words: the part of the throughput line that
 * says it, and the line no reader can miss when most requests failed. Used by
 * the text summary (and so `report` and the HTML report) and diagnose's report.
 * Plain figures in (src/analysis/request-outcome.js), strings out.
 */
import { int, pct } from './text-format.js';

/**
 * What follows the req/s of the throughput line: '' when every request succeeded,
 * else " (251 req/s succeeded, 97%)" or " (0 req/s succeeded)"; when every response
 * succeeded and the failures got none (refused, reset, timed out), the rate beside it is
 * the succeeded rate already: " (145 more got no response: 92% succeeded)".
 * @param {import('../analysis/request-outcome.js').RequestOutcome|null|undefined} outcome
 * @param {number|null} [responses] the responses the req/s counts (load.requests)
 * @param {number|null} [succeededRps] the successes' rate (the rps metric's figure), when not the outcome's
 * @returns {string}
 */
export function succeededPart(outcome, responses = null, succeededRps = outcome?.succeededRps) {
  if (!outcome || outcome.failed === 0 || outcome.attempts === 0) return '';
  if (outcome.succeeded > 0 && outcome.succeeded === responses) return ` (${int(outcome.failed)} more got no response: ${partShare(1 - outcome.failedShare)} succeeded)`;
  const rate = Number.isFinite(succeededRps) ? `${int(succeededRps)} req/s` : int(outcome.succeeded);
  return outcome.succeeded === 0 ? ` (${rate} succeeded)` : ` (${rate} succeeded, ${partShare(1 - outcome.failedShare)})`;
}

/**
 * A share that is part of the whole, never rounded up to it: "257 more got no response: 100%
 * succeeded" was said of 99.5%.
 * @param {number} fraction below 1
 */
function partShare(fraction) {
  if (pct(fraction) !== '100%') return pct(fraction);
  return pct(fraction, 1) !== '100.0%' ? pct(fraction, 1) : 'over 99.9%';
}

/**
 * The alarm line of a run whose requests mostly failed, or null: "FAILED     no request
 * succeeded: …" (the run exits 1) or "WARNING    85% of requests failed …". The throughput
 * counts the failures that got a response (a 500), not those that got none (reset, refused,
 * timed out): with `responses` known, it says which (it said "the throughput counts them"
 * beside a req/s of the 32% that succeeded, every failure a reset).
 * @param {import('../analysis/request-outcome.js').RequestOutcome|null|undefined} outcome
 * @param {number|null} [responses] the responses the req/s counts (load.requests)
 * @returns {string|null}
 */
export function outcomeAlarm(outcome, responses = null) {
  if (!outcome) return null;
  if (outcome.id === 'none-succeeded') {
    return `FAILED     no request succeeded: all ${int(outcome.attempts)} failed (see Errors); the throughput is that of the errors`;
  }
  if (outcome.id === 'mostly-failed') {
    return `WARNING    ${pct(outcome.failedShare)} of requests failed (${int(outcome.failed)} of ${int(outcome.attempts)}, see Errors); ${countedFailures(outcome, responses)}`;
  }
  return null;
}

/**
 * Which failures the throughput counts: those that got a response.
 * @param {import('../analysis/request-outcome.js').RequestOutcome} outcome
 * @param {number|null} responses
 */
function countedFailures(outcome, responses) {
  const answered = Number.isFinite(responses) ? Math.max(0, /** @type {number} */ (responses) - outcome.succeeded) : outcome.failed;
  if (answered >= outcome.failed) return 'the throughput counts them, the latency does not';
  if (answered === 0) return 'they got no response: the throughput and the latency leave them out';
  return `the throughput counts the ${int(answered)} that got a response, the latency none of them`;
}

/**
 * Whether the throughput (load.rps) counts failed requests: those that got a response.
 * @param {import('../analysis/request-outcome.js').RequestOutcome} outcome
 * @param {number|null|undefined} responses load.requests
 */
export function throughputCountsFailures(outcome, responses) {
  return outcome.failed > 0 && (!Number.isFinite(responses) || /** @type {number} */ (responses) > outcome.succeeded);
}

/**
 * The warning under a tune or compare table for a row whose requests mostly failed:
 * "WARNING    fork-pool: 85% of requests failed (5,950 of 7,000); its req/s and p99 count them".
 * @param {string} label the row: a strategy, or a pool size and policy
 * @param {ReturnType<typeof import('../analysis/request-outcome.js').runsOutcome>} outcome
 * @returns {string} without the WARNING prefix (the HTML report shows it as an alarm)
 */
export function rowFailureWarning(label, outcome) {
  if (outcome.noneSucceeded) return `${label}: no request succeeded, all ${int(outcome.attempts)} failed; its req/s and p99 are those of the errors`;
  const answered = outcome.answered ?? outcome.failed;
  const counted = answered >= outcome.failed
    ? 'its req/s and p99 count them'
    : answered === 0 ? 'they got no response: its req/s and p99 leave them out' : `its req/s and p99 count the ${int(answered)} that got a response`;
  return `${label}: ${pct(outcome.failedShare)} of requests failed (${int(outcome.failed)} of ${int(outcome.attempts)}); ${counted}`;
}

/** The prefix of a warning line in the text views, as outcomeAlarm() writes it. */
export const WARNING_PREFIX = 'WARNING    ';
