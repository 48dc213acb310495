/**
 * The per-process view of a user's server in a sweep: what each of its
 * processes and threads did (the probe and /proc see cluster workers, forked
 * children and worker threads without help from the server), and whether the
 * work was spread evenly over its workers. Pure: figures in, ids and figures out.
 */
import { LOPSIDED_RATIO } from '../base/thresholds.js';
import { median, isFiniteNumber } from './stats.js';
import { isWorkerEntry } from '../machine/process-roles.js';

/**
 * @typedef {object} ProcessRow
 * @property {string} label          'main', 'pid 1234', 'thread 2'
 * @property {string} [role]          'main', 'worker', 'thread', …
 * @property {number} pid
 * @property {number|null} threadId
 * @property {number|null} cpuPct          % of one core
 * @property {number|null} elu             event-loop utilisation, 0..1
 * @property {number|null} busy            busy share, 0..1: ELU, or a thread's CPU time where its ELU counted waiting
 * @property {'elu'|'cpu'|null} busyFrom   which of the two `busy` is
 * @property {number|null} waitPct         its (main) thread runnable but waiting for a core, % of wall time
 * @property {number|null} blockedFraction share of wall time inside spawn, 0..1
 * @property {number|null} spawnsPerSec    spawns per second: one per request in a spawn-per-request server
 * @property {import('../base/result-types.js').ProcessSummary['otherThreads']} [otherThreads] the process's other threads (libuv's pool, V8's)
 */

/**
 * A tune step with its processes (src/tune/).
 * @typedef {object} ProcessStep
 * @property {number} size
 * @property {string|null} policy
 * @property {number} repeat
 * @property {boolean} [partial]
 * @property {string|null} [failed]
 * @property {ProcessRow[]} [processes]
 */

/**
 * The processes of one run, from its sampler summary.
 * @param {import('../base/result-types.js').RunResult} result
 * @returns {ProcessRow[]}
 */
export function runProcesses(result) {
  return (result.samples?.processes ?? []).map((p) => {
    /** @type {import('../base/result-types.js').ProcessSummary} */
    const s = p.summary ?? {};
    return {
      // the sampler labels every process it follows
      label: /** @type {string} */ (p.label),
      role: p.role,
      pid: p.pid,
      threadId: p.threadId ?? null,
      cpuPct: s.cpuPct ?? null,
      elu: s.elu ?? null,
      busy: s.busy ?? s.elu ?? null,
      busyFrom: s.busyFrom ?? (Number.isFinite(s.elu) ? 'elu' : null),
      waitPct: s.waitPct ?? null,
      otherThreads: s.otherThreads ?? null,
      blockedFraction: s.blockedFraction ?? null,
      spawnsPerSec: s.spawnsPerSec ?? null,
    };
  });
}

/**
 * What the workers of every measured (size, policy) did, median over its complete
 * steps: how many were seen, how busy they were on average and the busiest, by
 * which figure, and the main thread's busy share. The per-size evidence of a
 * thread pool (piscina, a hand-made pool) as much as of processes; and the main
 * process's other threads (libuv's pool: UV_THREADPOOL_SIZE), how many worked and their CPU.
 * @param {ProcessStep[]} steps tune steps, each with `processes` (ProcessRow[])
 * @returns {{ size: number, policy: string|null, workers: number|null, workerKind: 'thread'|'process'|'mixed'|null,
 *   busy: number|null, busiest: number|null, busyFrom: 'elu'|'cpu'|'mixed'|null, mainBusy: number|null,
 *   otherThreads: { busy: number|null, cpuPct: number|null } }[]}
 */
export function cellWorkers(steps) {
  /**
   * @type {Map<string, { size: number, policy: string|null, list: Array<{ otherBusy: number|null, otherCpuPct: number|null, workers: number,
   *   kinds: Set<'thread'|'process'>, from: Set<'elu'|'cpu'>, busy: number|null, busiest: number|null, mainBusy: number|null }> }>}
   */
  const cells = new Map();
  for (const step of steps) {
    if (step.partial || step.failed || !step.processes) continue;
    const workers = step.processes.filter(isWorkerEntry);
    const other = step.processes.find((r) => r.role === 'main')?.otherThreads ?? null;
    if (workers.length === 0 && !Number.isFinite(other?.cpuPct)) continue;
    const id = `${step.size}\u0000${step.policy}`;
    const cell = cells.get(id) ?? { size: step.size, policy: step.policy, list: [] };
    cells.set(id, cell);
    const busy = workers.map((w) => w.busy).filter(isFiniteNumber);
    cell.list.push({
      otherBusy: other?.busy ?? null,
      otherCpuPct: other?.cpuPct ?? null,
      workers: workers.length,
      kinds: new Set(workers.map((w) => (w.role === 'thread' ? 'thread' : 'process'))),
      from: new Set(workers.map((w) => w.busyFrom).filter(/** @returns {f is 'elu'|'cpu'} */ (f) => Boolean(f))),
      busy: busy.length ? busy.reduce((a, b) => a + b, 0) / busy.length : null,
      busiest: busy.length ? Math.max(...busy) : null,
      mainBusy: step.processes.find((r) => r.role === 'main')?.busy ?? null,
    });
  }
  return [...cells.values()].map(({ size, policy, list }) => {
    const kinds = new Set(list.flatMap((x) => [...x.kinds]));
    const from = new Set(list.flatMap((x) => [...x.from]));
    return {
      size,
      policy,
      workers: median(list.map((x) => x.workers)),
      workerKind: kinds.size === 0 ? null : kinds.size === 1 ? [...kinds][0] : 'mixed',
      busy: median(list.map((x) => x.busy)),
      busiest: median(list.map((x) => x.busiest)),
      busyFrom: from.size === 0 ? null : from.size === 1 ? [...from][0] : 'mixed',
      mainBusy: median(list.map((x) => x.mainBusy)),
      otherThreads: { busy: median(list.map((x) => x.otherBusy)), cpuPct: median(list.map((x) => x.otherCpuPct)) },
    };
  });
}

