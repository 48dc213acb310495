/**
 * The diagnose verdict: a table of rules, each a pure function of the Evidence
 * (src/diagnose/evidence.js) with named thresholds in its own file. The first
 * problem in table order is the verdict; every other finding is listed after it.
 * The order puts specific causes with a specific fix (spawn, GC) before the
 * general one (JavaScript), which would otherwise claim their busy time too,
 * and causes of stalls before failed requests (which the stall may explain).
 * A server that exited mid-run comes first (its other figures are cut short), then
 * a server that refused the generator's connects (it restarted, or did not listen),
 * then a downstream that refused it (its own words say why requests failed, whatever
 * else the machine did), then spawns that failed while their requests succeeded (every
 * other figure is of answers without the work), then a CPU quota that throttled it (every stall and delay
 * is partly the quota's), then a machine so short of CPU that every time-based
 * figure is mostly its doing. Threads outside the event loop that are the limit
 * (verdict-threads.js) come before that machine: they are what took its cores.
 * Ids and figures only: src/report/diagnose-words.js says them in words.
 */
import { serverExited, serverStoppedAnswering, serverPaused, generatorStopped } from './verdict-exited.js';
import { workersDied } from './verdict-worker-died.js';
import { spawnBlocked } from './verdict-spawn.js';
import { gcPressure } from './verdict-gc.js';
import { jsBlocking } from './verdict-js.js';
import { cpuBoundFromOutside, slowUnexplained } from './verdict-outside.js';
import { waitingOnDownstream } from './verdict-downstream.js';
import { failingRequests, unsolicitedResponses, spawnsSwallowed } from './verdict-errors.js';
import { downstreamRefuses } from './verdict-downstream-refuses.js';
import { targetRefuses } from './verdict-target-refuses.js';
import { generatorLimited } from './verdict-generator.js';
import { waitingForCpu, cpuStarved } from './verdict-starved.js';
import { healthy } from './verdict-healthy.js';
import { poolLimited, capacityOf } from './verdict-pool.js';
import { quotaThrottled } from './verdict-quota.js';
import { threadsLimited } from './verdict-threads.js';
import {
  SPAWN_BLOCKED_FRACTION, GC_FRACTION, GC_PEAK_MS_PER_SEC, LOOP_DELAY_P50_MS, LOOP_DELAY_P99_MS, LOOP_DELAY_MAX_MS,
  JS_SHARE_FOR_TAIL, BUSY_FRACTION, SLOW_P99_MS, LONG_TAIL_RATIO, SLOW_P50_MS, IDLE_ELU_MAX, IDLE_BUSY_MAX, ERROR_RATE,
  GENERATOR_BUSY_ELU, CPU_STARVED_FRACTION, CPU_STARVED_VERDICT_FRACTION, SATURATED_ELU, POOL_BUSY_FRACTION, MAIN_ELU_LIMIT,
  ELU_CPU_DISAGREE, MACHINE_CPU_LIMIT_PCT, QUOTA_THROTTLED_FRACTION,
  OFF_LOOP_SHARE, OFF_LOOP_BUSY_CORES, DIAGNOSE_MIN_MEASURED_MS, ADVICE_TIMER_SLACK_MS,
} from '../base/thresholds.js';

/** The rules in verdict order. */
export const RULES = [
  serverExited, generatorStopped, serverStoppedAnswering, serverPaused, workersDied, targetRefuses, downstreamRefuses, spawnsSwallowed, quotaThrottled, poolLimited, threadsLimited, waitingForCpu, spawnBlocked, gcPressure, jsBlocking, cpuBoundFromOutside, waitingOnDownstream, slowUnexplained,
  failingRequests, unsolicitedResponses, generatorLimited,
];

