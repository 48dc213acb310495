/**
 * The parts of a run's recommendation that differ on a user's own server
 * (`run -- <command>`): its size is its knob's value or the workers seen, its
 * policy is node:cluster's NODE_CLUSTER_SCHED_POLICY where it is a cluster (and
 * its own code otherwise), the sweep that confirms the advice is a `tune` of its
 * command with the knob as `--size-env` or `{size}`, and a single process is told
 * whether a pool would help or what limits it instead. run-advice.js runs the
 * same pool model over it. Pure: ids and figures out.
 */
import { workerBalance } from './worker-balance.js';
import { tuneArgs } from './size-knob.js';
import { sweepCost, commandLine } from './confirm-command.js';
import { BUSY_FRACTION, OPEN_LOOP_BEYOND_SHARE, SLOW_P50_MS, WAIT_WORK_RATIO } from '../base/thresholds.js';
import { littleLaw } from './little-law.js';

/** node:cluster's scheduling policies (NODE_CLUSTER_SCHED_POLICY) and the variable that sets them. */
export const CLUSTER_POLICIES = ['rr', 'none'];
export const CLUSTER_POLICY_ENV = 'NODE_CLUSTER_SCHED_POLICY';
/** node:cluster's default on Linux (and everywhere but Windows): the primary deals connections. */
const CLUSTER_DEFAULT_POLICY = 'rr';

/**
 * Knob sources a tune can be given as they are (`--size-env NAME`, `{size}`).
 * @type {Array<import('./size-knob.js').SizeKnob['source']>}
 */
const TUNABLE = ['given', 'command', 'environment'];

/**
 * The plan's target of a user's server, as tuneArgs reads it. run-advice.js calls
 * this file only for a command target (server-command-plan.js: never null, with its
 * port and path), so the cast holds.
 * @param {import('./advice-input.js').AdviceInput} input
 */
const commandTarget = (input) => /** @type {NonNullable<import('./advice-input.js').AdviceInput['target']> & { port: number|null, path: string }} */ (input.target);

/**
 * The run-advice target of a user's server: a pool when workers were seen, at
 * the size its knob names (else the count seen), with node:cluster's policy.
 * @param {import('./advice-input.js').AdviceInput} input
 */
export function ownTarget(input) {
  const cluster = input.server?.kind === 'cluster';
  const policy = cluster ? (input.server?.clusterPolicy ?? CLUSTER_DEFAULT_POLICY) : null;
  const seen = input.workers.length;
  return {
    ...commandTarget(input),
    pool: seen > 0,
    poolSize: seen > 0 ? (input.knob?.value ?? seen) : null,
    balance: policy,
    balancers: cluster ? CLUSTER_POLICIES : null,
  };
}

/**
 * The policy for a user's server at `size`: node:cluster's rr where 'none' left
 * workers short (the kernel's pick is lopsided), else what it has; a server that
 * balances with its own code keeps it, and the reason says how even it was.
 * @param {import('./advice-input.js').AdviceInput} input with the own target
 * @param {number} size
 */
export function ownPolicy(input, size) {
  const current = commandTarget(input).balance;
  // A worker that died (a cluster worker that threw) left its share of the work to chance: its connections
  // went to the others while its replacement started, so how the work was spread says nothing of the balancing.
  const deaths = (input.deaths ?? []).length;
  const balance = deaths > 0 ? null : workerBalance(input.workers.map((w) => ({ role: 'worker', label: w.label, cpuPct: w.cpuPct, spawnsPerSec: w.spawnsPerSec ?? null })));
  if (current === null) return { policy: null, reason: { id: 'own-balancing', figures: { balance } } };
  if (deaths > 0 && input.workers.length >= 2) return { policy: current, reason: { id: 'policy-after-death', figures: { policy: current, deaths, lopsided: false, spread: null } } };
  if (input.workers.length < 2 || size === 1) return { policy: current, reason: { id: 'one-worker', figures: { policy: current } } };
  if (!balance) return { policy: current, reason: { id: 'no-worker-counts', figures: { policy: current } } };
  if (balance.id === 'lopsided' && current === 'none') return { policy: 'rr', reason: { id: 'cluster-lopsided', figures: { policy: 'rr', from: current, balance, env: CLUSTER_POLICY_ENV } } };
  return { policy: current, reason: { id: balance.id === 'lopsided' ? 'cluster-lopsided-kept' : 'cluster-even', figures: { policy: current, balance, env: CLUSTER_POLICY_ENV } } };
}

/**
 * The tune that confirms the advice on a user's server, runnable as printed:
 * its knob as `--size-env NAME` or `{size}` in its arguments, the policy knob
 * when the policy is in question; null when no knob was found (the reason
 * `no-knob` then says how to pass one).
 * @param {import('./advice-input.js').AdviceInput} input with the own target
 * @param {number[]} sizes
 * @param {string[]|null} policies node:cluster policies to compare, or null
 * @returns {import('./confirm-command.js').ConfirmWith|null}
 */
export function ownConfirm(input, sizes, policies) {
  const knob = input.knob;
  if (!knob || !TUNABLE.includes(knob.source) || !knob.command) return null;
  const comparing = policies && policies.length > 1 ? policies : null;
  // A tunable knob (given, or found in the command or its environment) always has its kind; its command is checked above.
  const tunable = /** @type {{ kind: string, name: string|null, command: string[] }} */ (knob);
  const argv = tuneArgs(tunable, commandTarget(input), input.load, {
    sizes,
    policyEnv: comparing ? CLUSTER_POLICY_ENV : null,
    policies: comparing,
    connections: input.load.connections,
    rate: input.load.rate,
    threads: input.load.threads,
  });
  return { command: commandLine(argv), argv, ...sweepCost(sizes.length * (comparing?.length ?? 1), input.load.stepMs) };
}

