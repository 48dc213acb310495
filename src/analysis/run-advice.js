/**
 * The recommendation a run ends with: for a pool strategy, a pool size and a
 * balancing policy for this machine from this run's evidence; for a strategy
 * without a pool, which pool strategy to move to and what it should gain. One
 * run is not a sweep: each recommendation says how sure it is and the `tune`
 * command that confirms it. Pure and wordless: figures in, ids and figures out
 * (src/report/run-advice-text.js words them).
 */
import { estimatePoolSize, childCpuOf } from './pool-size.js';
import { poolBalance } from './pool-balance.js';
import { busyShare } from './busy-time.js';
import { confirmCommand } from './confirm-command.js';
import { bigOtherUsers, connectionsTurnedAway, downstreamRefusal, targetRefusal, topError } from './error-reasons.js';
import { findBottleneck, moreGeneratorThreads } from './bottleneck.js';
import { mean, isFiniteNumber } from './stats.js';
import { mostlyFailed, requestOutcome } from './request-outcome.js';
import { swallowedSpawns } from './spawn-failures.js';
import { ownTarget, ownPolicy, ownConfirm, noKnobReason, singleProcessLimit, outsideWait, openLoopBeyond } from './own-run-advice.js';
import { threadKnobReason, threadKnobSizes, withThreadKnob } from './thread-knob-advice.js';
import { adviseProcesses, spawnsSeen, processesSweep } from './process-advice.js';
import {
  MAIN_ELU_LIMIT,
  SPAWN_BLOCKED_LIMIT_FRACTION,
  RPS_BAND,
  ADVICE_MIN_MEASURED_MS,
  ADVICE_TIMER_SLACK_MS,
  POOL_TARGET_BUSY,
  ADVICE_MIN_REQUESTS,
  DEFAULT_DURATION_MS,
  OTHER_PROCESSES_CORES,
  ADVICE_CONTENDED_WAIT,
  ERROR_RATE,
  TUNE_MAX_SIZE_FACTOR,
  LEAST_REQUESTS_MAX_POOL,
  POOL_MAIN_MS_PER_REQUEST,
  QUOTA_THROTTLED_FRACTION,
  MACHINE_CPU_LIMIT_PCT,
  OPEN_LOOP_BEYOND_SHARE,
} from '../base/thresholds.js';
import { targetOf } from '../base/target-kinds.js';

/**
 * @typedef {import('./advice-input.js').AdviceInput} AdviceInput
 * @typedef {import('./advice-input.js').ThreadFigures} ThreadFigures
 * @typedef {AdviceInput & { target: NonNullable<AdviceInput['target']> }} TargetedInput the input of a run with a
 *   target to advise (targetOf gives an advice only for a plan's target; a user's server's is ownTarget's)
 * @typedef {ReturnType<typeof busyShare>} BusyShare
 * @typedef {BusyShare & { busy: number }} MeasuredBusy a busy share that was measured
 * @typedef {ReturnType<typeof estimatePoolSize>} PoolEstimate
 */

/**
 * The numbers behind a reason: free-form, one set per reason id (the report reads them by name).
 * @typedef {Record<string, any>} ReasonFigures
 */

/**
 * @typedef {object} Reason
 * @property {string} id       what was found (the report words it)
 * @property {ReasonFigures} figures  the numbers behind it
 */

/**
 * @typedef {object} RunAdvice
 * @property {number|null} size         pool size to use (null: no pool, or cannot tell)
 * @property {string|null} policy       balancing policy to use (null: no pool, or cannot tell)
 * @property {string|null} strategy     pool strategy to move to (runs without a pool), else null
 * @property {'one-run'|null} basis     what the advice rests on (null: nothing to advise)
 * @property {'high'|'medium'|'low'|null} confidence
 * @property {Reason[]} reasons
 * @property {import('./confirm-command.js').ConfirmWith|null} confirmWith
 * @property {object|null} estimate     the pool model's figures (pool-size.js), for the curious
 * @property {import('./size-knob.js').SizeKnob|null} [knob] a user's server: the knob the advice is worded for
 */

/**
 * @param {import('./advice-input.js').AdviceInput} input
 * @returns {RunAdvice}
 */
export function adviseRun(input) {
  const advice = adviseRunAlone(input);
  return { ...advice, reasons: [...advice.reasons, ...neighbourReasons(input)] };
}

/**
 * What the server's own words and neighbours add (the same reasons tune and diagnose
 * give): why requests failed (`errors-why`: the most frequent error text, its stderr
 * line, and a downstream's refusal with its connections) and who else took a large
 * share of the cores (`other-users`, marked where one is the server's downstream).
 * @param {import('./advice-input.js').AdviceInput} input
 * @returns {Reason[]}
 */
export function neighbourReasons(input) {
  const reasons = [];
  const load = { errorTexts: input.errorTexts ?? [] };
  const top = input.errors > 0 ? topError(load, input.stderr ?? null) : null;
  // The generator's refused connects are the server's refusal (it restarted, or did not listen), never a downstream's.
  const restarts = input.restarts ?? [];
  const target = targetRefusal(load);
  if (top) {
    reasons.push({
      id: 'errors-why',
      figures: {
        ...top,
        refusal: downstreamRefusal(load, input.stderr ?? null, input.downstreams ?? null),
        targetRefusal: target && { ...target, restarts: restarts.length, pids: restarts.length > 0 ? [restarts[0].from, ...restarts.map((r) => r.to)] : [] },
        filesLimit: input.openFilesLimit ?? null,
        turnedAway: connectionsTurnedAway(top, input.outcome?.succeeded ?? input.requests - input.errors, input.load?.connections ?? null),
        // What a rate limit (429) let through: the rate to measure under it.
        succeededRps: input.outcome?.succeededRps ?? null,
      },
    });
  }
  // Other processes are measured host-wide and are not under the run's quota or cpuset: their share is of the host's CPUs.
  const hostCpus = input.hostCpus ?? input.cores;
  const users = bigOtherUsers(input.otherUsers ?? null, hostCpus, input.downstreams ?? null);
  if (users.length > 0) reasons.push({ id: 'other-users', figures: { users, cores: hostCpus, budgetSource: input.budgetSource ?? null } });
  return reasons;
}

