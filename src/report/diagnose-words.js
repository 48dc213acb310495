/**
 * The words of a diagnose: each finding's title, evidence and next steps, made
 * from the id and figures a rule in src/analysis/ returned. A verdict's wording
 * changes here and nowhere else; the text summary and the --json output both
 * read what this module fills in.
 */
import { FASTER_SPAWN_SENTENCE } from './runtimes-text.js';
import { pct, ms, int } from './text-format.js';
import { budgetAmount, THREAD_KIND_WORDS } from '../base/labels.js';
import { downstreamName, errorLabel, quote, spinningText, SPINNING_NEXT, TOO_LARGE } from './reasons.js';
import { cleanText } from '../base/untrusted-text.js';
import { formatDuration } from '../base/units.js';
import { spawnFailureText, LIMIT_FIX } from './spawn-failures-text.js';
import { littleLawText } from './tune-words.js';
import { noResponseReason } from '../load/host-check.js';
import {
  SPAWN_BLOCKED_FRACTION, GC_FRACTION, GC_PEAK_MS_PER_SEC, LOOP_DELAY_P50_MS, LOOP_DELAY_P99_MS, LOOP_DELAY_MAX_MS,
  BUSY_FRACTION, SLOW_P99_MS, SLOW_P50_MS, LONG_TAIL_RATIO, IDLE_ELU_MAX, IDLE_BUSY_MAX, ERROR_RATE, GENERATOR_BUSY_ELU,
  CPU_STARVED_FRACTION, CPU_STARVED_VERDICT_FRACTION, QUOTA_THROTTLED_FRACTION, SHORT_REQUEST_MS,
} from '../base/thresholds.js';

/**
 * A verdict's figures: free-form per verdict, each rule in src/analysis/ names its own
 * (Finding.figures), and a result file from an older version may lack some.
 * @typedef {Record<string, any>} Figures
 */

/** @typedef {import('../base/result-types.js').DiagnoseFinding} DiagnoseFinding */

/**
 * Whether an optional line is there (a line is never empty): Boolean, as a type guard.
 * @param {string|null} line
 * @returns {line is string}
 */
const said = (line) => Boolean(line);

/**
 * A verdict's words, made from its figures (and the finding, for its kind and where).
 * @typedef {(f: Figures, finding: DiagnoseFinding) => { title: string, evidence: string[], next: string[] }} Say
 */

/**
 * How busy a process looked from outside: run-queue shares when /proc/<pid>/schedstat was read, else CPU.
 * @param {Figures} f
 */
function outsideText(f) {
  return f.busyFrom === 'schedstat'
    ? `main thread runnable ${pct(f.runnable)} of the time: on a CPU ${pct(f.onCpu)}, waiting for one ${pct(f.waitingForCpu)}`
    : `CPU ${Math.round(f.cpuPct)}% of a core`;
}

/**
 * "p99 is 8× p50: …" when the latency has a long tail, else null.
 * @param {{ p50Ms?: number|null, p99Ms?: number|null }} latency
 * @returns {string|null}
 */
export function tailShape({ p50Ms, p99Ms }) {
  if (typeof p50Ms !== 'number' || !(Number.isFinite(p50Ms) && p50Ms > 0) || typeof p99Ms !== 'number' || !Number.isFinite(p99Ms)) return null;
  const ratio = p99Ms / p50Ms;
  if (ratio < LONG_TAIL_RATIO) return null;
  return `p99 is ${Math.round(ratio)}× p50 (from ${LONG_TAIL_RATIO}×): a long tail, some requests wait behind stalls`;
}

const slowLatency = (/** @type {Figures} */ f) =>
  `latency p50 ${ms(f.p50Ms)}, p99 ${ms(f.p99Ms)} (threshold p99 ≥ ${ms(SLOW_P99_MS)} or p50 ≥ ${ms(SLOW_P50_MS)})`;

/** " (per-interval median 145 ms)" when it says more than the run-wide p50. */
/** Routes named in a verdict's evidence, the costliest first. */
const ROUTES_LISTED = 3;

/**
 * A route's name as the probe saw it in a request line: the server's text, so cleaned.
 * @param {string} route
 */
function routeText(route) {
  return cleanText(route, 120);
}

/**
 * 'GET /report takes 15 ms of the main thread per request, 71% of its busy time'
 * @param {{ route: string, loopMsPerRequest: number, busyShare?: number|null }} route
 */
export function heaviestRouteText(route) {
  const share = Number.isFinite(route.busyShare) ? `, ${pct(route.busyShare)} of its busy time` : '';
  return `${routeText(route.route)} takes ${ms(route.loopMsPerRequest)} of the main thread per request${share}`;
}

/**
 * js-blocking when every route is short (verdict-js.js shortRequests): the loop is late from the many requests queued
 * in each of its turns, so there is no long synchronous work to move; more processes share the queue.
 * @param {Figures} f
 */
function shortRequestsWords(f) {
  return {
    title: `the event loop is saturated by many short requests, not blocked by a long one${f.route ? `: ${heaviestRouteText(f.route)}` : ''}`,
    evidence: [
      `event-loop delay p50 ${ms(f.loopDelayP50Ms)}${typical(f)}, p99 ${ms(f.loopDelayP99Ms)}, max ${ms(f.loopDelayMaxMs)} ` +
        `(thresholds: p50 ≥ ${ms(LOOP_DELAY_P50_MS)}, p99 ≥ ${ms(LOOP_DELAY_P99_MS)} or max ≥ ${ms(LOOP_DELAY_MAX_MS)})`,
      `loop busy ${pct(f.elu)} (ELU), of which JavaScript ${pct(f.jsShare)} (not spawn, not GC)` +
        `${Number.isFinite(f.cpuPct) ? `, CPU ${Math.round(f.cpuPct)}% of a core` : ''}`,
      `every route takes under ${ms(SHORT_REQUEST_MS)} of the main thread per request: the delay is the requests waiting their turn on the one thread, and more connections lengthen it`,
    ],
    next: [
      'run more processes of it, each with its own event loop, where the cores have room: spawnbench tune --processes 1,2 -- <command> measures it (node:cluster, as pm2 start <script> -i N)',
      'or make every request cheaper (there is no one long callback to move): spawnbench diagnose --cpu-prof -- <command> shows where their time goes',
    ],
  };
}

