/**
 * Rule: the server's pool is the limit. Either its workers (threads or processes)
 * are all busy (a saturated pool: with the cores full too, more workers only
 * compete for them; with cores to spare, a larger pool helps), or the workers have
 * room while the main thread that hands them the work is busy all the time (the
 * hand-off is the limit: more workers will not help). A worker's busy share is the
 * one the sampler settled on, its CPU time where its ELU counted waiting for work
 * (src/sample/thread-busy.js).
 */
import { poolCapacity } from './pool-capacity.js';
import { POOL_BUSY_FRACTION, MAIN_ELU_LIMIT, HANDOFF_MIN_WORKER_BUSY } from '../base/thresholds.js';

/**
 * The capacity figures of the evidence (src/analysis/pool-capacity.js).
 * @param {import('./verdict-common.js').Evidence} evidence
 */
export function capacityOf(evidence) {
  return poolCapacity({
    rps: evidence.load.rps,
    processes: evidence.processes,
    cores: evidence.machine?.cores ?? null,
    cpus: evidence.machine?.cpus ?? [],
    spawnedCpuPct: evidence.spawnedCpuPct ?? null,
    busyPct: evidence.machine?.busyPct ?? null,
    quota: serverQuota(evidence),
  });
}

/**
 * The CPU quota the server runs under (throttled or not), with the load generator's CPU where spawnbench shares it; null without one.
 * @param {import('./verdict-common.js').Evidence} evidence
 */
function serverQuota(evidence) {
  const q = evidence.quota;
  if (!q || !q.roles.includes('server') || !(q.quotaCpus > 0)) return null;
  return { cpus: q.quotaCpus, sharedPct: q.roles.includes('spawnbench') ? evidence.generator?.cpuPct ?? 0 : 0 };
}

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function poolLimited(evidence) {
  const c = capacityOf(evidence);
  if (c.workers === 0 || c.workersBusy === null) return null;
  const figures = {
    workers: c.workers,
    workerKind: c.workerKind,
    workersBusy: c.workersBusy,
    workersBusyMax: c.workersBusyMax,
    busyFrom: c.busyFrom,
    mainBusy: c.mainBusy,
    cores: c.cores,
    coresBusyPct: c.coresBusyPct,
    coresFull: c.coresFull,
    serverCores: c.serverCores,
    otherCores: c.otherCores,
    rps: evidence.load.rps,
    capacityRps: c.capacityRps,
    capacityLimit: c.limit,
    threshold: POOL_BUSY_FRACTION,
  };
  if (c.workersBusy >= POOL_BUSY_FRACTION) return { id: 'pool-saturated', kind: 'problem', where: null, figures };
  // Workers that took no work (an idle helper thread) are fed nothing: no hand-off to be the limit.
  if ((c.mainBusy ?? 0) >= MAIN_ELU_LIMIT && c.workersBusy >= HANDOFF_MIN_WORKER_BUSY) {
    const main = evidence.processes.find((p) => p.role === 'main');
    return { id: 'handoff-limited', kind: 'problem', where: main ? `main, pid ${main.pid}` : null, figures: { ...figures, threshold: MAIN_ELU_LIMIT } };
  }
  return null;
}