/** @type {RunAdvice} */
const NONE = { size: null, policy: null, strategy: null, basis: null, confidence: null, reasons: [], confirmWith: null, estimate: null };

/** The advice of each kind of target (src/base/target-kinds.js `advice`): one function each; a --url has none. */
/** @type {Record<'strategy'|'own', (input: TargetedInput) => RunAdvice>} */
const ADVICE = {
  strategy: (input) => adviseTarget(input, STRATEGY),
  own: adviseOwnServer,
};

/**
 * @param {AdviceInput} input
 * @returns {RunAdvice}
 */
function adviseRunAlone(input) {
  const advice = targetOf(input.target).advice;
  // An advice is named only for a plan's target (targetOf): the target is there.
  return advice ? ADVICE[advice](/** @type {TargetedInput} */ (input)) : { ...NONE, reasons: [{ id: 'not-a-strategy', figures: {} }] };
}

/**
 * A user's server: the same model over its own workers, worded for its knob.
 * @param {TargetedInput} input
 * @returns {RunAdvice}
 */
function adviseOwnServer(input) {
  const own = { ...input, target: ownTarget(input) };
  const advice = adviseTarget(own, OWN_SERVER);
  // A knob the model does not size (a single process's UV_THREADPOOL_SIZE): its sweep all the same,
  // and its value today and the value to try (thread-knob-advice.js).
  const threads = threadKnobReason(input);
  // A thread knob reading 1 is swept past 2 (threads share one process); a worker knob reading 1, 1 against 2 (broadSizes).
  const confirmWith = advice.confirmWith ?? ownConfirm(own, threadKnobSizes(threads ? sweepSizes(input.cores) : OWN_SERVER.broadSizes(input), threads), null);
  return { ...advice, reasons: withThreadKnob(advice.reasons, threads), confirmWith, knob: input.knob ?? null };
}

/**
 * Where the pool model asks of the target: a strategy (its pool in the plan, a move to a pool strategy,
 * `tune --strategy`) or a user's server (its knob, node:cluster's policy, more processes of itself,
 * `tune -- <command>`, own-run-advice.js and process-advice.js).
 * @typedef {object} Adviser
 * @property {(input: TargetedInput, size: number) => { policy: string|null, reason: Reason }} policy  the balancing policy at `size`
 * @property {(input: TargetedInput, strategy: string|null, sizes: number[], policies: string[]|null) => import('./confirm-command.js').ConfirmWith|null} confirm  the tune that confirms it
 * @property {(input: AdviceInput, sizes: number[]) => Reason[]} knobReasons  how to give tune a knob it lacks
 * @property {(input: AdviceInput) => number[]} broadSizes  the sweep when the run cannot narrow it
 * @property {(input: TargetedInput) => import('./confirm-command.js').ConfirmWith|null} noKnobSweep  a too-short run's sweep when `confirm` has none
 * @property {(input: AdviceInput) => string|null} moveTo  the pool strategy a run without a pool moves to
 * @property {(input: AdviceInput, main: ThreadFigures, busy: MeasuredBusy) => Reason[]|null} quotaHeld  a single process held back by a
 *   CPU quota that throttled: why more of it would not help (the advice ends there), or null to go on
 * @property {(input: AdviceInput) => Reason[]} roomReasons  a single process whose main thread had room: what limits it instead
 * @property {(input: AdviceInput, main: ThreadFigures, busy: MeasuredBusy) => ReturnType<typeof adviseProcesses>|null} moreProcesses  a single
 *   process whose main thread is the limit: more processes of itself (null: move its spawning to a pool)
 * @property {string} poolWouldHelp  the reason's id when a pool is expected to gain
 */

/** @type {Adviser} */
const STRATEGY = {
  policy: strategyPolicy,
  // A strategy's target names its strategy, and moveTo (pickPoolStrategy) always names one: never null here.
  confirm: (input, strategy, sizes, policies) => confirmCommand({ strategy: /** @type {string} */ (strategy), sizes, policies, target: input.target, workload: input.workload, load: input.load }),
  knobReasons: () => [],
  broadSizes: (input) => sweepSizes(input.cores),
  noKnobSweep: () => null,
  moveTo: pickPoolStrategy,
  quotaHeld: () => null,
  roomReasons: () => [],
  moreProcesses: () => null,
  poolWouldHelp: 'move-to-pool',
};

