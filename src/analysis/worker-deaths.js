/**
 * The pool workers that died during a run, and which sampled processes were
 * incarnations of one worker slot. A strategy replaces a dead worker in the same
 * slot (same id, new pid): its requests before and after are one worker's, so the
 * balance check must count them as one, and a death is a reason to doubt the run,
 * never evidence for a balancing policy (issue #25: a SIGKILLed fork-pool worker
 * made an even round-robin look lopsided, 185–811 requests, and least-requests
 * was advised). Pure: the merged workers list (src/runner/control-lines.js, each
 * entry with `exits`) in, deaths and groups out.
 */

/**
 * @typedef {object} WorkerDeath
 * @property {number} id            the worker's slot
 * @property {number|null} pid       the process that died (a thread's process for a worker thread)
 * @property {number|null} threadId  a worker thread's id, else null
 * @property {number|null} code      its exit code, when it exited
 * @property {string|null} signal    the signal that killed it ('SIGKILL'), when one did
 * @property {number|null} atMs      when, ms from the start of the measured phase (negative: in the warm-up; null: not known)
 * @property {number|null} replacedBy the pid that took the slot over (null: not replaced yet)
 * @property {number|null} replacedByThreadId
 */

import { isFiniteNumber } from './stats.js';

/**
 * One exit of a strategy's worker (src/runner/control-lines.js): the incarnation that died.
 * @typedef {object} WorkerExit
 * @property {number|null} [pid]
 * @property {number|null} [threadId]
 * @property {number|null} [code]
 * @property {string|null} [signal]
 * @property {number|null} [at] epoch ms
 * @property {number|null} [replacedBy]
 * @property {number|null} [replacedByThreadId]
 */

/** @typedef {import('./advice-input.js').ThreadFigures} ThreadFigures */

/**
 * @param {Array<{ id: number, exits?: WorkerExit[] }>} workers the strategy's merged workers list
 * @param {number|null} measureStartedAt epoch ms when the measured phase began (null: not known)
 * @returns {WorkerDeath[]} oldest first
 */
export function workerDeaths(workers, measureStartedAt = null) {
  /** @type {WorkerDeath[]} */
  const deaths = [];
  for (const w of workers ?? []) {
    for (const exit of w.exits ?? []) {
      deaths.push({
        id: w.id,
        pid: exit.pid ?? null,
        threadId: exit.threadId ?? null,
        code: exit.code ?? null,
        signal: exit.signal ?? null,
        atMs: isFiniteNumber(measureStartedAt) && isFiniteNumber(exit.at) ? exit.at - measureStartedAt : null,
        replacedBy: exit.replacedBy ?? null,
        replacedByThreadId: exit.replacedByThreadId ?? null,
      });
    }
  }
  return deaths.sort((a, b) => (a.atMs ?? 0) - (b.atMs ?? 0));
}

/**
 * Deaths that matter to the measured figures: in the measured phase, or at a time not known.
 * @param {WorkerDeath[]|undefined} deaths
 */
export function measuredDeaths(deaths) {
  return (deaths ?? []).filter((d) => d.atMs === null || d.atMs >= 0);
}

/**
 * Which worker slot each incarnation (process, or thread) belonged to: the live
 * ones and those that died.
 * @param {Array<{ id: number, pid: number|null, threadId?: number|null, exits?: WorkerExit[] }>} workers
 * @returns {Map<string, number>} `pid` or `pid/threadId` → slot id
 */
export function incarnationSlots(workers) {
  const slots = new Map();
  for (const w of workers ?? []) {
    if (w.pid != null) slots.set(incarnationKey(w.pid, w.threadId ?? null), w.id);
    for (const exit of w.exits ?? []) if (exit.pid != null) slots.set(incarnationKey(exit.pid, exit.threadId ?? null), w.id);
  }
  return slots;
}

/**
 * The key of a process or thread entry in incarnationSlots().
 * @param {number} pid
 * @param {number|null|undefined} threadId
 */
export function incarnationKey(pid, threadId) {
  return threadId == null ? `${pid}` : `${pid}/${threadId}`;
}

/**
 * Folds the figures of one slot's incarnations into one worker: request counts add
 * up; shares and means are weighted by how many samples each incarnation has
 * (each covers its own part of the run).
 * @param {Array<{ figures: ThreadFigures, samples: number }>} parts one worker's incarnations, oldest first (at least one)
 * @returns {ThreadFigures & { incarnations?: number, samples?: number }} the figures of the slot's worker
 */
export function foldIncarnations(parts) {
  if (parts.length === 1) return parts[0].figures;
  const weight = parts.reduce((sum, p) => sum + Math.max(1, p.samples), 0);
  /** @param {'inFlight'|'elu'|'blocked'|'spawnsPerSec'|'cpuPct'|'loopCpuPct'|'waitPct'} field */
  const weighted = (field) => {
    /** @param {{ figures: ThreadFigures }} p */
    const value = (p) => p.figures[field];
    const known = parts.filter((p) => isFiniteNumber(value(p)));
    if (known.length === 0) return null;
    const w = known.reduce((sum, p) => sum + Math.max(1, p.samples), 0);
    return known.reduce((sum, p) => sum + /** @type {number} filtered finite above */ (value(p)) * Math.max(1, p.samples), 0) / w;
  };
  const counts = parts.map((p) => p.figures.requests).filter(isFiniteNumber);
  const last = parts[parts.length - 1].figures;
  return {
    ...last,
    requests: counts.length ? counts.reduce((a, b) => a + b, 0) : null,
    inFlight: weighted('inFlight'),
    elu: weighted('elu'),
    blocked: weighted('blocked'),
    spawnsPerSec: weighted('spawnsPerSec'),
    cpuPct: weighted('cpuPct'),
    loopCpuPct: weighted('loopCpuPct'),
    waitPct: weighted('waitPct'),
    incarnations: parts.length,
    samples: weight,
  };
}

