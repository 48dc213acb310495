/**
 * The advice of `run -- <command>` on a server whose work runs on threads beside
 * its event loop, sized by an environment variable: libuv's threadpool
 * (UV_THREADPOOL_SIZE, default 4: crypto.pbkdf2, bcrypt, zlib, fs) or libvips's
 * (VIPS_CONCURRENCY, sharp). It names the knob, its value this run and the value to
 * try: more threads where the pool was full and the cores had room; as many as the
 * cores where the cores were full (more threads, or more processes, only share
 * them: the measured login API served 23 req/s at pool sizes 2, 3 and 4 and with 2
 * cluster workers, 9 at 1). Pure: ids and figures out.
 */
import { THREADPOOL_ENV, VIPS_ENV } from './size-knob.js';
import { MACHINE_CPU_LIMIT_PCT, POOL_BUSY_FRACTION, OTHER_PROCESSES_CORES } from '../base/thresholds.js';
import { isFiniteNumber } from './stats.js';

/**
 * @param {import('./advice-input.js').AdviceInput} input
 * @returns {{ id: 'thread-knob', figures: { name: string, value: number, unset: boolean, trySize: number,
 *   limit: 'threadpool'|'cores'|'neither', threadsCores: number|null, sharedCores: number|null, threads: number, cores: number|null,
 *   coresBusyPct: number|null, idleCores: number|null, busyThreshold: number, coresThreshold: number } } | null}
 */
export function threadKnobReason(input) {
  const knob = input.knob;
  if (!knob || knob.kind !== 'env' || knob.name === null || ![THREADPOOL_ENV, VIPS_ENV].includes(knob.name) || !isFiniteNumber(knob.value)) return null;
  const seen = knob.seen ?? { kind: 'single', workers: 0, threads: 0, poolThreads: 0, poolCpuPct: null };
  const vips = knob.name === VIPS_ENV;
  const threadsPct = vips ? seen.vipsCpuPct : seen.poolCpuPct;
  const threads = (vips ? seen.vipsThreads : seen.poolThreads) || knob.value;
  const cores = input.capacity ?? input.cores ?? null;
  const busyPct = isFiniteNumber(input.systemCpuPct) ? input.systemCpuPct : null;
  const idleCores = cores !== null && busyPct !== null ? Math.max(0, cores * (1 - busyPct / 100)) : null;
  const coresFull = busyPct !== null && busyPct >= MACHINE_CPU_LIMIT_PCT;
  // Busy is runnable time where the sampler read it: one pool thread hashing on a machine others load
  // read 0.82 of a core of CPU while it had work all the time (the threadpool-full verdict reads the same).
  const poolBusyPct = vips ? threadsPct : (input.poolRunnablePct ?? threadsPct);
  const poolFull = isFiniteNumber(poolBusyPct) && poolBusyPct / 100 >= POOL_BUSY_FRACTION * Math.min(knob.value, threads);
  const limit = coresFull ? 'cores' : poolFull ? 'threadpool' : 'neither';
  // Full cores: keep the value. More threads only share the cores, and fewer can lose some: sharp's
  // thumbnails on 2 full cores served 270 req/s with 2 threads against 290 with 4 (by hand, wrk), while
  // bcrypt's served the same at 2, 3 and 4; the printed tune confirms either way.
  const trySize = limit === 'threadpool'
    ? Math.max(knob.value + 1, Math.ceil(knob.value + (idleCores ?? 1) - 1e-9))
    : knob.value;
  // Full cores that other processes held more of than the pool: more threads would win a larger share of them (the
  // scheduler shares a core by runnable thread), which one run cannot price. By hand (wrk) beside other programs on
  // 1.1 of 2 cores, a pbkdf2 server served 195–308 req/s at UV_THREADPOOL_SIZE=4 and 264–351 at 8, where the advice
  // said "more threads or more processes only share them".
  const threadsCores = isFiniteNumber(threadsPct) ? threadsPct / 100 : null;
  const otherCores = isFiniteNumber(input.otherCores) ? input.otherCores : null;
  const sharedCores = limit === 'cores' && otherCores !== null && otherCores >= OTHER_PROCESSES_CORES && otherCores > (threadsCores ?? 0) ? otherCores : null;
  return {
    id: 'thread-knob',
    figures: {
      name: knob.name,
      value: knob.value,
      unset: Boolean(knob.unset),
      trySize,
      limit,
      threadsCores,
      sharedCores,
      threads,
      cores,
      coresBusyPct: busyPct,
      idleCores,
      busyThreshold: POOL_BUSY_FRACTION,
      coresThreshold: MACHINE_CPU_LIMIT_PCT,
    },
  };
}

/**
 * The sizes the confirming tune sweeps: the default series up to twice the cores,
 * with the knob's value and the value to try among them.
 * @param {number[]} series
 * @param {ReturnType<typeof threadKnobReason>} reason
 */
export function threadKnobSizes(series, reason) {
  if (!reason) return series;
  return [...new Set([...series, reason.figures.value, reason.figures.trySize])].sort((a, b) => a - b);
}

/**
 * The reasons with the thread knob's, and a single process's limit agreeing with it
 * (one rule, one sentence): "nothing was saturated" gives way where the pool was full
 * (the pool is the limit, and the headline says to raise it), and becomes the cores
 * where they were full.
 * @param {Array<{ id: string, figures: object }>} reasons
 * @param {ReturnType<typeof threadKnobReason>} reason
 */
export function withThreadKnob(reasons, reason) {
  if (!reason) return reasons;
  const { limit, coresBusyPct } = reason.figures;
  /** @param {{ id: string, figures: object }} r */
  const saysLoad = (r) => r.id === 'one-process-enough' && /** @type {{ limit?: string }} */ (r.figures).limit === 'load';
  const kept = reasons
    .filter((r) => !(limit === 'threadpool' && saysLoad(r)))
    .map((r) => (limit === 'cores' && saysLoad(r) ? { ...r, figures: { ...r.figures, limit: 'cores', share: /** @type {number} the cores' busy share set limit 'cores' */ (coresBusyPct) / 100 } } : r));
  return [...kept, reason];
}