/** @type {Adviser} */
const OWN_SERVER = {
  policy: ownPolicy,
  confirm: (input, strategy, sizes, policies) => ownConfirm(input, sizes, policies),
  knobReasons: (input, sizes) => {
    const reason = noKnobReason(input, sizes);
    return reason ? [reason] : [];
  },
  // A knob that reads 1 on a single process (WORKERS=1, its code forking only above 1): 1 against 2 tells.
  broadSizes: (input) => (input.knob?.value === 1 && input.workers.length === 0 ? [1, 2] : sweepSizes(input.cores)),
  // A single process of its own with no knob: the sweep that needs none, over process counts.
  noKnobSweep: (input) => (input.target.pool ? null : processesSweep(input)),
  moveTo: () => null,
  // More processes would split the same quota (asked only when throttledByQuota: the throttle is there).
  quotaHeld: (input, main, busy) => [
    ...budgetReasons(input),
    { id: 'one-process-enough', figures: { limit: 'quota', share: input.throttle?.fraction, quotaCpus: input.throttle?.quotaCpus, elu: main.elu, busy: busy.busy } },
  ],
  roomReasons: (input) => {
    const cores = fullCores(input);
    // With cores to spare, a process it started (not a worker) whose loop never idled is the limit: "nothing it runs on
    // was saturated" was said of a server whose backend, started beside it, ran at ELU 1.00.
    const child = cores ? null : busyChild(input);
    const single = child ?? cores ?? singleProcessLimit(estimatePoolSize({ ...input, workers: [] }), input.rps);
    // Nothing saturated, and each request's time mostly a wait outside it: say so, not only "the load offered".
    const wait = single.limit === 'load' ? outsideWait(input) : null;
    // An open loop far beyond what was answered: its connections carried what was served, not the rate offered.
    const offered = single.limit === 'load' && !wait ? openLoopBeyond(input) : null;
    return [{ id: 'one-process-enough', figures: wait ? { ...single, ...wait } : offered ? { ...single, offered } : single }];
  },
  // A server of its own that spawns nothing: more processes of it, not spawning in workers (issue 37 items 3, 7).
  moreProcesses: (input, main, busy) => (spawnsSeen(main, input.spawnedCpuPct) ? null : adviseProcesses(input, busy)),
  poolWouldHelp: 'own-pool-would-help',
};

/**
 * The reason a run is not sized when the probe saw its spawns fail and the responses did not say so, with the
 * command, errno and limit that failed most (null: none, or fewer than ERROR_RATE of the requests).
 * @param {AdviceInput} input
 * @returns {Reason|null}
 */
export function swallowedSpawnsReason(input) {
  const failures = input.spawnFailures ?? null;
  const attempts = input.outcome?.attempts ?? input.requests + input.errors;
  const swallowed = swallowedSpawns(failures, attempts, ERROR_RATE);
  if (!swallowed || !failures) return null;
  const top = failures.failures[0];
  return {
    id: 'spawns-swallowed',
    figures: { ...swallowed, errors: input.outcome?.failed ?? input.errors, rps: input.rps, command: top.command, code: top.code, count: top.count, limit: top.limit, limitValue: top.limitValue ?? null },
  };
}

/**
 * The pool model over any target with processes of its own: too little measured, a pool sized, or a
 * single process judged; `adviser` (an Adviser) answers where a strategy and a user's server differ.
 * @param {TargetedInput} input
 * @param {Adviser} adviser
 * @returns {RunAdvice}
 */
function adviseTarget(input, adviser) {
  const target = input.target;
  // Figures of requests that mostly failed describe the failures (an error answered at once looks fast), not the service.
  const outcome = input.outcome ?? null;
  if (outcome && mostlyFailed(outcome)) {
    const { failed, attempts, failedShare, succeeded } = outcome;
    return { ...NONE, reasons: [{ id: 'requests-failed', figures: { failed, attempts, failedShare, succeeded, limit: outcome.mostlyFailedShare } }] };
  }
  // Nor requests answered as though their command ran when it could not start (issue #36: every execFile failed with
  // EMFILE, the server answered 200, 3,938 req/s): the rate is of answers without the work.
  const swallowed = swallowedSpawnsReason(input);
  if (swallowed) return { ...NONE, reasons: [swallowed] };
  // A server that died during the run is not sized from the figures it left: what killed it comes first.
  if (input.serverExit) return { ...NONE, reasons: [{ id: 'server-exited', figures: { ...input.serverExit } }] };
  // Nor one that answered nothing while a process of it kept a CPU busy, its loop held: "too short" sent its user after a longer run.
  if (input.heldLoop) return { ...NONE, reasons: [{ id: 'loop-held', figures: { ...input.heldLoop } }] };
  // Nor is one that stopped answering: the requests it left waiting are in no figure.
  if (input.stall) return { ...NONE, reasons: [{ id: 'stopped-answering', figures: { ...input.stall } }] };
  // Nor a run whose load stopped with spawnbench (Ctrl-Z, SIGSTOP): its rate holds the gap, whatever the server could do.
  if (input.generatorStopped) return { ...NONE, reasons: [{ id: 'generator-stopped', figures: { stoppedMs: input.generatorStopped.ms, durationMs: input.durationMs, inWarmup: Boolean(input.generatorStopped.inWarmup) } }] };
  // Nor one that answered nothing for a while mid-run (a debugger, SIGSTOP, a VM pause): its figures hold the pause.
  if (input.pause) return { ...NONE, reasons: [{ id: 'paused', figures: { ...input.pause } }] };
  // Nor one replaced mid-run (nodemon, a supervisor): its figures are of two processes, and the gap between.
  const restarts = input.restarts ?? [];
  if (restarts.length > 0) return { ...NONE, reasons: [{ id: 'server-restarted', figures: { restarts: restarts.length, pids: [restarts[0].from, ...restarts.map((r) => r.to)] } }] };
  // Nor a node:cluster whose round-robin gave a worker connections it never answered on this port: it serves another.
  const unreached = adviser === OWN_SERVER ? unreachedWorkers(input) : null;
  if (unreached) return { ...NONE, reasons: [{ id: 'workers-unreached', figures: unreached }] };
  if (input.durationMs + ADVICE_TIMER_SLACK_MS < ADVICE_MIN_MEASURED_MS || input.requests < ADVICE_MIN_REQUESTS) {
    const strategy = target.pool ? target.strategy : adviser.moveTo(input);
    const sizes = adviser.broadSizes(input);
    return {
      ...NONE,
      // The sweep it proposes is sized by the budget: say which.
      // Stopped (Ctrl-C, a signal) before its end: not the -d or -n given that was too short.
      reasons: [{ id: 'too-short', figures: { durationMs: input.durationMs, requests: input.requests, minMs: ADVICE_MIN_MEASURED_MS, minRequests: ADVICE_MIN_REQUESTS, ...(input.stoppedEarly ? { stoppedEarly: true } : {}) } }, ...budgetReasons(input), ...deathReasons(input), ...adviser.knobReasons(input, sizes)],
      confirmWith: adviser.confirm(input, strategy, sizes, target.pool ? null : ['round-robin']) ?? adviser.noKnobSweep(input),
    };
  }
  // A quota on spawnbench only held the load generator back, not the server: its figures size nothing. It was
  // sized as the server's ("One process is enough: the limit is its CPU quota (0.3 CPU) … a second process
  // would get no more than the same 0.3 CPU"), while the server ran outside that cgroup.
  if (throttledByQuota(input) && !input.throttle.roles?.includes('server')) return { ...NONE, reasons: budgetReasons(input) };
  // A server on another runtime (python3 -m http.server) has no event loop the probe reads: its main thread's CPU says
  // nothing of where its work ran (a thread per connection). It was told "Its main thread had room (on a CPU 11% of the
  // time) … the limit is the load offered" while its process used 83% of a core.
  if (adviser === OWN_SERVER && input.otherRuntime) {
    return { ...NONE, basis: 'one-run', reasons: [{ id: 'other-runtime', figures: { program: input.otherRuntime, cpuPct: input.main?.cpuPct ?? null, mainCpuPct: input.main?.loopCpuPct ?? null } }] };
  }
  return target.pool ? advisePool(input, adviser) : adviseNoPool(input, adviser);
}