/**
 * '; POST /convert spawns' or '; POST /convert and PUT /files/:id spawn' (none: '').
 * @param {Array<{ route: string }>|null|undefined} routes
 */
function spawningRoutesText(routes) {
  if (!routes?.length) return '';
  const names = routes.slice(0, ROUTES_LISTED).map((r) => routeText(r.route));
  const more = routes.length > ROUTES_LISTED ? ` and ${routes.length - ROUTES_LISTED} more` : '';
  const list = names.length > 1 && !more ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : `${names.join(', ')}${more}`;
  return `; ${list} ${routes.length > 1 ? 'spawn' : 'spawns'}`;
}

/**
 * '1 spawn', '0.5 spawns'
 * @param {number} n
 */
function spawnsText(n) {
  const shown = Number.isInteger(n) ? String(n) : n.toFixed(2);
  return `${shown} ${n === 1 ? 'spawn' : 'spawns'}`;
}

/** @param {Figures} f */
function typical(f) {
  const t = f.loopDelayTypicalMs;
  return Number.isFinite(t) && t >= LOOP_DELAY_P50_MS && t > (f.loopDelayP50Ms ?? 0) ? ` (per-interval median ${ms(t)})` : '';
}

/**
 * "at least 1,000 req/s (…)" and the other ways the healthy verdict states capacity.
 * @param {Figures} f
 */
function capacityText(f) {
  switch (f.capacityFrom) {
    case 'generator-limited': return `at least ${int(f.rps)} req/s (the load generator was the limit)`;
    case 'cpu-starved': return `at least ${int(f.rps)} req/s (the server often waited for a CPU)`;
    case 'crowded':
      return `at least ${int(f.rps)} req/s: other programs held ${cores(f.otherCores)} of the ${f.cores} cores, the server ${cores(f.serverCores)}; ` +
        'how much of theirs it would take under more load is not known here (diagnose on a quieter machine for its own limit)';
    case 'saturated': return `about ${int(f.rps)} req/s: ${limitWords(f)} was the limit (${usedText(f)})`;
    case 'extrapolated':
      return `roughly ${int(f.capacityRps)} req/s if work grows linearly with load, where ${limitWords(f)} runs out first ` +
        `(${int(f.rps)} req/s used ${usedText(f)})`;
    case 'light-load':
      return `not known from so light a load: ${int(f.rps)} req/s used ${usedText(f)}; at light load each request also pays for waking the server, ` +
        `so a straight line from here (${int(f.linearRps)} req/s) can fall far short; diagnose again with more load (a higher --rate, or more connections with -c) to find it`;
    default: return `at least ${int(f.rps)} req/s`;
  }
}

/**
 * What bounds a capacity estimate (src/analysis/pool-capacity.js `limit`).
 * @type {Record<string, string>}
 */
const LIMIT_WORDS = { main: 'the main thread', pool: 'the pool', cpu: 'the CPU budget' };

/**
 * The limit of a capacity estimate in words: the server's CPU quota where it bounds the CPU.
 * @param {Figures} f
 */
function limitWords(f) {
  if (f.capacityLimit === 'cpu' && Number.isFinite(f.quotaCpus)) return `its ${f.quotaCpus.toFixed(1)}-CPU quota`;
  return LIMIT_WORDS[f.capacityLimit] ?? 'the busiest thread';
}

/**
 * "main thread 25%, 2 threads 45% busy, 1.2 of 2 cores (other programs 0.4)": what the capacity was scaled from.
 * @param {Figures} f
 */
function usedText(f) {
  const parts = [];
  if (Number.isFinite(f.mainBusy)) parts.push(`main thread ${pct(f.mainBusy)}`);
  if (f.workers > 0 && Number.isFinite(f.workersBusy)) parts.push(`${workersText(f)} ${pct(f.workersBusy)} busy`);
  if (Number.isFinite(f.serverCores) && Number.isFinite(f.cores)) {
    parts.push(Number.isFinite(f.quotaCpus) ? `${cores(f.serverCores)} of its ${f.quotaCpus.toFixed(1)}-CPU quota`
      : `${cores(f.serverCores)} of ${f.cores} cores${Number.isFinite(f.otherCores) ? ` (other programs ${cores(f.otherCores)})` : ''}`);
  }
  return parts.join(', ') || pct(f.busiest);
}

/**
 * "2 threads", "1 worker process", "3 workers".
 * @param {Figures} f
 */
function workersText(f) {
  const noun = f.workerKind === 'thread' ? 'thread' : f.workerKind === 'process' ? 'worker process' : 'worker';
  return `${f.workers} ${noun}${f.workers === 1 ? '' : noun === 'worker process' ? 'es' : 's'}`;
}

/**
 * A number of cores, one decimal.
 * @param {number} n
 */
function cores(n) {
  return n.toFixed(1);
}

/**
 * "its busy figure is CPU time: ELU counts a thread waiting for work (Atomics.wait) as busy", when it is.
 * @param {Figures} f
 */
function busyFromText(f) {
  if (f.busyFrom === 'cpu') return ' (CPU time: their ELU counted waiting for work as busy)';
  if (f.busyFrom === 'mixed') return ' (ELU, or CPU time where ELU counted waiting for work as busy)';
  return ' (ELU)';
}

/**
 * "libuv threadpool 1.8, V8 platform (GC, compiler) 0.1": the cores each kind of thread used, busiest first.
 * @param {Record<string, number>|null|undefined} byKind
 */
function kindCores(byKind) {
  return Object.entries(byKind ?? {})
    .filter(([, n]) => n >= 0.05)
    .sort((a, b) => b[1] - a[1])
    .map(([kind, n]) => `${/** @type {Record<string, string>} */ (THREAD_KIND_WORDS)[kind] ?? kind} ${cores(n)}`)
    .join(', ');
}