/**
 * The worker processes of a user's server that died while measured, from what the
 * sampler saw of its process tree (node:cluster, a hand-made fork pool: no control
 * lines name their workers): a worker process that was gone before the last sample,
 * and the one that appeared after it took its place (a primary forking a replacement).
 * The workers of the first sample hold the slots; a process that appears while no slot
 * is free (a short-lived child) is neither a worker death nor a replacement.
 * @param {Array<{ pid: number, threadId?: number|null, role?: string, series?: Array<{ t: number }> }>|null} processes
 *   the sampler summary's processes (the measured phase)
 * @param {number|null} measureStartedAt epoch ms when the measured phase began
 * @returns {WorkerDeath[]} oldest first; `id` the slot (1, 2, … in the order the first sample lists them)
 */
export function treeWorkerDeaths(processes, measureStartedAt = null) {
  // Each kept process has a series of one sample at least.
  const all = (processes ?? []).filter((p) => (p.series ?? []).length > 0).map((p) => ({ ...p, series: /** @type {Array<{ t: number }>} */ (p.series) }));
  const end = Math.max(...all.map((p) => p.series[p.series.length - 1].t));
  const start = Math.min(...all.map((p) => p.series[0].t));
  const lives = all
    .filter((p) => p.role === 'worker' && (p.threadId ?? null) === null)
    .map((p) => ({ pid: p.pid, first: p.series[0].t, last: p.series[p.series.length - 1].t }))
    .sort((a, b) => a.first - b.first);
  /** slot → the process holding it; a dead holder's slot waits for the next process to appear */
  const holders = lives.filter((l) => l.first === start);
  // The pool's size is the count of workers alive at most sample times: a slot empty at the first
  // sample (its worker died just before, its replacement not yet started, as on a loaded machine)
  // is open from the start, while a short-lived extra child at one sample does not make a slot.
  const slots = Math.max(holders.length, usualCount(all, lives));
  /** @type {number[]} */
  const open = Array.from({ length: slots - holders.length }, (_, i) => holders.length + i + 1);
  /** @type {WorkerDeath[]} */
  const deaths = [];
  // Every pid in slotOf is one of lives'.
  /** @param {number} pid */
  const lifeOf = (pid) => /** @type {{ pid: number, first: number, last: number }} */ (lives.find((l) => l.pid === pid));
  const slotOf = new Map(holders.map((l, i) => [l.pid, i + 1]));
  const events = [...lives].sort((a, b) => a.first - b.first);
  for (const life of events) {
    // Deaths before this process appeared free their slots first.
    for (const [pid, slot] of slotOf) {
      const held = lifeOf(pid);
      if (held.last < end && held.last <= life.first && !deaths.some((d) => d.pid === pid)) {
        deaths.push({ id: slot, pid, threadId: null, code: null, signal: null, atMs: isFiniteNumber(measureStartedAt) ? held.last - measureStartedAt : null, replacedBy: null, replacedByThreadId: null });
        open.push(slot);
      }
    }
    if (slotOf.has(life.pid) || open.length === 0) continue;
    const slot = /** @type {number} open is not empty */ (open.shift());
    slotOf.set(life.pid, slot);
    const death = deaths.find((d) => d.id === slot && d.replacedBy === null);
    if (death) death.replacedBy = life.pid;
  }
  // Holders gone before the end with no process after them: dead, not replaced.
  for (const [pid, slot] of slotOf) {
    const held = lifeOf(pid);
    if (held.last < end && !deaths.some((d) => d.pid === pid)) {
      deaths.push({ id: slot, pid, threadId: null, code: null, signal: null, atMs: isFiniteNumber(measureStartedAt) ? held.last - measureStartedAt : null, replacedBy: null, replacedByThreadId: null });
    }
  }
  return deaths.sort((a, b) => (a.atMs ?? 0) - (b.atMs ?? 0));
}

/**
 * The number of worker processes alive at most sample times (the larger on a tie).
 * @param {Array<{ series?: Array<{ t: number }> }>} all every sampled process (each with a series here)
 * @param {Array<{ first: number, last: number }>} lives the workers' first and last sample times
 */
function usualCount(all, lives) {
  const times = [...new Set(all.flatMap((p) => (p.series ?? []).map((s) => s.t)))];
  const counts = new Map();
  for (const t of times) {
    const n = lives.filter((l) => l.first <= t && t <= l.last).length;
    counts.set(n, (counts.get(n) ?? 0) + 1);
  }
  let best = 0;
  for (const [n, seen] of counts) if (seen > (counts.get(best) ?? 0) || (seen === counts.get(best) && n > best)) best = n;
  return best;
}

/**
 * Which worker slot each incarnation of a death list belonged to (the process that died
 * and the one that replaced it): for deaths found in the tree, where no strategy lists slots.
 * @param {WorkerDeath[]|undefined} deaths
 * @returns {Map<string, number>} as incarnationSlots()
 */
export function deathSlots(deaths) {
  const slots = new Map();
  for (const d of deaths ?? []) {
    if (d.pid != null) slots.set(incarnationKey(d.pid, d.threadId ?? null), d.id);
    if (d.replacedBy != null) slots.set(incarnationKey(d.replacedBy, d.replacedByThreadId ?? null), d.id);
  }
  return slots;
}