/**
 * A pool worker that died while measured: a doubt on any advice from the run (`worker-died`).
 * @param {AdviceInput} input
 */
function deathReasons(input) {
  const deaths = input.deaths ?? [];
  return deaths.length > 0 ? [{ id: 'worker-died', figures: { deaths: deaths.length, first: deaths[0] } }] : [];
}

/**
 * @param {TargetedInput} input
 * @param {Adviser} adviser
 * @returns {RunAdvice}
 */
function advisePool(input, adviser) {
  const target = input.target;
  const estimate = estimatePoolSize(input);
  const reasons = [];
  if (estimate.size === null) {
    reasons.push({ id: 'no-worker-figures', figures: { workers: input.workers.length } });
    return {
      size: null, policy: null, strategy: null, basis: 'one-run', confidence: null, reasons, estimate,
      confirmWith: adviser.confirm(input, target.strategy, sweepSizes(input.cores), null),
    };
  }
  const figures = {
    size: estimate.size,
    poolSize: target.poolSize,
    knee: estimate.knee,
    limit: estimate.limit,
    workersMs: estimate.demands.workersMs,
    bounds: estimate.bounds,
    rps: input.rps,
    cores: input.cores,
    budgetSource: input.budgetSource ?? null,
    quotaCpus: estimate.quotaCpus,
  };
  const poolBound = estimate.bounds.pool;
  const sharedBound = estimate.bounds[boundKey(estimate.limit)];
  reasons.push(...budgetReasons(input));
  // The pool was the limit when its own bound sits below the shared one: its workers were full.
  reasons.push({ id: poolBound !== null && sharedBound !== null && poolBound < sharedBound ? 'workers-limit' : `${estimate.limit}-limit`, figures: limitFigures(input, estimate) });
  reasons.push({ id: estimate.size > target.poolSize ? 'size-up' : estimate.size < target.poolSize ? 'size-down' : 'size-keep', figures });

  const spread = quotaSpread(input, estimate.size);
  if (spread) reasons.push({ id: 'quota-spread', figures: spread });
  const size = spread ? spread.low : estimate.size;
  const { policy, reason } = adviser.policy(input, size);
  reasons.push(reason);
  const range = spread ? Array.from({ length: spread.high - spread.low + 1 }, (_, i) => spread.low + i) : [];
  const sizes = [...new Set([size - 1, size, size + 1, ...range, target.poolSize])].filter((n) => n >= 1).sort((a, b) => a - b);
  reasons.push(...adviser.knobReasons(input, sizes));
  const judged = judgeConfidence(input, estimate, reasons);
  // Sizes the run cannot tell apart: never sure.
  const confidence = spread && judged === 'high' ? 'medium' : judged;
  const policies = policy !== target.balance ? [target.balance, policy] : [target.balance];
  return { size, policy, strategy: null, basis: 'one-run', confidence, reasons, confirmWith: adviser.confirm(input, target.strategy, sizes, policies), estimate };
}

/**
 * A strategy's balancing policy: a change only where the worker table shows one is needed.
 * @param {TargetedInput} input
 * @param {number} size
 */