/**
 * How evenly the workers (every process and thread but the main one) shared the
 * work: by spawns per second where the probe counted them (one per request in a
 * spawn-per-request server), by CPU otherwise.
 * @param {Array<Pick<ProcessRow, 'role'|'label'|'cpuPct'|'spawnsPerSec'>>} rows
 * @returns {{ id: 'even'|'lopsided', basis: 'spawns'|'cpu', workers: number, busiest: string, busiestShare: number,
 *   ratio: number, threshold: number } | null} null with fewer than two workers or nothing measured
 */
export function workerBalance(rows) {
  const workers = rows.filter(isWorkerEntry);
  if (workers.length < 2) return null;
  const basis = workers.every((w) => isFiniteNumber(w.spawnsPerSec)) && workers.some((w) => (w.spawnsPerSec ?? 0) > 0) ? 'spawns' : 'cpu';
  // Read on `measured` only, where it is a finite number.
  /** @param {Pick<ProcessRow, 'cpuPct'|'spawnsPerSec'>} w */
  const value = (w) => /** @type {number} */ (basis === 'spawns' ? w.spawnsPerSec : w.cpuPct);
  const measured = workers.filter((w) => Number.isFinite(value(w)));
  const total = measured.reduce((sum, w) => sum + value(w), 0);
  if (measured.length < 2 || total <= 0) return null;
  const busiest = measured.reduce((a, b) => (value(b) > value(a) ? b : a));
  const busiestShare = value(busiest) / total;
  const ratio = busiestShare * measured.length;
  return {
    id: ratio >= LOPSIDED_RATIO ? 'lopsided' : 'even',
    basis,
    workers: measured.length,
    busiest: busiest.label,
    busiestShare,
    ratio,
    threshold: LOPSIDED_RATIO,
  };
}

/**
 * The processes behind the recommendation: the last complete step of the chosen
 * size and policy, with its balance.
 * @param {ProcessStep[]} steps tune steps, each with `processes` (ProcessRow[])
 * @param {{ size: number|null, policy: string|null }} rec
 * @returns {{ size: number, policy: string|null, repeat: number, rows: ProcessRow[], balance: object|null } | null}
 */
export function chosenProcesses(steps, rec) {
  if (rec.size === null) return null;
  const step = steps.filter((s) => s.size === rec.size && s.policy === rec.policy && !s.partial && !s.failed && s.processes?.length).at(-1);
  if (!step) return null;
  const rows = /** @type {ProcessRow[]} kept above: it has processes */ (step.processes);
  return { size: step.size, policy: step.policy, repeat: step.repeat, rows, balance: workerBalance(rows) };
}

/**
 * The balance of every measured (size, policy): the median over its complete
 * steps of how much an even share the busiest worker did, so the evidence table
 * shows which sizes and policies leave workers idle.
 * @param {ProcessStep[]} steps tune steps, each with `processes`
 * @returns {{ size: number, policy: string|null, ratio: number, id: 'even'|'lopsided', basis: 'spawns'|'cpu' }[]}
 */
export function cellBalances(steps) {
  /** @type {Map<string, { size: number, policy: string|null, list: Array<NonNullable<ReturnType<typeof workerBalance>>> }>} */
  const cells = new Map();
  for (const step of steps) {
    if (step.partial || step.failed || !step.processes) continue;
    const balance = workerBalance(step.processes);
    if (!balance) continue;
    const id = `${step.size}\u0000${step.policy}`;
    const cell = cells.get(id) ?? { size: step.size, policy: step.policy, list: [] };
    cells.set(id, cell);
    cell.list.push(balance);
  }
  return [...cells.values()].map(({ size, policy, list }) => {
    // every cell holds one balance at least, each with a finite ratio
    const ratio = /** @type {number} */ (median(list.map((b) => b.ratio)));
    return { size, policy, ratio, id: ratio >= LOPSIDED_RATIO ? 'lopsided' : 'even', basis: list[0].basis };
  });
}

/**
 * A size knob that set no worker count: the same number of worker processes ran at every size measured
 * (two sizes or more), or null. `tune --size-env WORKERS --sizes 1,3` on a node:cluster server that forks
 * 2 workers whatever WORKERS says (it reads another variable, or caps at its CPUs) measured 2 workers twice and
 * recommended "Use 3 workers" from the noise between them. Processes only: a thread pool may start its
 * threads as work comes (piscina), so fewer than its size can be seen.
 * @param {ReturnType<typeof cellWorkers>} cells
 * @returns {{ workers: number, sizes: number[] }|null}
 */
export function ignoredSizeKnob(cells) {
  const measured = cells.filter((c) => c.workerKind === 'process' && Number.isFinite(c.workers) && /** @type {number} */ (c.workers) > 0);
  const sizes = [...new Set(measured.map((c) => c.size))].sort((a, b) => a - b);
  if (sizes.length < 2 || measured.length < cells.length) return null;
  const counts = new Set(measured.map((c) => Math.round(/** @type {number} */ (c.workers))));
  return counts.size === 1 ? { workers: [...counts][0], sizes } : null;
}