/**
 * "4 libuv threadpool threads (UV_THREADPOOL_SIZE 4), 4 of them working": the pool as seen.
 * @param {Figures} f
 * @returns {string|null}
 */
function poolText(f) {
  if (!(f.poolThreads > 0)) return null;
  return `${f.poolThreads} libuv threadpool thread${f.poolThreads === 1 ? '' : 's'} (UV_THREADPOOL_SIZE ${f.poolSize ?? f.poolThreads}), ` +
    `${Math.round(f.poolBusy ?? 0)} working, ${cores(f.poolCores ?? 0)} cores`;
}

/**
 * What a downstream wait rests on: its connections, or the server's threads off-CPU.
 * @param {Figures} f
 * @returns {string|null}
 */
function waitText(f) {
  if (f.waitFrom === 'downstreams') return `the server held ${int(f.downstreamConnections)} outbound connection${f.downstreamConnections === 1 ? '' : 's'}`;
  if (f.waitFrom === 'threads-off-cpu') return `its threads outside the loop (libuv threadpool, V8) were on a CPU or waiting for one ${(f.threadsCores ?? 0).toFixed(2)} cores' worth (threshold < ${f.threadsThreshold}): the time goes waiting, not working`;
  if (f.waitFrom === 'process-off-cpu') return `the whole process used ${cores(f.processCores ?? 0)} cores: the time goes waiting, not working`;
  return null;
}

/**
 * id → (figures, finding) → { title, evidence, next }
 * @type {Record<string, Say>}
 */