function strategyPolicy(input, size) {
  const current = input.target.balance;
  const honoured = input.target.balancers ?? [current];
  // A worker that died left its requests (502s) and its share of the run's figures to chance: no policy follows from them.
  const deaths = input.deaths ?? [];
  if (deaths.length > 0) {
    const id = honoured.length > 1 ? 'policy-after-death' : 'policy-fixed';
    return { policy: current, reason: { id, figures: { policy: current, deaths: deaths.length, lopsided: false, spread: null } } };
  }
  const balance = poolBalance(input.workers, input.durationMs);
  const spread = [balance.requests, balance.inFlight].flatMap((s) => (s ? [s] : [])).sort((a, b) => b.z - a.z)[0] ?? null;
  if (honoured.length <= 1) return { policy: current, reason: { id: 'policy-fixed', figures: { policy: current, lopsided: balance.lopsided, spread } } };
  // One worker measured, or one advised: there is nothing to balance either way.
  if (input.workers.length < 2 || size === 1) return { policy: current, reason: { id: 'one-worker', figures: { policy: current } } };
  if (!spread) return { policy: current, reason: { id: 'no-worker-counts', figures: { policy: current } } };
  const latency = balance.latency;
  if (!balance.lopsided) return { policy: current, reason: { id: 'even', figures: { policy: current, spread, latency } } };
  if (current === 'least-requests' || current === 'p2c') return { policy: current, reason: { id: 'lopsided-kept', figures: { policy: current, spread, latency } } };
  const wanted = size <= LEAST_REQUESTS_MAX_POOL && honoured.includes('least-requests') ? 'least-requests' : 'p2c';
  const policy = honoured.includes(wanted) ? wanted : current;
  return { policy, reason: { id: 'lopsided', figures: { policy, from: current, spread, latency } } };
}

/**
 * A run without a pool: when its main thread is the limit (busy, or blocked in
 * spawn), move spawning to a pool; the gain expected is what the cores and the
 * main thread's remaining work allow once spawning leaves it.
 * @param {TargetedInput} input
 * @param {Adviser} adviser
 * @returns {RunAdvice}
 */