/** The thresholds the rules read (src/base/thresholds.js), by name, for the --json output. */
export const THRESHOLDS = Object.freeze({
  SPAWN_BLOCKED_FRACTION,
  GC_FRACTION,
  GC_PEAK_MS_PER_SEC,
  LOOP_DELAY_P50_MS,
  LOOP_DELAY_P99_MS,
  LOOP_DELAY_MAX_MS,
  JS_SHARE_FOR_TAIL,
  CPU_STARVED_FRACTION,
  CPU_STARVED_VERDICT_FRACTION,
  BUSY_FRACTION,
  SLOW_P99_MS,
  LONG_TAIL_RATIO,
  SLOW_P50_MS,
  IDLE_ELU_MAX,
  IDLE_BUSY_MAX,
  ERROR_RATE,
  GENERATOR_BUSY_ELU,
  SATURATED_ELU,
  POOL_BUSY_FRACTION,
  MAIN_ELU_LIMIT,
  ELU_CPU_DISAGREE,
  MACHINE_CPU_LIMIT_PCT,
  QUOTA_THROTTLED_FRACTION,
  OFF_LOOP_SHARE,
  OFF_LOOP_BUSY_CORES,
});

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {{ verdict: import('./verdict-common.js').Finding, findings: import('./verdict-common.js').Finding[],
 *   unseen: { id: 'probe'|'cpu', reason?: string|null, mode?: string }[],
 *   capacity: import('./pool-capacity.js').PoolCapacity }}
 *   `verdict`: the first problem, or healthy; `findings`: the other problems and limits; `unseen`: what could not be measured;
 *   `capacity`: the req/s the main thread, the pool and the CPU budget each allow (src/analysis/pool-capacity.js)
 */
export function diagnoseEvidence(evidence) {
  const found = RULES.map((rule) => rule(evidence)).filter(/** @returns {f is import('./verdict-common.js').Finding} */ (f) => Boolean(f));
  const problems = found.filter((f) => f.kind === 'problem');
  // Stopped before a response of the measured phase arrived: that is the verdict. Ranked with the others, the
  // warm-up's samples made one ("the machine is short of CPU", "blocked by JavaScript") of 0 requests measured.
  const stopped = problems.findIndex((f) => f.id === 'no-responses' && f.figures.stoppedEarly && !(typeof f.figures.errors === 'number' && f.figures.errors > 0));
  if (stopped > 0) problems.unshift(...problems.splice(stopped, 1));
  const limits = found.filter((f) => f.kind !== 'problem');
  const verdict = problems[0] ?? tooShort(evidence) ?? healthy(evidence, {
    generatorLimited: limits.some((f) => f.id === 'generator-limited'),
    cpuStarved: cpuStarved(evidence),
  });
  return {
    verdict,
    findings: [...problems.slice(1), ...limits],
    unseen: unseen(evidence),
    capacity: capacityOf(evidence),
  };
}

/**
 * No problem found in too little measured time to call the server healthy (DIAGNOSE_MIN_MEASURED_MS): the
 * verdict says so, not "healthy: nothing to fix". Null when long enough, or when the time is not known.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function tooShort(evidence) {
  const measuredMs = evidence.load.measuredMs;
  if (typeof measuredMs !== 'number' || measuredMs + ADVICE_TIMER_SLACK_MS >= DIAGNOSE_MIN_MEASURED_MS) return null;
  // Stopped (Ctrl-C, a signal) before the planned time: the planned time was not what was too short.
  /** @type {Record<string, number|boolean|null>} */
  const figures = { measuredMs, requests: evidence.load.requests, minMs: DIAGNOSE_MIN_MEASURED_MS };
  if (evidence.load.stoppedEarly) Object.assign(figures, { stoppedEarly: true, plannedMs: evidence.load.plannedMs ?? null });
  return { id: 'too-short', kind: 'limit', where: null, figures };
}

/**
 * What could not be measured, so a verdict from outside is read for what it is.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {{ id: 'probe'|'cpu', reason?: string|null, mode?: string }[]}
 */
export function unseen(evidence) {
  /** @type {ReturnType<typeof unseen>} */
  const gaps = [];
  if (!evidence.probe) gaps.push({ id: 'probe', reason: evidence.probeReason ?? null, mode: evidence.mode });
  if (!evidence.processes.some((p) => Number.isFinite(p.cpuPct))) gaps.push({ id: 'cpu', mode: evidence.mode });
  return gaps;
}