const WORDS = {
  'threads-cores-full': (f) => ({
    title: `the cores are full and the server's work runs on threads outside its event loop: ${kindCores(f.byKind)} of ${f.cores ?? '?'} cores` +
      `${f.otherCores >= 0.1 ? `, other programs ${cores(f.otherCores)}` : ''}`,
    evidence: [
      `${pct(f.share)} of the server's CPU ran outside its event loop (threshold ${pct(f.threshold)}): ${kindCores(f.byKind)} cores`,
      `cores ${pct((f.coresBusyPct ?? 0) / 100)} busy (threshold ${pct(f.coresThreshold / 100)}): the server used ${cores(f.serverCores)} of ${f.cores ?? '?'}` +
        `${f.otherCores >= 0.1 ? `, other programs (the load generator included) ${cores(f.otherCores)}` : ''}`,
      ...[poolText(f)].filter(said),
      'the event loop is idle because its work waits for these threads, not for I/O',
    ],
    // Other programs held more of the full cores than the server: more threads would win a larger share from them
    // (wrk by hand beside 1.1 cores of others: pbkdf2 195–308 req/s at UV_THREADPOOL_SIZE=4, 264–351 at 8).
    next: f.otherCores > f.serverCores
      ? [
        'other programs held more of the cores than the server: more threads would win a larger share of them, which one diagnose cannot price; diagnose on a quieter machine for the server\'s own limit',
        `or measure the thread count where it runs: spawnbench tune --size-env ${(f.byKind?.libvips ?? 0) > (f.byKind?.threadpool ?? 0) ? 'VIPS_CONCURRENCY' : 'UV_THREADPOOL_SIZE'} --sizes 2,4,8 -- <command>`,
      ]
      : [
        'more threads will not help: a larger UV_THREADPOOL_SIZE or more processes share the same cores',
        'more cores will; or cheaper work per request (a lower bcrypt cost, smaller images); or fewer connections (a shorter queue, lower latency)',
      ],
  }),
  'threadpool-full': (f) => ({
    title: `libuv's threadpool is full: ${f.poolThreads} of ${f.poolThreads} threads busy while ${cores(f.idleCores ?? 0)} cores are idle`,
    evidence: [
      `${poolText(f)}, each runnable ${pct(f.poolRunnable ?? 0)} of the time (threshold ${pct(f.busyThreshold)})`,
      ...(Number.isFinite(f.inFlight) ? [`${int(f.inFlight)} requests in flight for ${f.poolThreads} thread${f.poolThreads === 1 ? '' : 's'}: the rest queue for the pool`] : []),
      `cores ${pct((f.coresBusyPct ?? 0) / 100)} busy (threshold ${pct(f.coresThreshold / 100)}): there is room for more threads`,
    ],
    next: [
      `raise UV_THREADPOOL_SIZE to ${f.trySize} (libuv reads it once, when the pool starts: set it in the server's environment at start)`,
      `confirm: spawnbench tune --size-env UV_THREADPOOL_SIZE --sizes ${[...new Set([f.poolSize ?? f.poolThreads, f.trySize, f.trySize + 1])].join(',')} -- <command>`,
    ],
  }),
  'server-exited': (f) => ({
    title: `the server ${f.signal ? `was killed by ${f.signal}` : `exited with code ${f.code}`} during the run`,
    evidence: [f.stderrLastLine ? `its stderr ${f.stderrErrorLine && f.stderrErrorLine !== f.stderrLastLine ? `said: ${f.stderrErrorLine}` : `ends: ${f.stderrLastLine}`}` : 'it wrote nothing to stderr', 'the figures cover the time until then'],
    next: [
      f.signal === 'SIGKILL'
        ? 'a SIGKILL under load is often the out-of-memory killer: check dmesg and the server\'s memory (RSS above)'
        : 'read its full output (--log-file) and fix the crash before diagnosing its speed',
    ],
  }),
  'generator-stopped': (f) => ({
    title: `spawnbench itself did not run for ${(f.stoppedMs / 1000).toFixed(1)} s ${f.inWarmup ? 'in the warm-up' : 'while measuring'}: the figures are not the server's`,
    evidence: [
      'a stop of spawnbench: Ctrl-Z or SIGSTOP, a suspended machine, a debugger',
      f.inWarmup ? 'its open loop sent the requests due then late, into the measured time, each timed from when it was due' : 'no request was sent then: the throughput is averaged over the gap, and the requests in flight waited it out',
    ],
    next: ['diagnose again without stopping it'],
  }),
  paused: (f) => (f.atStart ? {
    title: `the server answered nothing in the first ${f.seconds === 1 ? 'second' : `${int(f.seconds)} seconds`} of the ${int(f.measuredSeconds)} measured, where its other seconds answered ~${int(f.medianRps)} each`,
    evidence: [
      'it was still getting ready when the warm-up ended: a first connection to a database, a cache filled, code compiled on first use',
      'its figures hold that wait: the throughput is averaged over it, and the warm-up\'s requests answered late are in no figure',
    ],
    next: ['diagnose again with a longer --warmup (-w), past the time it takes to get ready'],
  } : {
    title: `the server answered nothing for ${f.seconds === 1 ? '1 second' : `${int(f.seconds)} seconds`} of the ${int(f.measuredSeconds)} measured (${f.from === f.to ? `second ${f.from}` : `seconds ${f.from}–${f.to}`}), where its other seconds answered ~${int(f.medianRps)} each`,
    evidence: [
      'a pause: a stopped process (kill -STOP, Ctrl-Z), a debugger at a breakpoint, a VM or container paused, or a GC of seconds',
      'its figures hold the pause: the throughput is averaged over it, and a stopped thread\'s time reads as busy',
    ],
    next: ['find what stopped it (a debugger attached, a frozen process, the host; node --trace-gc for a long GC), then diagnose again'],
  }),
  'stopped-answering': (f) => ({
    title: `the server stopped answering: ${f.count} ${f.count === 1 ? 'request was' : 'requests were'} still unanswered when the run ended`,
    evidence: [
      `the oldest had waited ${(f.oldestMs / 1000).toFixed(1)} s, far longer than any answered request (${ms(f.answeredMaxMs)}${f.inWarmup ? ', in the warm-up: none was answered while measured' : ''})`,
      'the figures leave the unanswered requests out: the latency and throughput above are of the time before',
      ...(f.spinning ? [spinningText(f.spinning)] : []),
    ],
    next: [f.spinning ? SPINNING_NEXT : 'find what held it: a stopped process, a lock, a downstream that never answers (--timeout shorter than the run counts each as a timeout)'],
  }),
  'worker-died': (f) => {
    const d = f.first;
    const how = d?.signal ?? (typeof d?.code === 'number' ? `exit code ${d.code}` : 'gone');
    const at = typeof d?.atMs === 'number' && Number.isFinite(d.atMs) ? ` at ${(Math.max(0, d.atMs) / 1000).toFixed(1)} s` : '';
    return {
      title: `${f.deaths === 1 ? 'a worker process died' : `${int(f.deaths)} worker processes died`} while measured`,
      evidence: [
        `the first: pid ${d?.pid ?? '?'} (${how}${at}); ${f.replaced === f.deaths ? 'each was replaced by a new process' : `${int(f.replaced)} of ${int(f.deaths)} replaced`}`,
        f.stderrLine ? `its stderr says: ${cleanText(f.stderrLine)}` : 'nothing on stderr says why',
        f.errors > 0
          ? `${int(f.errors)} ${f.errors === 1 ? 'request' : 'requests'} failed: the requests a dying worker holds fail, and its replacement starts cold`
          : 'no measured request failed with it; under more load the requests a dying worker holds fail, and its replacement starts cold',
      ],
      next: ['read its full output (--log-file) and fix what ends the workers before diagnosing their speed'],
    };
  },
  'pool-saturated': (f) => ({
    title: f.coresFull
      ? `the pool is at capacity: ${workersText(f)} ${pct(f.workersBusy)} busy, ${f.cores ?? '?'} cores ${pct((f.coresBusyPct ?? 0) / 100)}`
      : `the pool is the limit: ${workersText(f)} ${pct(f.workersBusy)} busy, the cores ${pct((f.coresBusyPct ?? 0) / 100)}`,
    evidence: [
      `workers busy ${pct(f.workersBusy)} on average, the busiest ${pct(f.workersBusyMax)}${busyFromText(f)} (threshold ${pct(f.threshold)})`,
      `cores ${pct((f.coresBusyPct ?? 0) / 100)} busy: the server used ${Number.isFinite(f.serverCores) ? cores(f.serverCores) : '?'} of ${f.cores ?? '?'}` +
        `${Number.isFinite(f.otherCores) ? `, other programs (the load generator included) ${cores(f.otherCores)}` : ''}`,
      ...(Number.isFinite(f.mainBusy) ? [`the main thread that hands out the work is busy ${pct(f.mainBusy)}`] : []),
      ...(Number.isFinite(f.capacityRps) ? [`capacity: about ${int(f.capacityRps)} req/s (${int(f.rps)} served)`] : []),
    ],
    next: f.coresFull
      ? [
          `more ${f.workerKind === 'process' ? 'processes' : f.workerKind === 'thread' ? 'threads' : 'workers'} will not help here: the cores are full; fewer connections (a shorter queue, lower latency) or more cores will`,
          'make each request cheaper: profile the task (spawnbench diagnose --cpu-prof -- <command>)',
        ]
      : ['a larger pool will help, up to the cores: sweep it with spawnbench tune --size-env <its variable> -- <command>'],
  }),
  'handoff-limited': (f) => ({
    title: `the main thread's hand-off is the limit: it is busy ${pct(f.mainBusy)} while ${workersText(f)} have room`,
    evidence: [
      `main thread busy ${pct(f.mainBusy)} (threshold ${pct(f.threshold)})`,
      `workers busy ${pct(f.workersBusy)} on average${busyFromText(f)}: they wait for work the main thread cannot hand out faster`,
      ...(Number.isFinite(f.capacityRps) ? [`capacity: about ${int(f.capacityRps)} req/s (${int(f.rps)} served)`] : []),
    ],
    next: [
      'more threads will not help: hand off less per request (transfer buffers instead of copying them, batch small tasks) or do less on the main thread',
      'or run more processes, each with its own main thread (node:cluster), if the cores have room',
    ],
  }),
  'cpu-starved': (f, finding) => {
    /** @type {Array<{ name: string, count: number, cores: number, competes?: boolean, downstream?: string }>} */
    const takers = f.takenBy ?? [];
    // Measured host-wide: under a budget narrower than the host (affinity, a cpuset) they are the host's, not "of the 1 CPUs".
    const of = f.hostCpus > f.cores ? ` of the host's ${f.hostCpus} CPUs` : f.cores ? ` of the ${f.cores} CPUs` : '';
    const others = takers.map((u) => `${cleanText(u.name, 40)} ×${int(u.count)} used ${u.cores.toFixed(1)}`);
    // The server's own threads took the cores (verdict-starved.js ownThreads): a quieter machine would change little.
    if (Number.isFinite(f.ownThreadsCores)) {
      return {
        title: 'the server\'s own threads took the cores from its event loop: its main thread waited for a core',
        evidence: [
          `main thread waited for a CPU ${pct(f.waitingForCpu)} of the time (threshold ${pct(CPU_STARVED_FRACTION)}), on a CPU ${pct(f.onCpu)}`,
          `the server's threads and processes beside its main thread used ${f.ownThreadsCores.toFixed(1)}${of}, other programs (the load generator included) ${f.othersCores.toFixed(1)}${others.length ? `: ${others.join(', ')}` : ''}`,
          finding.kind === 'problem'
            ? `from ${pct(CPU_STARVED_VERDICT_FRACTION)} waiting, loop delays and latency are mostly that wait`
            : 'loop delays and latency include that wait',
        ],
        next: ['a quieter machine would change little: fewer threads beside the event loop (UV_THREADPOOL_SIZE, a smaller worker pool) leave it a core, or more cores serve both'],
      };
    }
    const named = takers.map((u) => `${cleanText(u.name, 40)} ×${int(u.count)} used ${u.cores.toFixed(1)}${of}`);
    const own = takers.find((u) => u.competes);
    return {
      // The other user before the verdict's "(pid N)", which is the server's: "node took 0.2 … (pid N)" read as if that pid were node's.
      title: `the machine is short of CPU${takers.length ? ` (${cleanText(takers[0].name, 40)} took ${takers[0].cores.toFixed(1)}${of})` : ''}: the server waited for a core`,
      evidence: [
        `main thread waited for a CPU ${pct(f.waitingForCpu)} of the time (threshold ${pct(CPU_STARVED_FRACTION)}), on a CPU ${pct(f.onCpu)}`,
        ...(named.length ? [`other CPU users: ${named.join(', ')}`] : []),
        ...(own ? [`${cleanText(own.name, 40)} is the server's own downstream (${cleanText(own.downstream, 80)}): the server and its database compete for the same CPUs`] : []),
        finding.kind === 'problem'
          ? `from ${pct(CPU_STARVED_VERDICT_FRACTION)} waiting, every time-based figure is mostly the machine's: the other findings are unreliable`
          : 'loop delays and latency include that wait',
      ],
      next: own
        ? [
            `move one of them: put ${cleanText(own.name, 40)} on other cores (taskset, a cgroup cpuset) or another machine, or size the server's pool for the CPUs ${cleanText(own.name, 40)} leaves (fewer workers)`,
            'then diagnose again: the waits above are the competition between the two',
          ]
        : ['diagnose on a quieter machine, or drive the server from another one (spawnbench diagnose --url … --pid …)'],
    };
  },
  'target-refuses': (f) => {
    const port = f.port != null ? `port ${f.port}` : 'its port';
    const restarts = f.restarts > 0 ? `the server restarted ${int(f.restarts)} time${f.restarts === 1 ? '' : 's'}: pid ${f.pids.join(' → ')}` : null;
    return {
      title: `the server refuses connections: ${pct(f.errorRate)} of requests failed with ${quote(f.text)}${restarts ? `; ${restarts}` : ''}`,
      evidence: [
        `${int(f.errors)} failed of ${int(f.attempts)} (${f.belowThreshold ? 'below the ' : ''}threshold ${pct(ERROR_RATE)}${f.belowThreshold ? ', named for the restart' : ''}); spawnbench's own connects to ${port} were refused ×${int(f.refused)}: nothing listened there at those moments`,
        restarts
          ? 'each pid replaced the one before it (its launcher ended it and started another, as nodemon does): a restart, not a second worker; between two, nothing listens'
          : f.none
            ? `no request got a response: nothing listened on ${port} the whole run`
            : f.mode === 'url'
              ? `the server at ${port} was not running, or not listening, for part of the run`
            : 'no restart was seen in its process tree: the process that listens closed its socket, or stopped accepting',
      ],
      next: restarts
        ? [
            'measure the server without what restarts it: run it as node app.js, not under nodemon or another file watcher, or keep the watcher from seeing changes during the run',
            'if it restarts because it crashes, its stderr (above, or --log-file) says why',
          ]
        : f.mode === 'url'
          ? [`check that the server runs and listens on ${port} (the address given to --url), then diagnose again`]
          : ['look at the server\'s log for why it stopped listening: a crash its launcher recovered from, a server.close(), a backlog that overflowed'],
    };
  },
  'downstream-refuses': (f) => {
    const who = f.downstream ? downstreamName(f.downstream) : 'a downstream';
    return {
      title: `the downstream refuses: ${pct(f.errorRate)} of requests failed with ${quote(f.text)}`,
      evidence: [
        `${int(f.errors)} failed of ${int(f.attempts)} (threshold ${pct(ERROR_RATE)}); ${errorLabel({ status: f.status, kind: f.kind })} ×${int(f.count)}, ${f.source === 'body' ? 'the response said' : 'the server\'s stderr said'} ${quote(f.text)}`,
        f.downstream
          ? `the server held ${int(f.downstream.connections)} connection${f.downstream.connections === 1 ? '' : 's'} to ${who} at once`
          : 'no downstream connection of the server was seen (a Unix socket where iproute2\'s ss is missing, or another network namespace)',
      ],
      next: [
        `the server opens more connections than ${who} accepts: size the pools so that workers × pool size stays below its connection limit (PostgreSQL: max_connections), or put a connection pooler (PgBouncer) in between`,
        'spawnbench tune -- <your command> with its worker count: the size where the errors start is in its table',
      ],
    };
  },
  'spawn-blocked': (f) => ({
    title: `the event loop is blocked inside spawn ${pct(f.blockedFraction)} of the time${spawningRoutesText(f.routes)}`,
    evidence: [
      `blocked in spawn ${pct(f.blockedFraction, 1)} of wall time (threshold ${pct(SPAWN_BLOCKED_FRACTION)})`,
      `${int(f.spawnsPerSec)} spawns/s, ${ms(f.msPerSpawn)} frozen per spawn (fork copies the page tables of the whole process)`,
      ...(f.routes ?? []).slice(0, ROUTES_LISTED).map((/** @type {{ route: string, spawnsPerRequest: number, blockedMsPerRequest: number }} */ r) => `${routeText(r.route)}: ${spawnsText(r.spawnsPerRequest)} per request, blocked ${ms(r.blockedMsPerRequest)} per request`),
    ],
    next: [
      'move spawns off the main thread into small forked worker processes (the smaller the process that forks, the cheaper each fork)',
      // Without --workload-cmd the strategies run `echo`, not what the server spawns: "on your workload" measured echo.
      'compare strategies on the command it spawns: spawnbench tune --strategy fork-pool --workload-cmd "<the command it spawns>"',
      ...(f.spawnMechanism === 'fork' ? [FASTER_SPAWN_SENTENCE] : []),
    ],
  }),
  'gc-pressure': (f) => ({
    title: 'garbage-collection pauses stall the event loop',
    evidence: [
      `GC pauses ${pct(f.gcFraction, 1)} of wall time (threshold ${pct(GC_FRACTION)})`,
      `up to ${ms(f.gcPeakMsPerSec)} of GC in one second (threshold ${ms(GC_PEAK_MS_PER_SEC)})`,
    ],
    next: [
      'allocate less per request: reuse buffers and objects, avoid building large strings or arrays per request',
      'see which functions allocate: node --heap-prof, or spawnbench diagnose --cpu-prof and look for (garbage collector)',
    ],
  }),
  'js-blocking': (f) => (f.shortRequests ? shortRequestsWords(f) : {
    title: `the event loop is blocked by JavaScript${f.route ? `: ${heaviestRouteText(f.route)}` : ''}`,
    evidence: [
      `event-loop delay p50 ${ms(f.loopDelayP50Ms)}${typical(f)}, p99 ${ms(f.loopDelayP99Ms)}, max ${ms(f.loopDelayMaxMs)} ` +
        `(thresholds: p50 ≥ ${ms(LOOP_DELAY_P50_MS)}, p99 ≥ ${ms(LOOP_DELAY_P99_MS)} or max ≥ ${ms(LOOP_DELAY_MAX_MS)})`,
      `loop busy ${pct(f.elu)} (ELU), of which JavaScript ${pct(f.jsShare)} (not spawn, not GC)` +
        `${Number.isFinite(f.cpuPct) ? `, CPU ${Math.round(f.cpuPct)}% of a core` : ''}`,
    ],
    next: [
      'profile it: spawnbench diagnose --cpu-prof -- <command>, then fix the function with the most self time',
      'move long synchronous work (parsing, hashing, big loops) to a worker thread or split it with setImmediate',
      'or run more processes of it, each with its own event loop, where the cores have room: spawnbench tune --processes 1,2 -- <command> measures it (node:cluster, as pm2 start <script> -i N)',
    ],
  }),
  'cpu-bound': (f) => ({
    title: 'the server is CPU-bound, seen from outside',
    evidence: [
      `${outsideText(f)} (threshold ${pct(BUSY_FRACTION)})`,
      slowLatency(f),
      ...[tailShape(f)].filter(said),
      'without the probe spawnbench cannot tell JavaScript from time blocked in spawn or GC',
    ],
    next: [
      'run the server under spawnbench to see inside it: spawnbench diagnose -- <the command that starts it>',
      'or profile it: spawnbench diagnose --cpu-prof -- <command>',
    ],
  }),
  'downstream-wait': (f) => ({
    title: f.endpoint
      ? `requests to ${cleanText(f.endpoint.name)} wait on I/O, a downstream or a timer, not on this process`
      : 'requests wait on I/O or a downstream, not on this process',
    evidence: [
      f.endpoint
        ? `${cleanText(f.endpoint.name)} (${pct(f.endpoint.share)} of the requests): p50 ${ms(f.endpoint.p50Ms)}, p99 ${ms(f.endpoint.p99Ms)} (threshold p50 ≥ ${ms(SLOW_P50_MS)}), where the whole mix's p50 is ${ms(f.p50Ms)}`
        : `latency p50 ${ms(f.p50Ms)}, p99 ${ms(f.p99Ms)} (threshold p50 ≥ ${ms(SLOW_P50_MS)})`,
      f.busyFrom === 'elu'
        ? `while the loop is busy only ${pct(f.elu)} of the time (ELU, threshold ≤ ${pct(IDLE_ELU_MAX)})`
        : `while ${outsideText(f)} (threshold ≤ ${pct(IDLE_BUSY_MAX)})`,
      ...[waitText(f)].filter(said),
    ],
    next: [
      `time the calls ${f.endpoint ? `${cleanText(f.endpoint.name)} waits on (database, HTTP, file system, a timer)` : 'each request waits on (database, HTTP, file system)'} and check their pools and timeouts`,
      'more concurrency helps only if the downstream has room: raise its pool size, cache, or batch the calls',
    ],
  }),
  'slow-unexplained': (f) => ({
    title: 'responses are slow, and the cause cannot be seen from outside',
    evidence: [slowLatency(f), ...[tailShape(f)].filter(said)],
    next: [
      'pass the server\'s process id with --pid to see whether it is busy (CPU-bound) or waiting (I/O, downstream)',
      'or run it under spawnbench: spawnbench diagnose -- <the command that starts it>',
    ],
  }),
  'no-responses': (f) => {
    // Stopped (Ctrl-C, a signal) before any request failed or was answered: nothing was measured, and the planned
    // duration is not what was too short.
    if (f.stoppedEarly && !(f.errors > 0)) {
      return {
        title: 'nothing was measured: the diagnose was stopped early',
        evidence: [`it was stopped (Ctrl-C or a signal) before a response of the measured phase${f.plannedMs ? ` (${formatDuration(f.plannedMs)} planned)` : ''} arrived`],
        next: ['run it again and let it finish (-w sets the warm-up, -d the measured time)'],
      };
    }
    // The step follows the errors (a result from before errorKinds: the old advice, the only one it can give).
    const reason = f.errorKinds ? noResponseReason({ errors: f.errorKinds, bytes: f.bytes, unanswered: { begun: f.begun ?? 0 }, speaksTls: f.speaksTls === true, errorTexts: f.parseTexts ?? [], spinning: f.spinning ?? null }, { durationMs: f.plannedMs, timeoutMs: f.timeoutMs }) : null;
    return {
      title: 'no request completed',
      evidence: [reason?.what ?? `0 responses during the measured time${f.errors ? ` (${int(f.errors)} failed requests)` : ''}`],
      next: [reason?.hint ?? 'check the path and method (--path, --method) and that the server answers them: curl -v the URL'],
    };
  },
  errors: (f) => {
    const statuses = Object.entries(f.failedStatuses ?? {}).map(([status, n]) => `${status} ×${int(n)}`);
    return {
      title: `${pct(f.errorRate)} of requests failed`,
      evidence: [
        `${int(f.errors)} failed of ${int(f.attempts)} (threshold ${pct(ERROR_RATE)})${statuses.length ? `: ${statuses.join(', ')}` : ''}`,
        ...(f.top?.text ? [`most frequent: ${errorLabel(f.top)} ×${int(f.top.count)} ${quote(f.top.text)}`] : []),
        ...(f.top?.stderr ? [`the server's stderr said ${quote(f.top.stderr.text)} ×${int(f.top.stderr.count)}`] : []),
        ...(f.spawnFailure ? [`its commands could not start: ${spawnFailureText(f.spawnFailure)}`] : []),
        ...(f.filesLimit ? [`the server's open-files limit is ${int(f.filesLimit.openFiles)} (ulimit -n), too few for ${int(f.filesLimit.connections)} connections: it closes the connections it cannot hold`] : []),
        ...(!f.filesLimit && f.turnedAway ? [`it closed new connections unanswered while it answered on others: it holds fewer connections at once than ${Number.isFinite(f.turnedAway.connections) ? `the ${int(f.turnedAway.connections)} it was sent` : 'it was sent'}`] : []),
      ],
      next: f.spawnFailure?.limit
        ? [`${LIMIT_FIX[f.spawnFailure.limit]}, or start fewer commands at once (a pool of workers)`]
        : f.filesLimit
          ? [`raise the server's open-files limit where it starts (ulimit -n ${int(f.filesLimit.needed)} or more), or use fewer --connections`]
          : f.turnedAway
            ? ['use fewer --connections, or raise the limit that closes the others (server.maxConnections, a proxy\'s or a platform\'s limit)']
          : Object.keys(f.failedStatuses ?? {}).length > 0 && Object.keys(f.failedStatuses).every((s) => /^3\d\d$/.test(s))
            ? ['they are redirects, which spawnbench does not follow: give --path the page they lead to (curl -sI the URL shows its Location)']
            : Object.keys(f.failedStatuses ?? {}).length > 0 && Object.keys(f.failedStatuses).every((s) => s === '429')
              ? ['429 is the server\'s rate limit, not a fault: lift it for the measurement, or measure under it with a lower --rate']
            : Object.keys(f.failedStatuses ?? {}).length === 1 && TOO_LARGE[Number(Object.keys(f.failedStatuses)[0])]
              ? [`${Object.keys(f.failedStatuses)[0]}: ${TOO_LARGE[Number(Object.keys(f.failedStatuses)[0])]}`]
            : ['look at the server\'s log for these requests; check --path, --method, --header and --body'],
    };
  },
  'spawns-swallowed': (f) => ({
    title: 'requests "succeeded" without their command running: ' +
      `${f.spawnFailure ? `spawn ${f.spawnFailure.command} failed (${f.spawnFailure.code} ×${int(f.spawnFailure.count)})` : 'its spawns failed'} and the server answered without an error`,
    evidence: [
      ...(f.spawnFailure ? [`the probe saw the server's spawns fail: ${spawnFailureText(f.spawnFailure)}`] : []),
      `${int(f.swallowed)} of them came back without an error (of ${int(f.attempts)} requests): ` +
        `the ${int(f.rps)} req/s and the latency are of answers without the work, not the server's real throughput`,
    ],
    next: [
      `${f.spawnFailure?.limit ? LIMIT_FIX[f.spawnFailure.limit] : 'make the command start (PATH, its path, its permissions)'}, or start fewer commands at once (a pool of workers), then diagnose again`,
      'have the server answer an error when its command cannot start (the callback\'s error, the child\'s \'error\' event), so its clients and its monitoring see it',
    ],
  }),
  'unsolicited-responses': (f) => ({
    title: `the server sent responses no request asked for: ${int(f.unsolicited)} after ${int(f.attempts)} requests`,
    evidence: [
      'each came on a connection after a whole response to its one request: spawnbench counts it as a bad response (Errors), and opens the connection again',
      'a client that reuses the connection would take it for the answer to its next request',
    ],
    next: ['find the handler that answers twice, or writes after the response ended (res.end() then res.write(), a second res.send())'],
  }),
  'cpu-quota': (f) => ({
    title: `the container's CPU quota (${budgetAmount({ budget: f.quotaCpus, source: 'quota' })}) is the limit: throttled in ${pct(f.throttledFraction)} of periods`,
    evidence: [
      `cpu.stat: ${pct(f.throttledFraction)} of the quota's periods ended throttled (threshold ${pct(QUOTA_THROTTLED_FRACTION)}), ` +
        `${ms(f.throttledMs)} held back in all${f.sharedWith ? '; spawnbench and its load generator ran under the same quota' : ''}`,
      `a throttled group stops until the next period (${f.periodMs > 0 ? `up to ${ms(f.periodMs)}, its period` : 'up to one period, 100 ms by default'}): loop delays and latency include those stops`,
    ],
    next: [
      'more workers only split the same quota: size the pool to the quota (spawnbench tune), or raise the limit (docker --cpus, resources.limits.cpu)',
      ...(f.sharedWith ? ['drive the server from outside its cgroup (spawnbench diagnose --url … --pid …) so the generator does not use its quota'] : []),
    ],
  }),
  'generator-quota': (f) => ({
    title: `spawnbench's own CPU quota (${budgetAmount({ budget: f.quotaCpus, source: 'quota' })}) held back the load generator`,
    evidence: [`cpu.stat: ${pct(f.throttledFraction)} of its periods ended throttled (threshold ${pct(QUOTA_THROTTLED_FRACTION)}), ${ms(f.throttledMs)} held back`],
    next: ['the throughput seen is a lower bound: run spawnbench outside that cgroup, or give it more CPU'],
  }),
  'generator-limited': (f) => ({
    title: 'the load generator was the limit: the server may take more',
    evidence: [
      `busiest generator thread ${pct(f.generatorElu)} busy (threshold ${pct(GENERATOR_BUSY_ELU)})` +
        `${Number.isFinite(f.generatorCpuPct) ? `, ${Math.round(f.generatorCpuPct)}% CPU over ${f.threads} thread(s)` : ''}`,
    ],
    // An older result has no suggestedThreads: one more, as it said then.
    next: [(f.suggestedThreads === undefined ? f.threads + 1 : f.suggestedThreads)
      ? `add generator threads: --generator-threads ${f.suggestedThreads ?? f.threads + 1} (each needs a free core), or drive it with wrk`
      : `it already has a thread per CPU spawnbench may use (${f.threads}): drive it with wrk, or from another machine`],
  }),
  'too-short': (f) => ({
    title: `too little measured to call it healthy: ${(f.measuredMs / 1000).toFixed(1)} s and ${int(f.requests)} ${f.requests === 1 ? 'response' : 'responses'}`,
    evidence: [`no problem was found in what was measured, but a stalled loop shows only over ${(f.minMs / 1000).toFixed(0)} s or more of the probe's samples`],
    next: [f.stoppedEarly
      ? `it was stopped (Ctrl-C or a signal) before its end${f.plannedMs ? ` (${formatDuration(f.plannedMs)} planned)` : ''}: run it again and let it finish`
      : 'diagnose again for longer: -d 10s (the default), or -n with more requests'],
  }),
  healthy: (f, finding) => ({
    title: 'healthy: no stall found at this load',
    evidence: [
      `served ${int(f.rps)} req/s, latency p50 ${ms(f.p50Ms)}, p99 ${ms(f.p99Ms)}, ${int(f.errors)} errors`,
      ...(f.busiestFrom ? [`${f.busiestFrom === 'elu' ? 'event loop busy' : 'CPU'} ${pct(f.busiest)} on ${finding.where}`] : []),
      `capacity seen: ${capacityText(f)}`,
    ],
    next: f.next === 'raise-connections'
      ? [f.connectionBound
        ? `the connection count, not the server, bounded the throughput (${littleLawText(f.connectionBound)}) while the server had idle time: raise --connections (e.g. ${f.connectionBound.connections * 2}) to find its limit`
        : 'the server had idle time: raise --connections to find its limit']
      : f.next === 'near-limit'
        ? [`the busiest thread was ${pct(f.busiest)} busy, near its own limit: more connections would mostly queue at it; measure more processes or a larger pool (spawnbench tune), or diagnose again over a longer -d`]
        : ['nothing to fix at this load; diagnose again with the load you expect in production (--rate)'],
  }),
};