function adviseNoPool(input, adviser) {
  const main = input.main;
  // Under a quota that throttled, its stops stay in the busy time (as for a pool's workers): the quota is where the server runs.
  const throttled = throttledByQuota(input);
  const busy = main ? busyShare(main, childCpuOf(input, null), { throttled }) : null;
  const blocked = main?.blocked ?? null;
  const x = input.rps;
  const reasons = [];
  if (!main || busy?.busy == null || !(x > 0)) {
    return { size: null, policy: null, strategy: null, basis: 'one-run', confidence: null, reasons: [{ id: 'no-main-figures', figures: {} }], confirmWith: null, estimate: null };
  }
  const mainFigures = { elu: main.elu, busy: busy.busy, blocked, cpuPct: main.cpuPct, eluLimit: MAIN_ELU_LIMIT, blockedLimit: SPAWN_BLOCKED_LIMIT_FRACTION };
  // busy.busy is a number here (checked above): the share was measured.
  const measured = /** @type {MeasuredBusy} */ (busy);
  const held = throttled ? adviser.quotaHeld(input, main, measured) : null;
  if (held) {
    reasons.push(...held);
    return { size: null, policy: null, strategy: null, basis: 'one-run', confidence: judgeConfidence(input, null, reasons), reasons, confirmWith: null, estimate: null };
  }
  // In a closed loop, a loop that never idled is the limit, whatever share of its time was a wait for a
  // core: taking the wait out says how much of it was contention, not that it had room (given the core,
  // it serves more, it does not idle). Seen: ELU 1.00, 15% of it waiting while others used 0.7 of 2
  // cores, told "one process is enough: the limit is the load offered". Under a fixed rate the wait
  // comes out: given the core, the loop would idle between the requests offered. Not an open loop far beyond what was
  // answered: its connections always held a request, as a closed loop's do. Seen: --rate 2000 on 2 connections to a server
  // spinning 2 ms a request, 438 req/s answered at ELU 0.91, read "its main thread had room (busy 70% once its wait for a
  // core is taken out)" and "One process is enough".
  const rate = input.load?.rate;
  const closedLoop = !isFiniteNumber(rate) || input.rps < rate * OPEN_LOOP_BEYOND_SHARE;
  const neverIdle = closedLoop && (main.elu ?? 0) >= MAIN_ELU_LIMIT;
  if (!((blocked ?? 0) >= SPAWN_BLOCKED_LIMIT_FRACTION || busy.busy >= MAIN_ELU_LIMIT || neverIdle)) {
    reasons.push({ id: 'main-has-room', figures: mainFigures });
    reasons.push(...adviser.roomReasons(input));
    return { size: null, policy: null, strategy: null, basis: 'one-run', confidence: judgeConfidence(input, null, reasons), reasons, confirmWith: null, estimate: null };
  }
  reasons.push({ id: (blocked ?? 0) >= SPAWN_BLOCKED_LIMIT_FRACTION ? 'main-blocked-in-spawn' : 'main-busy', figures: mainFigures });
  reasons.push(...budgetReasons(input));
  const more = adviser.moreProcesses(input, main, measured);
  if (more) {
    reasons.push({ id: more.size !== null ? 'more-processes' : 'processes-no-gain', figures: more.figures });
    const confidence = judgeConfidence(input, more.estimate, reasons, { expected: more.size !== null });
    return { size: more.size, policy: null, strategy: null, basis: 'one-run', confidence, reasons, confirmWith: more.confirmWith, estimate: more.estimate };
  }

  // After the move: the main thread keeps its work minus spawning, plus handing
  // each request to a worker; the workers take the spawning. The probe's blocked
  // share is wall time, so it shrinks with the contention taken out of busy.
  const spawnShare = Math.min(busy.busy, (blocked ?? 0) * ((busy.measured ?? 0) > 0 ? busy.busy / (busy.measured ?? 0) : 1));
  const mainMsAfter = ((busy.busy - spawnShare) / x) * 1000 + POOL_MAIN_MS_PER_REQUEST;
  const pool = estimatePoolSize({ ...input, workers: [] });
  // CPU per request grows by the hand-off on both sides (main and worker). Like
  // a pool's size, the gain is judged on the machine's cores: other programs'
  // share during the run is reported as contention and lowers the confidence.
  const cpuMsAfter = pool.demands.cpuMs !== null ? pool.demands.cpuMs + 2 * POOL_MAIN_MS_PER_REQUEST : null;
  const bounds = {
    main: 1000 / mainMsAfter,
    // The server's own quota, where it binds (pool-size.js), bounds its pool as it bounds more processes.
    cores: cpuMsAfter && input.cores ? (1000 * (pool.quotaCpus ?? input.capacity ?? input.cores)) / cpuMsAfter : null,
    generator: pool.bounds.generator,
  };
  // Cores that were full serve little more whoever else used them: what they served at 100% busy.
  // fullCores found budgetBusyPct finite.
  if (fullCores(input)) bounds.cores = Math.min(bounds.cores ?? Infinity, (x * 100) / /** @type {number} */ (input.budgetBusyPct));
  const expectedRps = Math.min(...Object.values(bounds).filter((v) => v !== null));
  // The main thread's bound is always a number: expectedRps is one of the bounds.
  const limit = /** @type {[string, number|null]} */ (Object.entries(bounds).find(([, v]) => v === expectedRps))[0];
  const workerMs = (spawnShare / x) * 1000 + POOL_MAIN_MS_PER_REQUEST;
  const knee = (workerMs / 1000) * expectedRps;
  const maxSize = input.cores ? TUNE_MAX_SIZE_FACTOR * Math.ceil(input.cores - 1e-9) : Infinity;
  const size = Math.min(maxSize, Math.max(1, Math.ceil(knee / POOL_TARGET_BUSY)));
  const gain = expectedRps / x;
  const strategy = adviser.moveTo(input);
  // What the CPU budget (cgroup quota, cpuset, affinity) left idle: the room a pool would use.
  const budget = input.budget ?? input.cores;
  // Other processes (host-wide) take from the host's CPUs, not from a quota they are not under.
  const hostCpus = input.hostCpus ?? budget;
  const idleCores = pool.quotaCpus !== null && pool.usedCores !== null ? Math.max(0, pool.quotaCpus - pool.usedCores)
    : budget && pool.usedCores !== null ? Math.max(0, Math.min(budget, (hostCpus ?? budget) - (pool.otherCores ?? 0)) - pool.usedCores) : null;
  // Worker threads fork the whole process too: a server blocked in spawn needs processes (BACKGROUND: threads 426 vs fork-pool 2,209 req/s).
  const poolKind = (blocked ?? 0) >= SPAWN_BLOCKED_LIMIT_FRACTION ? 'processes' : 'processes-or-threads';
  const figures = { strategy, expectedRps, rps: x, gain, limit: limit === 'main' ? 'main-thread' : limit, bounds, size, knee, workerMs, mainMsAfter, idleCores, budget, quotaCpus: pool.quotaCpus, poolKind, cores: input.cores, budgetSource: input.budgetSource ?? null };
  if (gain < 1 + RPS_BAND) {
    // Cores full with other programs' work: a pool's processes would compete with them for the cores (the scheduler
    // shares a core by runnable thread), which one run cannot price. Seen: baseline told "a pool would not be faster
    // here" with other processes at 1.0 of 2 cores, where compare measured fork-pool at 1.86× in the same minutes.
    const otherCores = pool.otherCores ?? input.otherCores ?? null;
    const shared = limit === 'cores' && fullCores(input) !== null && isFiniteNumber(otherCores) && otherCores >= OTHER_PROCESSES_CORES;
    const sizes = [...new Set([size, size + 1])].filter((n) => n >= 1);
    const confirmWith = shared ? (adviser.confirm(input, strategy, sizes, ['round-robin']) ?? adviser.noKnobSweep(input)) : null;
    reasons.push({ id: 'no-gain-expected', figures: { ...figures, ...(shared ? { sharedCores: otherCores, swept: confirmWith !== null } : {}) } });
    return { size: null, policy: null, strategy: null, basis: 'one-run', confidence: judgeConfidence(input, pool, reasons), reasons, confirmWith, estimate: pool };
  }
  reasons.push({ id: adviser.poolWouldHelp, figures });
  const sizes = [...new Set([size - 1, size, size + 1])].filter((n) => n >= 1);
  return {
    size,
    policy: null,
    strategy,
    basis: 'one-run',
    confidence: judgeConfidence(input, pool, reasons, { expected: true }),
    reasons,
    // A new pool starts on the default policy: nothing measured argues for another.
    confirmWith: adviser.confirm(input, strategy, sizes, ['round-robin']),
    estimate: pool,
  };
}

/**
 * How sure one run can be: high only for a run as long as run's default, clean,
 * on a machine nobody else was using; each doubt lowers it and is listed.
 * @param {AdviceInput} input
 * @param {{ source?: string|null, otherCores?: number|null }|null} estimate the pool model's (pool-size.js, process-advice.js)
 * @param {Reason[]} reasons
 * @param {{ expected?: boolean }} [options]
 * @returns {'high'|'medium'|'low'}
 */
