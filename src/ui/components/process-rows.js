import { median } from '../../analysis/stats.js';
import { isWorkerEntry } from '../../machine/process-roles.js';

/**
 * Rows for the process table: the sampler's processes joined with the engine's
 * worker list (in-flight counts) by pid and thread id. Pure, so the collapse rule
 * is tested without rendering.
 */

/**
 * @typedef {object} ProcessRow
 * @property {string} key
 * @property {string} label
 * @property {'main'|'worker'|'thread'|'launcher'|'summary'} role
 * @property {number|null} cpuPct     % of one core
 * @property {number|null} rssBytes
 * @property {number|null} elu        0–1
 * @property {boolean} [busyFromCpu]  a thread whose ELU counted waiting for work: `busy` (its CPU time) is its figure
 * @property {number|null} [busy]     0–1
 * @property {number|null} loopP99Ms
 * @property {number|null} loopMaxMs
 * @property {number|null} spawnBlocked fraction of wall time blocked in spawn, 0–1
 * @property {number|null} inFlight
 * @property {boolean} probe          whether the in-process probe reported
 */

/**
 * The sampler's label, shortened for a 11–14 character column: "worker 17" → "w17",
 * "thread 3" → "t3"; "main" and "pid 4242" stay.
 * @param {string} label
 * @returns {string}
 */
export function shortLabel(label) {
  return label.replace(/^worker (\d+)$/, 'w$1').replace(/^thread (\d+)$/, 't$1');
}

const workerMatches = (worker, proc) =>
  worker.pid === proc.pid && (worker.threadId ?? null) === (proc.threadId ?? null);

/**
 * @param {object|null} sample   the sampler's latest interval
 * @param {object[]} workers     the engine's merged worker list
 * @returns {ProcessRow[]} main process first, then workers by id, then launchers
 */
export function buildProcessRows(sample, workers = []) {
  /** @type {ProcessRow[]} */
  const rows = [];
  const used = new Set();
  for (const proc of sample?.processes ?? []) {
    const worker = workers.find((candidate) => workerMatches(candidate, proc));
    if (worker) used.add(worker);
    const probe = proc.probe ?? null;
    rows.push({
      key: proc.key ?? `${proc.pid}:${proc.threadId ?? ''}`,
      // The engine's worker id names a worker even when the sampler only knew its pid.
      label: worker ? `w${worker.id}` : shortLabel(proc.label ?? proc.role),
      role: proc.role,
      cpuPct: proc.cpuPct ?? null,
      rssBytes: proc.rssBytes ?? null,
      elu: probe?.elu ?? null,
      // A thread whose ELU counted waiting for work (Atomics.wait): its busy share is its CPU time.
      busyFromCpu: proc.busyFrom === 'cpu',
      busy: proc.busy ?? null,
      loopP99Ms: probe?.loopDelay?.p99Ms ?? null,
      loopMaxMs: probe?.loopDelay?.maxMs ?? null,
      spawnBlocked: probe?.spawn?.blockedFraction ?? null,
      inFlight: worker?.inFlight ?? null,
      probe: probe !== null,
    });
  }
  for (const worker of workers) {
    if (used.has(worker)) continue;
    rows.push({
      key: `worker:${worker.id}`,
      label: `w${worker.id}`,
      role: worker.threadId != null ? 'thread' : 'worker',
      cpuPct: null,
      rssBytes: null,
      elu: null,
      loopP99Ms: null,
      loopMaxMs: null,
      spawnBlocked: null,
      inFlight: worker.inFlight ?? null,
      probe: false,
    });
  }
  const rank = (row) => (row.role === 'main' ? 0 : row.role === 'launcher' ? 2 : 1);
  return rows.sort((a, b) => rank(a) - rank(b));
}

const NUMERIC = ['cpuPct', 'rssBytes', 'elu', 'loopP99Ms', 'loopMaxMs', 'spawnBlocked', 'inFlight'];

/**
 * @param {string} label
 * @param {ProcessRow[]} rows
 * @param {(values: number[]) => number} pick
 * @returns {ProcessRow}
 */
const statRow = (label, rows, pick) => {
  // Its NUMERIC fields are set below.
  const row = /** @type {ProcessRow} */ ({ key: `summary:${label}`, label, role: 'summary', probe: rows.some((r) => r.probe) });
  for (const field of NUMERIC) {
    // A thread whose ELU counted waiting for work shows its busy share there (processes-panel.js).
    const values = rows.map((r) => (field === 'elu' && r.busyFromCpu ? r.busy : r[field])).filter(Number.isFinite);
    row[field] = values.length ? pick(values) : null;
  }
  return row;
};

/**
 * The busiest worker: highest CPU, then highest ELU, then most in flight.
 * @param {ProcessRow[]} rows
 * @returns {ProcessRow|undefined}
 */
export function busiest(rows) {
  const score = (row) => [row.cpuPct ?? -1, row.elu ?? -1, row.inFlight ?? -1];
  return rows.reduce((best, row) => {
    if (!best) return row;
    const [a, b] = [score(row), score(best)];
    const i = a.findIndex((value, index) => value !== b[index]);
    return i !== -1 && a[i] > b[i] ? row : best;
  }, undefined);
}

/** Rows of the full worker summary: min, median, max and the busiest worker. */
const SUMMARY_ROWS = 4;

/**
 * Rows that fit in `maxRows`: all of them; or the main process, a min / median /
 * max summary of the workers and the busiest one; or, when even that does not fit,
 * the main process and the busiest worker.
 * @param {ProcessRow[]} rows
 * @param {number} maxRows
 * @returns {{ rows: ProcessRow[], collapsed: number }} collapsed: workers summarised (0 = none)
 */
export function collapseRows(rows, maxRows) {
  if (rows.length <= maxRows) return { rows, collapsed: 0 };
  const others = rows.filter((row) => !isWorkerEntry(row));
  const workers = rows.filter(isWorkerEntry);
  const top = busiest(workers);
  const busiestRow = { ...top, key: `busiest:${top.key}`, label: `busiest ${top.label}` };
  if (others.length + SUMMARY_ROWS > maxRows) return { rows: [...others, busiestRow], collapsed: workers.length };
  return {
    rows: [
      ...others,
      statRow('min', workers, (values) => Math.min(...values)),
      statRow('median', workers, median),
      statRow('max', workers, (values) => Math.max(...values)),
      busiestRow,
    ],
    collapsed: workers.length,
  };
}
