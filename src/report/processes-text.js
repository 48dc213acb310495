/**
 * The per-process part of the text summary: one line per process or thread of
 * the strategy (ELU, time blocked in spawn, event-loop delay p99 as "loop p99", CPU), the spawned
 * commands, system and generator CPU, then a per-worker table. Plain summary
 * object in (what `sampler.stop()` resolves to), string out.
 */
import { int, pct, ms, isFiniteNumber } from './text-format.js';
import { cleanText } from '../base/untrusted-text.js';
import { MIN_SHOWN_CPU_PCT, CPU_STARVED_FRACTION, OTHER_THREAD_BUSY_PCT } from '../base/thresholds.js';
import { isWorkerEntry } from '../machine/process-roles.js';
import { describeThrottling } from './describe.js';
import { THREAD_KIND_WORDS } from '../base/labels.js';

/** The summary fits an 80-column terminal: longer lines carry on below, under their figures. */
const MAX_COLUMNS = 80;

/** @typedef {import('../base/result-types.js').ProcessSummary} ProcessSummary */
/**
 * A worker as the strategy last listed it (its pool id, its pid and thread, requests done, its dead incarnations).
 * @typedef {{ id: number, pid: number, threadId: number|null, completed: number, exits?: Array<{ pid: number, threadId?: number|null }> }} StrategyWorker
 */
/**
 * A sampled process as src/sample/recorder.js writes it: always with its label and its summary.
 * @typedef {import('../base/result-types.js').ProcessSamples & { label: string, summary: ProcessSummary }} SampledProcess
 */
/** @typedef {SampledProcess & { requests: number|null }} ProcessRow */

/**
 * The kinds' words, looked up by a kind read from the result (one this version does not name reads as itself).
 * @type {Readonly<Record<string, string>>}
 */
const KIND_WORDS = THREAD_KIND_WORDS;

/**
 * @param {import('../base/result-types.js').SamplesSummary|null|undefined} samples the sampler summary: `{ processes, spawned, system, generator, probe, notes }`
 * @param {StrategyWorker[]} [workers]
 *   the strategy's last workers list: names workers by pool id and fills in requests the summary lacks
 * @returns {string} '' when there is nothing to show
 */
export function formatProcesses(samples, workers = []) {
  if (!samples?.processes?.length) return '';
  // The recorder gives every process a label and a summary; a file edited without them fails below, and `report` names the field.
  const processes = /** @type {SampledProcess[]} */ (samples.processes);
  /** @type {ProcessRow[]} */
  const rows = processes.map((p) => {
    const worker = isWorkerEntry(p) ? workerOf(p, workers) : null;
    // An incarnation of a worker that died: the slot's replacement is the live "worker N".
    const dead = isWorkerEntry(p) && !worker ? deadIncarnation(p, workers) : null;
    const label = worker ? `worker ${worker.id}` : dead ? `worker ${dead.id} (died)` : p.label;
    return { ...p, label, requests: p.requests ?? worker?.completed ?? null };
  });
  // Process lines are padded to their own labels only (`main  ELU …`), so the usual
  // line fits 80 columns; the system and generator lines line up among themselves.
  const width = Math.max(...rows.map((p) => p.label.length));
  const footerWidth = Math.max(width, 'generator'.length);
  // A process no sample reached (a run shorter than --sample-interval, `-n 3`) said so: its row was a bare "main".
  const figuresOf = (/** @type {ProcessRow} */ p) => {
    const parts = processFigures(p.summary, p.role);
    return parts.length > 0 ? parts : ['no figures sampled'];
  };
  const lines = rows.flatMap((p) => [fitLine(`${p.label.padEnd(width)}  `, figuresOf(p)), ...otherThreadsLine(p.summary, width), ...routesLine(p.summary, width)]);
  if (rows.some((p) => p.role === 'thread' && p.summary.busyFrom === 'cpu')) lines.push(BUSY_FROM_CPU_NOTE);

  const spawned = samples.spawned;
  // Number(): null reads as 0, as `>=` has always read it.
  if (spawned && (Number(spawned.cpuPct) >= MIN_SHOWN_CPU_PCT || Number(spawned.spawns) > 0 || Number(spawned.seen) > 0)) {
    // The spawns the probe saw fail (samples.spawned.failures): a command that never ran spent no CPU.
    const failed = (spawned.failures ?? []).reduce((sum, f) => sum + (Number(f.count) || 0), 0);
    const counts = [
      Number(spawned.spawns) > 0 ? `${int(spawned.spawns)} spawns` : null,
      failed > 0 ? `${failed >= Number(spawned.spawns) ? 'all' : int(failed)} failed` : null,
      Number(spawned.seen) > 0 ? `${int(spawned.seen)} seen running` : null,
    ]
      .filter(Boolean)
      .join(', ');
    lines.push(`spawned commands  CPU ${cpu(spawned.cpuPct)}${counts ? `  (${counts})` : ''}`);
  }
  if (samples.system?.cpus?.length) {
    lines.push(fitLine(`${'system'.padEnd(footerWidth)}  `, ['CPU per core', ...samples.system.cpus.map(cpu)], ' '));
  }
  lines.push(...describeThrottling(samples.throttling));
  const generator = samples.generator;
  if (generator?.cpuPct != null || generator?.elu != null) {
    lines.push(`${'generator'.padEnd(footerWidth)}  ${[figure('ELU', generator.elu, fixed2), figure('CPU', generator.cpuPct, cpu)].filter(Boolean).join('  ')}`);
  }
  if (samples.probe && !samples.probe.available && samples.probe.reason) lines.push(samples.probe.reason);
  for (const note of samples.notes ?? []) lines.push(`note: ${note}`);

  const table = workerTable(rows.filter(isWorkerEntry));
  return table ? `${lines.join('\n')}\n\n${table}` : lines.join('\n');
}