/**
 * A finding with its words: `{ id, kind, title, where, evidence, next, figures }`.
 * A finding read from a result file that already has its words keeps them.
 * @param {DiagnoseFinding} finding
 * @returns {DiagnoseFinding}
 */
export function wordFinding(finding) {
  if (typeof finding.title === 'string') return finding;
  const say = WORDS[finding.id];
  if (!say) throw new Error(`no wording for diagnose finding '${finding.id}'`);
  // A finding without words is a rule's (src/analysis/verdict-common.js Finding), which always has its figures.
  const { title, evidence, next } = say(/** @type {Figures} */ (finding.figures), finding);
  return { id: finding.id, kind: finding.kind, title, where: finding.where, evidence, next, figures: finding.figures };
}

/**
 * What could not be measured, in words.
 * @param {{ id: 'probe'|'cpu', reason?: string|null, mode?: string }[]} unseen
 * @returns {string[]}
 */
export function unseenLines(unseen) {
  return unseen.map((gap) => {
    if (gap.id === 'probe') {
      const why = gap.reason ? ` (${gap.reason})` : '';
      // Started by spawnbench already (diagnose -- <command>), "run it under spawnbench diagnose -- <command>" was no way out:
      // the reason says what to do, or --no-probe was given. An old result names no mode: the words it had.
      const next = gap.mode === undefined || gap.mode === 'url' ? 'run it under spawnbench diagnose -- <command> to see them'
        : gap.reason === '--no-probe' ? 'drop --no-probe to see them' : null;
      return `event-loop delay and utilisation, time blocked in spawn and GC pauses: no probe in the server${why}${next ? `; ${next}` : ''}`;
    }
    return gap.mode === 'url' ? 'CPU of the server: pass its process id with --pid' : 'CPU of the server: no /proc figures';
  });
}

/**
 * The diagnosis with its words: verdict and findings worded, `notSeen` the gaps in words.
 * @param {import('../base/result-types.js').Diagnosis} diagnosis
 * @returns {import('../base/result-types.js').Diagnosis & { notSeen: string[] }}
 */
export function wordDiagnosis(diagnosis) {
  return {
    ...diagnosis,
    verdict: wordFinding(diagnosis.verdict),
    findings: diagnosis.findings.map(wordFinding),
    notSeen: diagnosis.notSeen ?? unseenLines(diagnosis.unseen ?? []),
  };
}
