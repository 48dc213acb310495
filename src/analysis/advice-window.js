/**
 * The recommendation's figures while a run is still going: the measured phase's
 * sampler intervals folded into running sums (cheap: a few additions per
 * process per sample), read out as the AdviceInput of advice-input.js. Pure:
 * each fold returns a new window.
 */
import { resolveSizeKnob } from './size-knob.js';
import { isWorkerEntry } from '../machine/process-roles.js';
import { requestOutcome } from './request-outcome.js';
import { foldIncarnations } from './worker-deaths.js';

import { cpuView } from './cpu-view.js';
import { budgetSignals } from './run-figures.js';
import { targetOf } from '../base/target-kinds.js';
import { isFiniteNumber } from './stats.js';

/** @typedef {{ sum: number, n: number }} Sum a running sum and its count */
/** @typedef {'cpuPct'|'loopCpuPct'|'waitPct'|'inFlight'|'elu'|'blocked'} Figure */

/**
 * One process's (or thread's) sums so far.
 * @typedef {object} ProcessWindow
 * @property {string} [role]
 * @property {string} label
 * @property {number|null} firstRequests
 * @property {number|null} [lastRequests]
 * @property {string|null} [spawnTiming]
 * @property {Record<Figure, Sum>} sums
 */

/**
 * One CPU quota's figures so far.
 * @typedef {object} ThrottleWindow
 * @property {Array<'server'|'spawnbench'>} roles
 * @property {number} quotaCpus
 * @property {number} periods
 * @property {number} throttledPeriods
 * @property {number} throttledMs
 * @property {Sum} usage
 */

/**
 * The run engine's `sample` event: one sampler interval (src/sample/index.js).
 * @typedef {object} LiveSample
 * @property {Array<{ key: string, role?: string, label: string, requests?: number|null, cpuPct?: number|null, loopCpuPct?: number|null,
 *   waitPct?: number|null, inFlight?: number|null, probe?: { elu?: number|null, spawn?: { blockedFraction?: number|null, timing?: string|null } }|null }>} [processes]
 * @property {{ cpus?: Array<number|null> }} [system]
 * @property {Array<import('../base/result-types.js').Throttling & { cgroup: string, throttledPeriods: number }>} [throttling]
 * @property {{ cpuPct?: number|null }} [spawned]
 * @property {AdviceWindow['otherUsers']} [otherUsers]
 */

/**
 * The load generator's latest tick (src/load/): the measured phase so far.
 * @typedef {object} LoadTick
 * @property {number} [elapsedMs]
 * @property {number} [requests]
 * @property {number} [meanRps]
 * @property {{ total?: number }} [errors]
 * @property {{ cpuPct?: number|null, elu?: number|null }} [generator]
 */

/**
 * @typedef {object} AdviceWindow
 * @property {number} samples
 * @property {Record<string, ProcessWindow>} processes  per sampler key: sums and counts of each figure
 * @property {Sum} spawned
 * @property {Sum} system mean busy share of all cores, %
 * @property {Sum[]} cpus busy share of each host CPU, % (the budget's CPUs are read from it)
 * @property {Record<string, ThrottleWindow>} throttle per CPU quota (cgroup): its periods, throttled periods and time, summed
 * @property {{ cores: number|null, users: Array<{ name: string, count: number, cores: number }> }|null} [otherUsers] other CPU users so far (src/sample/other-users.js)
 */

/** @returns {AdviceWindow} */
export function emptyAdviceWindow() {
  return { samples: 0, processes: {}, spawned: { sum: 0, n: 0 }, system: { sum: 0, n: 0 }, cpus: [], throttle: {} };
}

/** @type {Figure[]} */
const FIGURES = ['cpuPct', 'loopCpuPct', 'waitPct', 'inFlight', 'elu', 'blocked'];

/**
 * Adds one sampler interval (the `sample` event of the run engine).
 * @param {AdviceWindow} window
 * @param {LiveSample} sample
 * @returns {AdviceWindow}
 */
