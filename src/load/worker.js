/**
 * A generator thread: owns its share of the connections, keeps the phase clock,
 * and posts one report per second (plus one at each phase change and at the end).
 *
 * Messages in: { type: 'go' } once every thread is connected; { type: 'stop' }.
 * Messages out: { type: 'connected' }, { type: 'phase', phase: 'measure' },
 * { type: 'report', index, phase, intervalMs, phaseElapsedMs, cpuMs, final, ...IntervalStats.take() }.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { performance } from 'node:perf_hooks';
import { ClosedLoop } from './closed-loop.js';
import { Connection } from './connection.js';
import { OpenLoop } from './open-loop.js';
import { IntervalStats, REPORT_MS } from './counters.js';
import { createThreadCpuReader } from './thread-cpu.js';
import { drawFrom, seededRandom } from './mix.js';
import { UNANSWERED_STALL_MS } from '../base/thresholds.js';

// Back-off before reconnecting after a failed connect, in ms: a refused port
// answers in microseconds, and retrying at that pace would only burn CPU.
const CONNECT_RETRY_MS = 50;
// Longest wait for the first connects before 'go', in ms: loopback connects take
// well under 10 ms; a host that does not answer should not hold the run.
const CONNECT_WAIT_MS = 2000;
// How often connections are checked for a request older than the timeout, in ms
// (a tenth of the timeout, within these bounds): one timer per thread instead of one per request.
const SWEEP_MIN_MS = 10;
const SWEEP_MAX_MS = 250;
// One read buffer per thread, shared by its sockets (a read is consumed before the
// next one starts). 64 KB is libuv's default read size.
const READ_BUFFER_BYTES = 64 * 1024;

const WARMUP = 0;
const MEASURE = 1;
const NOT_COUNTING = -1;

const config = workerData;
const now = () => performance.now();
const readCpuMs = createThreadCpuReader();
const toBuffer = (u8) => (u8 ? Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength) : null);

const stats = new IntervalStats();
const requestBytes = config.requestBytes.map(toBuffer);
if (config.endpoints) stats.trackEndpoints(requestBytes.length);
// The draw: one seeded random number against the precomputed cumulative table (mix.js).
const random = seededRandom(config.seed);
const table = config.cumulative;
const draw = requestBytes.length === 1 ? () => 0 : () => drawFrom(table, random());
const timers = new Set();
const ctx = {
  host: config.host,
  port: config.port,
  tls: config.tls ? { servername: config.servername, rejectUnauthorized: !config.insecure, session: null } : null,
  requestBytes,
  draw,
  fastWrites: config.writePath !== 'public',
  readBuffer: Buffer.allocUnsafe(READ_BUFFER_BYTES),
  noBody: config.noBody,
  expectedBody: toBuffer(config.expectedBody),
  timeoutMs: config.timeoutMs,
  stats,
  /** performance.now() of the last response read, of any phase (null: none yet). */
  lastAnswerAt: /** @type {number|null} */ (null),
  generation: NOT_COUNTING,
  counting: false,
  stopping: false,
  sampledStatuses: new Set(),
  onIdle: (conn, t) => loop.onIdle(conn, t),
  onOutcome: (measured) => {
    if (measured && phase === MEASURE) settle();
  },
  onConnectFailed: () => {
    if (phase === MEASURE && config.requests != null && issued < config.requests) {
      issued++;
      settle();
    }
  },
  retryLater: (fn) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      fn();
    }, CONNECT_RETRY_MS);
    timers.add(timer);
  },
};

let phase = NOT_COUNTING;
let started = false;
let finished = false;
/** The measured requests in flight when the run ended (finish()): sent with the final report. */
let unanswered = null;
let issued = 0;
let settled = 0;
let goAt = 0;
let warmEndAt = 0;
let phaseStartAt = 0;
let phaseEndAt = Infinity;
let intervalStartAt = 0;
let reportIndex = 0;
let reportTimer = null;
let sweepTimer = null;
let lastCpuMs = readCpuMs();
let lastElu = performance.eventLoopUtilization();

const run = {
  running: () => started && !finished,
  canIssue: () => config.requests == null || phase !== MEASURE || issued < config.requests,
  issue: () => {
    if (phase === MEASURE) issued++;
  },
  generation: () => ctx.generation,
  generationAt: (t) => (t < warmEndAt ? WARMUP : MEASURE),
  missed: (generation) => {
    if (generation === ctx.generation) stats.missed++;
  },
};
const loop = config.rate ? new OpenLoop(run, config.rate, config.rateOffsetMs) : new ClosedLoop(run);
const connections = Array.from({ length: config.connections }, () => new Connection(ctx));

function settle() {
  settled++;
  if (config.requests != null && settled >= config.requests) finish();
}

function post(message) {
  parentPort.postMessage(message);
}

function report(final) {
  const t = now();
  const cpuMs = readCpuMs();
  // This thread's own event-loop utilization over the interval (measured here:
  // the main thread's view of an exiting worker is not reliable).
  const elu = performance.eventLoopUtilization();
  const eluDelta = performance.eventLoopUtilization(elu, lastElu);
  lastElu = elu;
  post({
    type: 'report',
    index: reportIndex++,
    phase: phase === WARMUP ? 'warmup' : 'measure',
    intervalMs: t - intervalStartAt,
    phaseElapsedMs: t - phaseStartAt,
    cpuMs: cpuMs === null || lastCpuMs === null ? null : cpuMs - lastCpuMs,
    final,
    unanswered: final ? unanswered : null,
    eluActiveMs: eluDelta.active,
    eluIdleMs: eluDelta.idle,
    ...stats.take(),
  });
  lastCpuMs = cpuMs;
  intervalStartAt = t;
}