/**
 * `prefix` and the parts joined by `separator`, carried on to further lines
 * indented to the first part when a line would pass MAX_COLUMNS.
 * @param {string} prefix
 * @param {string[]} parts
 * @param {string} [separator]
 */
function fitLine(prefix, parts, separator = '  ') {
  const indent = ' '.repeat(prefix.length);
  const lines = [];
  let line = prefix;
  for (const part of parts) {
    const first = line.length === prefix.length;
    if (!first && line.length + separator.length + part.length > MAX_COLUMNS) {
      lines.push(line);
      line = indent + part;
    } else {
      line += (first ? '' : separator) + part;
    }
  }
  lines.push(line);
  return lines.join('\n');
}

/**
 * `  other threads: libuv threadpool 4 of 4 working 180%, V8 platform 1 of 5 working 12%  (busiest 48%)`: the
 * process's threads that are neither its main thread nor a Worker, by kind (src/sample/thread-kinds.js), shown
 * when together they used as much as one working thread (OTHER_THREAD_BUSY_PCT): an idle Node process's V8 and
 * libuv threads use 1–4%. A result from before the kinds keeps the one line it had.
 */
/**
 * @param {ProcessSummary} s
 * @param {number} width
 * @returns {string[]}
 */
function otherThreadsLine(s, width) {
  const o = s.otherThreads;
  if (!o || !(Number(o.cpuPct) >= OTHER_THREAD_BUSY_PCT)) return [];
  const pad = ' '.repeat(width + 2);
  const kinds = Object.entries(o.kinds ?? {}).filter(([, k]) => Number(k.cpuPct) >= 1);
  if (kinds.length === 0) return [`${pad}other threads (libuv pool, V8): ${Math.round(o.busy ?? 0)} of ${o.count} working  CPU ${cpu(o.cpuPct)}  busiest ${cpu(o.maxCpuPct)}`];
  const parts = kinds.map(([kind, k]) => `${KIND_WORDS[kind] ?? kind} ${Math.round(k.busy ?? 0)} of ${k.count} working ${cpu(k.cpuPct)}`);
  return [`${pad}other threads: ${parts.join(', ')}  (busiest ${cpu(o.maxCpuPct)})`];
}

/** Routes shown under a process: its costliest, from the probe (all of them are in --json). */
const ROUTES_SHOWN = 3;

/**
 * '       routes: GET /report 15.2 ms each (71% of busy), POST /convert 5.40 ms each (12%, 1 spawn)', wrapped.
 * @param {{ routes?: { route: string, loopMsPerRequest: number, busyShare: number|null, spawnsPerRequest: number }[]|null }} s
 * @param {number} width
 */
function routesLine(s, width) {
  if (!s.routes?.length) return [];
  const parts = s.routes.slice(0, ROUTES_SHOWN).map((r, i) => {
    const notes = [Number.isFinite(r.busyShare) ? `${pct(r.busyShare)}${i === 0 ? ' of busy' : ''}` : null, r.spawnsPerRequest > 0 ? `${r.spawnsPerRequest.toFixed(r.spawnsPerRequest % 1 ? 2 : 0)} spawn${r.spawnsPerRequest === 1 ? '' : 's'}` : null].filter(Boolean);
    return `${cleanText(r.route, 80)} ${ms(r.loopMsPerRequest)} each${notes.length ? ` (${notes.join(', ')})` : ''}`;
  });
  const more = s.routes.length > ROUTES_SHOWN ? [`${s.routes.length - ROUTES_SHOWN} more`] : [];
  return [fitLine(`${' '.repeat(width + 2)}routes: `, [...parts, ...more], ', ')];
}