export function foldSample(window, sample) {
  const processes = { ...window.processes };
  for (const p of sample.processes ?? []) {
    /** @type {Partial<ProcessWindow> & Pick<ProcessWindow, 'sums'|'firstRequests'>} */
    const before = processes[p.key] ?? { firstRequests: p.requests ?? null, sums: /** @type {Record<Figure, Sum>} */ (Object.fromEntries(FIGURES.map((f) => [f, { sum: 0, n: 0 }]))) };
    /** @type {Record<Figure, number|null|undefined>} */
    const values = {
      cpuPct: p.cpuPct,
      loopCpuPct: p.loopCpuPct,
      waitPct: p.waitPct,
      inFlight: p.inFlight,
      elu: p.probe?.elu,
      blocked: p.probe?.spawn?.blockedFraction,
    };
    const sums = /** @type {Record<Figure, Sum>} every figure set below */ ({});
    for (const f of FIGURES) sums[f] = add(before.sums[f], values[f]);
    processes[p.key] = {
      role: p.role,
      label: p.label,
      firstRequests: before.firstRequests ?? p.requests ?? null,
      lastRequests: p.requests ?? before.lastRequests ?? null,
      spawnTiming: p.probe?.spawn?.timing ?? before.spawnTiming ?? null,
      sums,
    };
  }
  const cpus = sample.system?.cpus ?? [];
  // A core without a reading (its /proc read failed) is left out of the mean, not counted idle.
  const read = cpus.filter(isFiniteNumber);
  const system = read.length ? add(window.system, read.reduce((a, b) => a + b, 0) / read.length) : window.system;
  const perCpu = cpus.map((pct, i) => add(window.cpus?.[i] ?? { sum: 0, n: 0 }, pct));
  const throttle = { ...window.throttle };
  for (const t of sample.throttling ?? []) {
    const before = throttle[t.cgroup] ?? { roles: t.roles, quotaCpus: t.quotaCpus, periods: 0, throttledPeriods: 0, throttledMs: 0, usage: { sum: 0, n: 0 } };
    throttle[t.cgroup] = {
      ...before,
      periods: before.periods + t.periods,
      throttledPeriods: before.throttledPeriods + t.throttledPeriods,
      throttledMs: before.throttledMs + t.throttledMs,
      usage: add(before.usage, t.usageCpus),
    };
  }
  // Other CPU users: the wide scan's running figures, the latest (they cover the measured phase so far).
  const otherUsers = sample.otherUsers ?? window.otherUsers ?? null;
  return { samples: window.samples + 1, processes, spawned: add(window.spawned, sample.spawned?.cpuPct), system, cpus: perCpu, throttle, otherUsers };
}

/**
 * The window as the recommendation's input.
 * @param {AdviceWindow} window
 * @param {{ plan: import('../base/result-types.js').RunPlan, machine: import('../base/result-types.js').Machine|null, tick: LoadTick, deaths?: import('./worker-deaths.js').WorkerDeath[] }} run
 *   the run's plan (as `start` gave it), machine, latest LoadTick of the measured phase, and the pool
 *   workers that died in it so far
 * @returns {import('./advice-input.js').AdviceInput}
 */
export function windowInput(window, { plan, machine, tick, deaths = [] }) {
  const entries = Object.values(window.processes);
  const main = entries.find((e) => e.role === 'main') ?? null;
  const durationMs = tick.elapsedMs ?? 0;
  return {
    target: plan?.target ?? null,
    workload: plan?.workload ?? null,
    load: {
      connections: plan?.load?.connections ?? null,
      rate: plan?.load?.rate ?? null,
      threads: plan?.load?.threads ?? 1,
      method: plan?.load?.method ?? 'GET',
      headers: plan?.load?.headers ?? {},
      body: plan?.load?.body ?? null,
    },
    ...windowBudget(window, entries, machine, tick),
    budget: machine?.cpu?.budget ?? null,
    durationMs,
    requests: tick.requests ?? 0,
    rps: isFiniteNumber(tick.meanRps) ? tick.meanRps : durationMs > 0 ? ((tick.requests ?? 0) * 1000) / durationMs : 0,
    errors: tick.errors?.total ?? 0,
    main: main ? figuresOf(main) : null,
    workers: slotFigures(entries.filter(isWorkerEntry)),
    deaths,
    spawnedCpuPct: meanOf(window.spawned),
    systemCpuPct: meanOf(window.system),
    generator: { cpuPct: tick.generator?.cpuPct ?? null, elu: tick.generator?.elu ?? null },
    stoppedEarly: false,
    outcome: requestOutcome(tick),
    knob: liveKnob(plan?.target, entries),
    server: null,
    // The same per-process measure as the finished run's, so the live advice names the same figure.
    otherUsers: window.otherUsers?.users ?? null,
    otherCores: window.otherUsers?.cores ?? null,
  };
}