function scheduleReport() {
  const nextAt = Math.min(intervalStartAt + REPORT_MS, phaseEndAt);
  reportTimer = setTimeout(() => onReportTimer(nextAt), Math.max(0, nextAt - now()));
}

function onReportTimer(dueAt) {
  reportTimer = null;
  if (dueAt < phaseEndAt) {
    report(false);
    scheduleReport();
  } else if (phase === WARMUP) {
    report(false);
    enterMeasure(dueAt);
  } else {
    finish();
  }
}

function enterMeasure(dueAt) {
  // From when it truly begins: a timer that fired late (a busy thread) once ended a
  // 10 ms phase before it began, and counted the lateness as measured time.
  const t = Math.max(dueAt, now());
  phase = MEASURE;
  ctx.generation = MEASURE;
  loop.dropDueBefore(warmEndAt);
  phaseStartAt = t;
  intervalStartAt = Math.max(intervalStartAt, t);
  phaseEndAt = config.durationMs == null ? Infinity : t + config.durationMs;
  post({ type: 'phase', phase: 'measure' });
  scheduleReport();
  if (config.requests === 0) finish();
}

function go() {
  if (started || finished) return;
  started = true;
  goAt = now();
  warmEndAt = goAt + config.warmupMs;
  intervalStartAt = goAt;
  lastCpuMs = readCpuMs();
  lastElu = performance.eventLoopUtilization();
  ctx.counting = true;
  const sweepMs = Math.min(SWEEP_MAX_MS, Math.max(SWEEP_MIN_MS, config.timeoutMs / 10));
  sweepTimer = setInterval(() => {
    const t = now();
    for (const conn of connections) conn.checkTimeout(t, config.timeoutMs);
  }, sweepMs);
  if (config.warmupMs > 0) {
    phase = WARMUP;
    ctx.generation = WARMUP;
    phaseStartAt = goAt;
    phaseEndAt = warmEndAt;
    scheduleReport();
  } else {
    enterMeasure(goAt);
  }
  if (!finished) loop.start(goAt);
}

/** Ends the run: final report, every socket and timer closed, then the thread exits. */
function finish() {
  if (finished) return;
  finished = true;
  if (reportTimer) clearTimeout(reportTimer);
  if (sweepTimer) clearInterval(sweepTimer);
  for (const timer of timers) clearTimeout(timer);
  timers.clear();
  if (phase === MEASURE) stats.missed += loop.unsent();
  // The measured requests still unanswered: left out of the figures (as wrk), yet one that waited
  // longer than any answered request says the server stopped answering (load result `unanswered`).
  const t = now();
  const waiting = phase === MEASURE ? connections.filter((c) => c.inFlight && c.generation === MEASURE) : [];
  // Warm-up requests still unanswered held their connections through the measured phase: a server
  // that stopped answering in the warm-up left nothing measured, and only these say so.
  const warmWaiting = phase === MEASURE ? connections.filter((c) => c.inFlight && c.generation === WARMUP) : [];
  unanswered = {
    count: waiting.length,
    oldestMs: waiting.length ? Math.max(...waiting.map((c) => t - c.startedAt)) : 0,
    // How long since this thread last got an answer (null: none): a server that stopped answering is quiet at the end.
    quietMs: ctx.lastAnswerAt === null ? null : t - ctx.lastAnswerAt,
    // Those left waiting as long as a stall's: the others were merely in flight when the run ended.
    lateCount: waiting.filter((c) => t - c.startedAt >= UNANSWERED_STALL_MS).length,
    // Those whose response had begun (its head arrived) without ending: a stream (server-sent events) never ends.
    begun: waiting.filter((c) => c.status !== 0).length,
    warmup: { count: warmWaiting.length, oldestMs: warmWaiting.length ? Math.max(...warmWaiting.map((c) => t - c.startedAt)) : 0 },
  };
  loop.stop();
  ctx.stopping = true;
  if (started) report(true);
  else post({ type: 'report', index: 0, phase: 'measure', intervalMs: 0, phaseElapsedMs: 0, cpuMs: null, final: true, eluActiveMs: 0, eluIdleMs: 0, ...stats.take() });
  ctx.counting = false;
  ctx.generation = NOT_COUNTING;
  for (const conn of connections) conn.close();
  parentPort.close();
}

parentPort.on('message', (message) => {
  if (message.type === 'go') go();
  else if (message.type === 'stop') finish();
});

// Connect every connection before 'go', so connection setup is not part of the
// first requests' latency; report 'connected' once each has connected or failed once.
for (const conn of connections) conn.connect();
const waitStartedAt = now();
const waitTimer = setInterval(() => {
  const ready = connections.every((conn) => conn.connected || conn.failedOnce);
  if (ready || finished || now() - waitStartedAt > CONNECT_WAIT_MS) {
    clearInterval(waitTimer);
    if (!finished) post({ type: 'connected' });
  }
}, 5);
