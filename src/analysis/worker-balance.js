/**
 * The per-process view of a user's server in a sweep: what each of its
 * processes and threads did (the probe and /proc see cluster workers, forked
 * children and worker threads without help from the server), and whether the
 * work was spread evenly over its workers. Pure: figures in, ids and figures out.
 */
import { LOPSIDED_RATIO } from '../thresholds.js';
import { median } from './stats.js';

/**
 * @typedef {object} ProcessRow
 * @property {string} label          'main', 'pid 1234', 'thread 2'
 * @property {'main'|'worker'|'thread'} role
 * @property {number} pid
 * @property {number|null} threadId
 * @property {number|null} cpuPct          % of one core
 * @property {number|null} elu             event-loop utilisation, 0..1
 * @property {number|null} blockedFraction share of wall time inside spawn, 0..1
 * @property {number|null} spawnsPerSec    spawns per second: one per request in a spawn-per-request server
 */

/**
 * The processes of one run, from its sampler summary.
 * @param {object} result RunResult
 * @returns {ProcessRow[]}
 */
export function runProcesses(result) {
  return (result.samples?.processes ?? []).map((p) => {
    const s = p.summary ?? {};
    return {
      label: p.label,
      role: p.role,
      pid: p.pid,
      threadId: p.threadId ?? null,
      cpuPct: s.cpuPct ?? null,
      elu: s.elu ?? null,
      blockedFraction: s.blockedFraction ?? null,
      spawnsPerSec: s.spawnsPerSec ?? null,
    };
  });
}

/**
 * How evenly the workers (every process and thread but the main one) shared the
 * work: by spawns per second where the probe counted them (one per request in a
 * spawn-per-request server), by CPU otherwise.
 * @param {ProcessRow[]} rows
 * @returns {{ id: 'even'|'lopsided', basis: 'spawns'|'cpu', workers: number, busiest: string, busiestShare: number,
 *   ratio: number, threshold: number } | null} null with fewer than two workers or nothing measured
 */
export function workerBalance(rows) {
  const workers = rows.filter((r) => r.role !== 'main');
  if (workers.length < 2) return null;
  const basis = workers.every((w) => Number.isFinite(w.spawnsPerSec)) && workers.some((w) => w.spawnsPerSec > 0) ? 'spawns' : 'cpu';
  const value = (w) => (basis === 'spawns' ? w.spawnsPerSec : w.cpuPct);
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
 * @param {object[]} steps tune steps, each with `processes` (ProcessRow[])
 * @param {{ size: number|null, policy: string|null }} rec
 * @returns {{ size: number, policy: string|null, repeat: number, rows: ProcessRow[], balance: object|null } | null}
 */
export function chosenProcesses(steps, rec) {
  if (rec.size === null) return null;
  const step = steps.filter((s) => s.size === rec.size && s.policy === rec.policy && !s.partial && !s.failed && s.processes?.length).at(-1);
  if (!step) return null;
  return { size: step.size, policy: step.policy, repeat: step.repeat, rows: step.processes, balance: workerBalance(step.processes) };
}

/**
 * The balance of every measured (size, policy): the median over its complete
 * steps of how much an even share the busiest worker did, so the evidence table
 * shows which sizes and policies leave workers idle.
 * @param {object[]} steps tune steps, each with `processes`
 * @returns {{ size: number, policy: string|null, ratio: number, id: 'even'|'lopsided', basis: 'spawns'|'cpu' }[]}
 */
export function cellBalances(steps) {
  const cells = new Map();
  for (const step of steps) {
    if (step.partial || step.failed || !step.processes) continue;
    const balance = workerBalance(step.processes);
    if (!balance) continue;
    const id = `${step.size}\u0000${step.policy}`;
    if (!cells.has(id)) cells.set(id, { size: step.size, policy: step.policy, list: [] });
    cells.get(id).list.push(balance);
  }
  return [...cells.values()].map(({ size, policy, list }) => {
    const ratio = median(list.map((b) => b.ratio));
    return { size, policy, ratio, id: ratio >= LOPSIDED_RATIO ? 'lopsided' : 'even', basis: list[0].basis };
  });
}
