/**
 * How many of a run's requests succeeded. The load generator counts every
 * response in `requests` and its throughput, a 500 as much as a 200; a request
 * that got no response (refused, reset, timed out, unparsable, TLS) is an error
 * only. A success is a 2xx response whose body matched (when bodies are checked).
 * Pure: a LoadResult or LoadTick in, counts and an id out.
 */
import { MOSTLY_FAILED_SHARE } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';

/**
 * @typedef {object} RequestOutcome
 * @property {'no-requests'|'all-succeeded'|'some-failed'|'mostly-failed'|'none-succeeded'} id
 * @property {number} attempts      requests that ended: with a response, or with an error and none
 * @property {number} succeeded     2xx responses whose body matched
 * @property {number} failed        the rest: non-2xx, body mismatch, no response
 * @property {number} failedShare   failed ÷ attempts, 0..1 (0 with no attempts)
 * @property {number|null} succeededRps successes per second of the measured time (null when it is not known)
 * @property {number} mostlyFailedShare the share from which a run mostly failed (thresholds.js)
 */

/**
 * @param {{ requests?: number, errors?: Partial<Record<string, number>>, unsolicited?: number, durationMs?: number|null, elapsedMs?: number, rps?: number|null, meanRps?: number }|null} load
 *   a LoadResult (`durationMs`, `rps`) or a LoadTick (`elapsedMs`, `meanRps`)
 * @returns {RequestOutcome}
 */
export function requestOutcome(load) {
  const responses = load?.requests ?? 0;
  const errors = load?.errors ?? {};
  const failedResponses = (errors.non2xx ?? 0) + (errors.mismatch ?? 0);
  // A parse error with no request in flight (a response nobody asked for) failed no request.
  const withoutResponse = Math.max(0, (errors.total ?? 0) - failedResponses - (load?.unsolicited ?? 0));
  const attempts = responses + withoutResponse;
  const succeeded = Math.max(0, responses - failedResponses);
  const failed = attempts - succeeded;
  const failedShare = attempts > 0 ? failed / attempts : 0;
  const ms = load?.durationMs ?? load?.elapsedMs ?? null;
  // The rate the throughput line shows beside it (a LoadResult's rps, a tick's mean), scaled to the
  // successes: a rate of its own, from the rounded duration, once read 14,030 succeeded of 14,029 req/s.
  const total = load && 'meanRps' in load ? load.meanRps : load?.rps;
  const succeededRps = isFiniteNumber(total) && responses > 0 ? share(total, succeeded, responses) : ms !== null && ms > 0 ? (succeeded * 1000) / ms : null;
  return {
    id: outcomeId(attempts, succeeded, failedShare),
    attempts,
    succeeded,
    failed,
    failedShare,
    succeededRps,
    mostlyFailedShare: MOSTLY_FAILED_SHARE,
  };
}

/**
 * total × part ÷ whole, exactly total when the part is the whole (× then ÷ can be 1 ulp off).
 * @param {number} total
 * @param {number} part
 * @param {number} whole
 */
function share(total, part, whole) {
  return part === whole ? total : (total * part) / whole;
}

/**
 * @param {number} attempts
 * @param {number} succeeded
 * @param {number} failedShare
 * @returns {RequestOutcome['id']}
 */
function outcomeId(attempts, succeeded, failedShare) {
  if (attempts === 0) return 'no-requests';
  if (succeeded === 0) return 'none-succeeded';
  if (failedShare >= MOSTLY_FAILED_SHARE) return 'mostly-failed';
  return failedShare > 0 ? 'some-failed' : 'all-succeeded';
}

/**
 * Whether the figures of a run describe its failures more than the service: most
 * requests failed, or none succeeded (no recommendation is drawn from such a run).
 * @param {RequestOutcome|null} outcome
 */
export function mostlyFailed(outcome) {
  return outcome?.id === 'mostly-failed' || outcome?.id === 'none-succeeded';
}

/**
 * A run's attempts and successes; for one saved before they were recorded (compare and tune files
 * before `attempts` and `succeeded`), bounds that no gate passes on: which of its errors got a
 * response (a 500 counts in `requests` too, a refused connect does not) is not recorded, so each is
 * taken as one, its successes `requests − errors`. Counting them apart had a row half of whose
 * requests got 500s pass `errors<=40%` at "33%" and `rps>=15000` on its 500s.
 * @param {{ requests?: number, errors?: number, attempts?: number, succeeded?: number }} run
 * @returns {{ attempts: number, succeeded: number }}
 */
export function runAttempts(run) {
  if (isFiniteNumber(run.attempts) && isFiniteNumber(run.succeeded)) return { attempts: run.attempts, succeeded: run.succeeded };
  const errors = run.errors ?? 0;
  const succeeded = Math.max(0, (run.requests ?? 0) - errors);
  return { attempts: succeeded + errors, succeeded };
}

/**
 * How many requests of several runs failed: a tune cell's repeats, a compare row's.
 * Runs that could not start are left out (they say so themselves).
 * @param {Array<{ requests?: number, errors?: number, attempts?: number, succeeded?: number, failed?: unknown }>} runs
 *   RunFigures (src/analysis/run-figures.js); one saved before `attempts` counts its errors among them
 * @returns {{ attempts: number, failed: number, answered: number, failedShare: number, mostlyFailed: boolean, noneSucceeded: boolean }} `answered`: the failures that got a response
 */
export function runsOutcome(runs) {
  let attempts = 0;
  let failed = 0;
  // The failures that got a response (a 500), which req/s and p99 count; those with none (reset, refused) they leave out.
  let answered = 0;
  // A run saved without the split that got responses may have had successes among them: not "none succeeded".
  let maybeSucceeded = false;
  for (const run of runs) {
    if (run.failed) continue;
    if (isFiniteNumber(run.attempts) && isFiniteNumber(run.succeeded)) {
      attempts += run.attempts;
      failed += run.attempts - run.succeeded;
      answered += isFiniteNumber(run.requests) ? Math.max(0, run.requests - run.succeeded) : run.attempts - run.succeeded;
    } else {
      // Without the split: its errors taken as responses (runAttempts), a ceiling on the failed share.
      const split = runAttempts(run);
      attempts += split.attempts;
      failed += split.attempts - split.succeeded;
      answered += Math.min(run.errors ?? 0, run.requests ?? 0);
      if ((run.requests ?? 0) > 0) maybeSucceeded = true;
    }
  }
  const failedShare = attempts > 0 ? failed / attempts : 0;
  return { attempts, failed, answered, failedShare, mostlyFailed: attempts > 0 && failedShare >= MOSTLY_FAILED_SHARE, noneSucceeded: attempts > 0 && failed === attempts && !maybeSucceeded };
}