function judgeConfidence(input, estimate, reasons, { expected = false } = {}) {
  /** @type {Array<[string, number, object]>} doubt, its weight, its figures */
  const doubts = [];
  const bottleneck = findBottleneck(signalsOf(input));
  if (bottleneck.findings.some((f) => f.kind === 'generator')) doubts.push(['generator-bound', 2, { cpuPct: input.generator.cpuPct, elu: input.generator.elu, threads: input.load.threads, suggested: moreGeneratorThreads(input.load.threads ?? 1, (input.load.threads ?? 1) * 2, input.cores) }]);
  // A non-2xx response is among the requests already: counted once more, 45% failed read as 31%.
  const failed = input.outcome ?? requestOutcome({ requests: input.requests, errors: { total: input.errors } });
  if (failed.failedShare >= ERROR_RATE) doubts.push(['errors', 2, { errors: failed.failed, share: failed.failedShare }]);
  if (input.stoppedEarly) doubts.push(['stopped-early', 1, { durationMs: input.durationMs }]);
  for (const { id, figures } of deathReasons(input)) doubts.push([id, 2, figures]);
  if (estimate?.source === 'cpu') doubts.push(['no-probe', 2, {}]);
  const waitShare = worstWaitShare(input);
  // Without a pool estimate, the other processes as measured per process: the one figure every line names them by.
  const other = estimate?.otherCores ?? input.otherCores ?? null;
  // Who made the loops wait: other processes of the machine, or this run's own (server, its commands, generator).
  const byOthers = (other ?? 0) >= OTHER_PROCESSES_CORES;
  // Under a quota that throttled, the run's own wait is the quota's (named above and kept in the figures), not a doubt.
  const byThisRun = waitShare >= ADVICE_CONTENDED_WAIT && !throttledByQuota(input);
  if (byOthers || byThisRun) doubts.push(['contended', 1, { otherCores: other, waitShare, cause: byOthers ? 'others' : 'this-run', throttled: throttledByQuota(input) }]);
  if (input.durationMs < DEFAULT_DURATION_MS) doubts.push(['short-run', 1, { durationMs: input.durationMs, solidMs: DEFAULT_DURATION_MS }]);
  if (expected) doubts.push(['not-measured', 1, {}]);
  for (const [id, , figures] of doubts) reasons.push({ id, figures });
  const weight = doubts.reduce((sum, [, w]) => sum + w, 0);
  return weight === 0 ? 'high' : weight <= 1 ? 'medium' : 'low';
}

/**
 * The largest share of busy time any loop of the strategy spent waiting for a core.
 * @param {AdviceInput} input
 */
function worstWaitShare(input) {
  /** @type {(t: ThreadFigures|null) => t is ThreadFigures & { waitPct: number, loopCpuPct: number }} */
  const timed = (t) => Boolean(t && Number.isFinite(t.waitPct) && Number.isFinite(t.loopCpuPct));
  const loops = [input.main, ...input.workers].filter(timed);
  return Math.max(0, ...loops.map((t) => (t.loopCpuPct + t.waitPct > 0 ? t.waitPct / (t.loopCpuPct + t.waitPct) : 0)));
}

/**
 * The CPU quota, when it throttled the run: a measured limit (cpu.stat), named
 * before the model's bounds, which it caps (src/analysis/bottleneck.js).
 * @param {AdviceInput} input
 */
function budgetReasons(input) {
  const t = input.throttle;
  if (t && throttledByQuota(input)) {
    return [{ id: 'quota-limit', figures: { quotaCpus: t.quotaCpus, throttledFraction: t.fraction, throttledMs: t.throttledMs, roles: t.roles, threshold: QUOTA_THROTTLED_FRACTION } }];
  }
  // A budget narrower than the host sizes everything: say so, with the quota's throttling when it had one.
  if (!input.budgetSource || input.budgetSource === 'host') return [];
  return [{ id: 'cpu-budget', figures: { budget: input.cores, source: input.budgetSource, hostCpus: input.hostCpus, throttledFraction: t?.fraction ?? null, threshold: QUOTA_THROTTLED_FRACTION } }];
}

/**
 * The cores as the limit when the budget was MACHINE_CPU_LIMIT_PCT busy or more, whoever
 * used them: the other processes are named with their share (measured per process), not
 * taken out, since a pool would compete with them for the same cores. Null below it.
 * @param {AdviceInput} input
 */
function fullCores(input) {
  const busy = input.budgetBusyPct;
  if (!isFiniteNumber(busy) || busy < MACHINE_CPU_LIMIT_PCT) return null;
  const users = (input.otherUsers ?? []).map(({ name, count, cores }) => ({ name, count, cores }));
  return { limit: 'cores', share: busy / 100, cores: input.cores, budgetSource: input.budgetSource ?? null, hostCpus: input.hostCpus ?? null, otherCores: input.otherCores ?? null, otherUsers: users };
}

/**
 * Under a quota that throttled, one run cannot tell the sizes apart between the
 * workers that keep the quota's CPUs busy (its CPUs rounded up) and the model's
 * size: the quota's stops are in every worker's busy time, so the model allows
 * more, while each worker past the quota's CPUs only adds stops (under a 1.5-CPU
 * quota, tune's best over three runs was 4, 3 and 2 workers). The smaller is
 * advised, the sweep covers the spread. Null without such a quota or spread.
 * @param {AdviceInput} input
 * @param {number} size
 */
function quotaSpread(input, size) {
  if (!throttledByQuota(input) || !Number.isFinite(input.throttle.quotaCpus)) return null;
  const low = Math.max(1, Math.ceil(input.throttle.quotaCpus - 1e-9));
  return size > low ? { low, high: size, quotaCpus: input.throttle.quotaCpus, throttledFraction: input.throttle.fraction } : null;
}