/**
 * One entry per worker: a dead worker and its replacement carry the same label
 * ("worker 0": the sampler names a process by its slot) and are folded into one.
 * @param {ProcessWindow[]} entries
 */
function slotFigures(entries) {
  /** @type {Map<string, Array<{ figures: import('./advice-input.js').ThreadFigures, samples: number }>>} */
  const groups = new Map();
  for (const e of entries) {
    const key = /^worker \d+$/.test(e.label ?? '') ? e.label : `key:${groups.size}:${e.label}`;
    const group = groups.get(key) ?? [];
    groups.set(key, group);
    group.push({ figures: figuresOf(e), samples: e.sums.cpuPct?.n ?? 0 });
  }
  return [...groups.values()].map(foldIncarnations);
}

/**
 * A user's server while it runs: its knob as given or found, checked against
 * the workers sampled so far (the tree's shape is read at the end).
 * @param {import('../base/result-types.js').RunPlan['target']|undefined} target
 * @param {ProcessWindow[]} entries
 */
function liveKnob(target, entries) {
  if (!target || targetOf(target).advice !== 'own' || !target.sizeKnob) return null;
  const workers = entries.filter((e) => e.role === 'worker').length;
  const threads = entries.filter((e) => e.role === 'thread').length;
  const shape = { kind: workers ? 'processes' : threads ? 'threads' : 'single', workers: Array(workers).fill(0), threads, poolThreads: { count: 0, cpuPct: null } };
  return resolveSizeKnob({ ...target.sizeKnob, shape, command: target.command });
}

/**
 * The CPU budget's figures over the window (cpu-view.js), as the AdviceInput names them.
 * @param {AdviceWindow} window
 * @param {ProcessWindow[]} entries
 * @param {import('../base/result-types.js').Machine|null} machine
 * @param {LoadTick} tick
 */
function windowBudget(window, entries, machine, tick) {
  const throttling = Object.values(window.throttle ?? {}).map((t) => ({
    roles: t.roles,
    quotaCpus: t.quotaCpus,
    periods: t.periods,
    fraction: t.periods > 0 ? t.throttledPeriods / t.periods : null,
    throttledMs: t.throttledMs,
    usageCpus: meanOf(t.usage),
  }));
  const seen = [...entries.filter((e) => e.role !== 'thread').map((e) => meanOf(e.sums.cpuPct)), meanOf(window.spawned), tick.generator?.cpuPct].filter(isFiniteNumber);
  const cpus = (window.cpus ?? []).map(meanOf).map((v) => v ?? 0);
  return budgetSignals(cpuView({ machine, cpus, throttling, ownCpuPct: seen.length ? seen.reduce((a, b) => a + b, 0) : null }));
}

/**
 * @param {ProcessWindow} e
 * @returns {import('./advice-input.js').ThreadFigures}
 */
function figuresOf(e) {
  const requests = isWorkerEntry(e) && e.firstRequests != null && e.lastRequests != null ? e.lastRequests - e.firstRequests : null;
  return {
    label: e.label,
    kind: e.role === 'thread' ? 'thread' : 'process',
    requests,
    inFlight: meanOf(e.sums.inFlight),
    elu: meanOf(e.sums.elu),
    blocked: meanOf(e.sums.blocked),
    cpuPct: meanOf(e.sums.cpuPct),
    loopCpuPct: meanOf(e.sums.loopCpuPct),
    waitPct: meanOf(e.sums.waitPct),
    spawnTiming: e.spawnTiming ?? null,
  };
}

/**
 * @param {Sum} acc
 * @param {number|null|undefined} value
 * @returns {Sum}
 */
function add(acc, value) {
  return isFiniteNumber(value) ? { sum: acc.sum + value, n: acc.n + 1 } : acc;
}

/** @param {Sum} acc */
function meanOf(acc) {
  return acc.n > 0 ? acc.sum / acc.n : null;
}
