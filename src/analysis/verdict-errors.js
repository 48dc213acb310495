/**
 * Rules: spawns failed while their requests succeeded (the probe saw them, no response said so); a share of the requests failed, so latency and throughput describe a broken service; and the server
 * sent responses no request asked for (a second answer after a whole one), which fail no request but break
 * the stream: counted apart, so "50% of requests failed" is not said where every request had its answer.
 */
import { ERROR_RATE } from '../base/thresholds.js';
import { connectionsTurnedAway, topError } from './error-reasons.js';
import { swallowedSpawns } from './spawn-failures.js';
export { ERROR_RATE } from '../base/thresholds.js';

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function unsolicitedResponses(evidence) {
  const { load } = evidence;
  const unsolicited = load.unsolicited ?? 0;
  if (unsolicited === 0 || unsolicited / Math.max(1, load.attempts) < ERROR_RATE) return null;
  return { id: 'unsolicited-responses', kind: 'problem', where: null, figures: { unsolicited, attempts: load.attempts } };
}

/**
 * Spawns that failed while their requests came back without an error: the probe saw them fail in the server, no
 * response said so (issue #36: a server answering 200 with the empty output of an execFile that failed with
 * EMFILE read 3,938 req/s, "Errors none"). Whatever else the figures show is of answers without the work.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function spawnsSwallowed(evidence) {
  const { load } = evidence;
  const swallowed = swallowedSpawns(evidence.spawnFailures, load.attempts, ERROR_RATE);
  if (!swallowed) return null;
  return {
    id: 'spawns-swallowed',
    kind: 'problem',
    where: null,
    figures: { ...swallowed, rps: load.rps, spawnFailure: evidence.spawnFailures?.failures?.[0] ?? null },
  };
}

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function failingRequests(evidence) {
  const { load } = evidence;
  // A server that stopped answering in the warm-up sent nothing measured: that verdict says why, not 'too short'.
  if (load.requests === 0 && evidence.stall?.inWarmup) return null;
  // A server that exited during the run answered nothing after: that verdict says why, not "the phase was too short".
  if (load.requests === 0 && evidence.serverExit) return null;
  if (load.requests === 0) {
    return {
      id: 'no-responses',
      kind: 'problem',
      where: null,
      // What the next step depends on: which errors, whether bytes were still arriving, and whether the
      // diagnose was stopped before its measured phase ended (then "the measured phase was too short" is not so).
      figures: {
        requests: 0, errors: load.errors, errorKinds: load.errorKinds ?? {}, bytes: load.bytes ?? 0, plannedMs: load.plannedMs ?? null, timeoutMs: load.timeoutMs ?? null,
        stoppedEarly: Boolean(load.stoppedEarly), begun: load.begun ?? 0, speaksTls: load.speaksTls === true, spinning: load.spinning ?? null,
        parseTexts: (evidence.errorTexts ?? []).filter((e) => e.kind === 'parse'),
      },
    };
  }
  if (load.errorRate < ERROR_RATE) return null;
  const failedStatuses = Object.fromEntries(Object.entries(load.statuses ?? {}).filter(([status]) => !status.startsWith('2')));
  const top = topError({ errorTexts: evidence.errorTexts }, evidence.stderr);
  return {
    id: 'errors',
    kind: 'problem',
    where: null,
    // The commands it could not start, with the limit they ran into (ulimit -u): the cause and the fix, where
    // "check --path, --method, --header and --body" pointed at the request.
    figures: { errors: load.errors, errorRate: load.errorRate, attempts: load.attempts, failedStatuses, top, spawnFailure: evidence.spawnFailures?.failures?.[0] ?? null,
      filesLimit: evidence.openFilesLimit ?? null, turnedAway: connectionsTurnedAway(top, load.attempts - load.errors, load.connections ?? null) },
  };
}