/**
 * How to reach the server's size when no knob was found: the tune to run once
 * it has one, with NAME for the variable (figures for the `no-knob` reason).
 * @param {import('./advice-input.js').AdviceInput} input with the own target
 * @param {number[]} sizes
 */
export function noKnobReason(input, sizes) {
  const knob = input.knob;
  if (knob && TUNABLE.includes(knob.source)) return null;
  const command = knob?.command ?? commandTarget(input).command ?? [];
  const example = tuneArgs({ kind: 'env', name: 'NAME', command }, commandTarget(input), input.load, { sizes, connections: input.load.connections, rate: input.load.rate, threads: input.load.threads });
  return { id: 'no-knob', figures: { seen: knob?.seen ?? null, ignored: knob?.ignored ?? [], example } };
}

/**
 * A single-process server whose main thread has room: what limits it instead
 * (the cores, the load generator), or nothing saturated (the load offered, or
 * something outside it such as a database).
 * @param {{ bounds: { cores: number|null, generator: number|null } }} estimate pool-size.js's, without workers
 * @param {number} rps
 * @returns {{ limit: 'cores'|'generator'|'load', share: number|null }}
 */
export function singleProcessLimit(estimate, rps) {
  /** @type {Array<['cores'|'generator'|'load', number|null]>} */
  const bounds = [['cores', estimate.bounds.cores], ['generator', estimate.bounds.generator]];
  const shares = bounds.flatMap(([limit, bound]) => (bound !== null && bound > 0 ? [/** @type {[typeof limit, number]} */ ([limit, rps / bound])] : []));
  // `?? 0`: the starting null compares as 0 (a share of 0 keeps 'load' and null)
  const [limit, share] = shares.reduce((a, b) => (b[1] > (a[1] ?? 0) ? b : a), /** @type {typeof bounds[number]} */ (['load', null]));
  return share !== null && share >= BUSY_FRACTION ? { limit, share } : { limit: 'load', share };
}

/**
 * A single process with room whose requests spend their time waiting outside it: on a closed loop where every
 * connection waited on the server (Little's law), the median slow, and each request's time many times its main
 * thread's work. Then the limit is what it waits on, not the connections alone: more connections serve more only if
 * that has room (a 4-socket agent to a downstream served no more at 60 or 120 connections than at 30). A wait the
 * queue on its own main thread explains (connections × its work a request) is not a wait outside it.
 * Null when that is not shown.
 * @param {{ load?: { rate?: number|null, connections?: number|null }, rps: number, latency?: { meanMs: number|null, p50Ms: number|null },
 *   main: { elu: number|null }|null }} input
 * @returns {{ waitMs: number, workMs: number, latencyFrom: 'mean'|'p50'|'connections' }|null}
 */
export function outsideWait(input) {
  // An open loop far beyond what was answered kept a request on every connection, as a closed loop does: each request's
  // own time is its connections over the throughput (Little's law), its latency (timed from when it was due) mostly the
  // schedule's wait. Seen: --rate 200 on 2 connections to a server waiting 20 ms a request, 95 req/s answered, read
  // "the limit is the load offered, not the server" beside the note that 599 requests could not be sent on time.
  const beyond = openLoopBeyond(input);
  const law = beyond
    ? { holds: true, connections: beyond.connections, latencyMs: (beyond.connections / input.rps) * 1000, latencyFrom: /** @type {const} */ ('connections') }
    : littleLaw({ mode: Number.isFinite(input.load?.rate) ? 'open' : 'closed', connections: input.load?.connections ?? null, rps: input.rps, meanMs: input.latency?.meanMs ?? null, p50Ms: input.latency?.p50Ms ?? null });
  const p50 = beyond ? law?.latencyMs ?? null : input.latency?.p50Ms ?? null;
  const elu = input.main?.elu ?? null;
  if (!law?.holds || p50 === null || !(p50 >= SLOW_P50_MS) || elu === null || !Number.isFinite(elu)) return null;
  const workMs = (elu / input.rps) * 1000;
  // Each connection's request also waits behind the others on the one main thread: up to connections × its work
  // (latency × ELU, by Little's law). Only when the wait outside that queue is the larger part is it what the requests
  // wait on. Hello-world at 1,000 connections (26,391 req/s, ELU 0.85, mean 37 ms for 0.03 ms of work) read "the
  // limit is what its requests wait on (a database, a downstream, a timer)": the wait was its own main thread's queue.
  const queueMs = law.connections * workMs;
  if (law.latencyMs - queueMs < queueMs) return null;
  return law.latencyMs >= WAIT_WORK_RATIO * workMs ? { waitMs: law.latencyMs, workMs, latencyFrom: law.latencyFrom } : null;
}

/**
 * An open loop far beyond what was answered (less than OPEN_LOOP_BEYOND_SHARE of its rate): every connection held a
 * request, and the connections, not the rate offered, carried what was served. Null otherwise.
 * @param {{ load?: { rate?: number|null, connections?: number|null }, rps: number }} input
 * @returns {{ rate: number, connections: number, rps: number }|null}
 */
export function openLoopBeyond(input) {
  const rate = input.load?.rate ?? null;
  const connections = input.load?.connections ?? null;
  if (rate === null || !Number.isFinite(rate) || connections === null || !(connections > 0) || !(input.rps > 0)) return null;
  return input.rps < rate * OPEN_LOOP_BEYOND_SHARE ? { rate, connections, rps: input.rps } : null;
}