/**
 * A user's node:cluster under round-robin (the primary hands each new connection to the next worker) whose workers
 * include one that answered no measured request while the others answered, with at least a connection per worker:
 * that worker serves another port (each worker listening on PORT + its index, behind a proxy), not this one. It was sized
 * with the others ("the figures support 3 workers … lopsided (1.99×) even with rr: keep-alive connections stay with the
 * worker that took them") where only one worker served the port measured. Null when the probe counted no routes, a
 * worker died (its replacement may come late), or another policy leaves the pick to the kernel.
 * @param {AdviceInput} input
 * @returns {{ idle: string[], workers: number, connections: number, otherPorts: number[] }|null}
 */
function unreachedWorkers(input) {
  const server = input.server;
  // Only where the server listens on another port too: a worker that started after the connections were made gets none
  // either, and "lopsided: keep-alive connections stay with the worker that took them" is the right word for it.
  if (server?.kind !== 'cluster' || (server.clusterPolicy ?? 'rr') !== 'rr' || (input.deaths ?? []).length > 0 || !(server.otherPorts?.length)) return null;
  const workers = input.workers.filter((w) => w.kind === 'process');
  const connections = input.load?.connections ?? null;
  if (workers.length < 2 || connections === null || connections < workers.length) return null;
  if (!workers.every((w) => isFiniteNumber(w.routed))) return null;
  const idle = workers.filter((w) => w.routed === 0);
  if (idle.length === 0 || idle.length === workers.length) return null;
  return { idle: idle.map((w) => w.label), workers: workers.length, connections, otherPorts: /** @type {number[]} */ (server.otherPorts) };
}

/**
 * The busiest of a user's server's other processes (input.children), when its loop was busy MAIN_ELU_LIMIT or more.
 * @param {AdviceInput} input
 * @returns {{ limit: 'child', label: string, elu: number, cpuPct: number|null, eluLimit: number }|null}
 */
function busyChild(input) {
  const busy = (input.children ?? []).filter((c) => isFiniteNumber(c.elu) && c.elu >= MAIN_ELU_LIMIT);
  if (busy.length === 0) return null;
  const top = busy.reduce((a, b) => (/** @type {number} */ (b.elu) > /** @type {number} */ (a.elu) ? b : a));
  return { limit: 'child', label: top.label, elu: /** @type {number} */ (top.elu), cpuPct: top.cpuPct, eluLimit: MAIN_ELU_LIMIT };
}

/**
 * Whether a CPU quota throttled the run enough to be a limit (QUOTA_THROTTLED_FRACTION).
 * @param {AdviceInput} input
 * @returns {input is AdviceInput & { throttle: NonNullable<AdviceInput['throttle']> }}
 */
function throttledByQuota(input) {
  return (input.throttle?.fraction ?? 0) >= QUOTA_THROTTLED_FRACTION;
}

/**
 * @param {AdviceInput} input
 * @param {PoolEstimate} estimate
 */
function limitFigures(input, estimate) {
  return {
    capacity: input.capacity ?? input.cores,
    budgetSource: input.budgetSource ?? null,
    limit: estimate.limit,
    bounds: estimate.bounds,
    cpuMs: estimate.demands.cpuMs,
    mainMs: estimate.demands.mainMs,
    workersMs: estimate.demands.workersMs,
    availableCores: estimate.availableCores,
    quotaCpus: estimate.quotaCpus,
    otherCores: estimate.otherCores,
    cores: input.cores,
    systemCpuPct: input.systemCpuPct,
    mainElu: input.main?.elu ?? null,
    mainBlocked: input.main?.blocked ?? null,
    workersElu: mean(input.workers.map((w) => w.elu)),
    workersBusy: mean(input.workers.map((w) => busyShare(w, childCpuOf(input, w), { throttled: throttledByQuota(input) }).busy)),
    throttled: throttledByQuota(input),
    generatorElu: input.generator.elu,
    stretch: estimate.stretch,
  };
}

/**
 * The bound of the pool model's limit. A model without a limit has no such bound: `bounds['null']` is
 * undefined, as before; the type names the keys there are.
 * @param {PoolEstimate['limit']} limit
 * @returns {keyof PoolEstimate['bounds']}
 */
function boundKey(limit) {
  return /** @type {keyof PoolEstimate['bounds']} */ (limit === 'main-thread' ? 'main' : limit);
}

/**
 * The pool strategy a run without a pool should move to: streaming for large outputs, fork-pool otherwise (BACKGROUND's table).
 * @param {AdviceInput} input
 */
function pickPoolStrategy(input) {
  return input.workload?.name === 'large' ? 'comm-channel' : 'fork-pool';
}

/**
 * tune's default series (1, 2, 3, 4, 6, 8, …) up to twice the cores: the sweep for a run too short to narrow it.
 * @param {number|null} cores
 */
function sweepSizes(cores) {
  const max = Math.max(2, TUNE_MAX_SIZE_FACTOR * Math.ceil((cores ?? 1) - 1e-9));
  return [1, 2, 3, 4, 6, 8, 12, 16, 24, 32].filter((n) => n <= max);
}

/**
 * The sampler signals bottleneck.js reads, from the advice's figures.
 * @param {AdviceInput} input
 */
function signalsOf(input) {
  const processes = input.workers.filter((w) => w.kind !== 'thread');
  return {
    mainElu: input.main?.elu ?? null,
    mainBlocked: input.main?.blocked ?? null,
    mainCpuPct: input.main?.cpuPct ?? null,
    workersCpuPct: processes.length ? processes.reduce((sum, w) => sum + (w.cpuPct ?? 0), 0) : null,
    workersElu: mean(input.workers.map((w) => w.elu)),
    spawnedCpuPct: input.spawnedCpuPct,
    systemCpuPct: input.systemCpuPct,
    generatorCpuPct: input.generator.cpuPct,
    generatorElu: input.generator.elu,
    generatorThreads: input.load.threads,
    cores: input.cores,
  };
}