/** Said once under the process lines when a thread's busy figure is its CPU time. */
export const BUSY_FROM_CPU_NOTE = 'busy (CPU): the thread\'s time on a CPU or waiting for one, since its ELU counted waiting for work (Atomics.wait) as busy';

/**
 * `ELU 0.97`, `busy 45% (CPU)` (threads), `blocked in spawn 31% (1.3 ms each)`, `loop p99 48 ms`, `CPU 99%`,
 * leaving out what was not measured.
 */
/**
 * @param {ProcessSummary} s
 * @param {string|undefined} role
 * @returns {string[]}
 */
function processFigures(s, role) {
  const parts = [figure('ELU', s.elu, fixed2)];
  if (role === 'thread' && isFiniteNumber(s.busy)) parts.push(`busy ${pct(s.busy)} (${s.busyFrom === 'cpu' ? 'CPU' : 'ELU'})`);
  // A thread's ELU counts its wait for a core; said where that wait is large enough to explain a busy ELU.
  if (role === 'thread' && typeof s.waitPct === 'number' && s.waitPct >= CPU_STARVED_FRACTION * 100) parts.push(`waiting for a core ${Math.round(s.waitPct)}%`);
  if (s.blockedFraction != null && s.msPerSpawn != null) {
    parts.push(`blocked in spawn ${pct(s.blockedFraction)} (${compactMs(s.msPerSpawn, 1)} each)`);
  } else if (s.blockedFraction != null) {
    parts.push(`blocked in spawn ${pct(s.blockedFraction)}`);
  }
  parts.push(figure('loop p99', s.loopDelayP99Ms, compactMs));
  parts.push(figure('CPU', s.cpuPct, cpu));
  return parts.filter((part) => part !== null);
}

/**
 * The per-worker table (requests, ELU, busy where there are threads, CPU), or '' with no workers.
 * @param {ProcessRow[]} rows
 */
function workerTable(rows) {
  if (rows.length === 0) return '';
  const threads = rows.some((p) => p.role === 'thread');
  // A user's server reports no requests per worker; the probe's spawns per second stand in (one per request when it spawns per request).
  const counted = rows.some((p) => Number.isFinite(p.requests));
  const header = ['worker', counted ? 'requests' : 'spawns/s', 'ELU', ...(threads ? ['busy'] : []), 'CPU'];
  /** @param {ProcessSummary} s */
  const busy = (s) => (isFiniteNumber(s.busy) ? `${pct(s.busy)}${s.busyFrom === 'cpu' ? ' CPU' : ''}` : '–');
  /** @param {ProcessRow} p */
  const work = (p) => (counted ? int(p.requests) : int(p.summary.spawnsPerSec));
  const body = rows.map((p) => [p.label, work(p), fixed2(p.summary.elu), ...(threads ? [busy(p.summary)] : []), cpu(p.summary.cpuPct)]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => r[i].length)));
  /** @param {string[]} cells */
  const line = (cells) => cells.map((c, i) => (i === 0 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join('  ');
  return [line(header), ...body.map(line)].join('\n');
}

/**
 * The worker slot a process or thread was an earlier incarnation of (it died and was replaced), or null.
 * @param {import('../base/result-types.js').ProcessSamples} p
 * @param {StrategyWorker[]} workers
 */
function deadIncarnation(p, workers) {
  return workers.find((w) => (w.exits ?? []).some((e) => e.pid === p.pid && (e.threadId ?? null) === (p.threadId ?? null))) ?? null;
}

/**
 * The strategy's own record of a process or thread (its pool id and request count), if it reported one.
 * @param {import('../base/result-types.js').ProcessSamples} p
 * @param {StrategyWorker[]} workers
 */
function workerOf(p, workers) {
  return workers.find((w) => w.pid === p.pid && (w.threadId ?? null) === (p.threadId ?? null)) ?? null;
}

/**
 * @param {string} name
 * @param {number|null|undefined} value
 * @param {(value: number) => string} format
 */
function figure(name, value, format) {
  return !isFiniteNumber(value) ? null : `${name} ${format(value)}`;
}

/** @param {unknown} value */
function fixed2(value) {
  return isFiniteNumber(value) ? value.toFixed(2) : '–';
}

/**
 * CPU % of one core: 99%, 150% (several threads), '–' when not measured.
 * @param {unknown} value
 */
function cpu(value) {
  return isFiniteNumber(value) ? `${Math.round(value)}%` : '–';
}

/**
 * 48 ms, 4.4 ms, 0.2 ms: as many digits as a loop delay deserves.
 * @param {number} value
 */
function compactMs(value, digitsUnderTen = 1) {
  return value >= 10 ? `${Math.round(value)} ms` : `${value.toFixed(digitsUnderTen)} ms`;
}
