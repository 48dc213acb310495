/**
 * The load generator's public API. The generator itself runs in worker threads
 * (worker.js), so a dashboard frame or a sampler on this thread never delays a
 * request's timestamp; this thread only merges their reports.
 */
import { EventEmitter } from 'node:events';
import { Worker } from 'node:worker_threads';
import { Aggregator } from './aggregate.js';
import { missedNote, notesForCodes, unreachableNote } from './notes.js';
import { GENERATOR_BUSY_ELU, GENERATOR_BUSY_MIN_MS, GENERATOR_STOP_GRACE_MS } from '../base/thresholds.js';
import { stalledAtEnd, lostAtEnd } from './stall.js';
import { budgetWorkers, ownCpuBudget } from '../machine/cpu-budget.js';
import { normalizeOptions, threadConfigs } from './load-options.js';
import { FAST_WRITES_AVAILABLE } from './request-writer.js';
import { readListenOverflows, lostNote } from './listen-overflows.js';

export { parseTarget } from './target.js';
export { decodeHistogram } from './histogram.js';

const WORKER_URL = new URL('./worker.js', import.meta.url);
// A generator thread busier than this (ELU) may have limited the rate it measured.
/**
 * Starts a load run. Closed loop by default (`connections` requests in flight);
 * with `rate`, open loop: requests fall due at that rate across all threads and
 * go out on a free connection of the pool, latency counted from when each was due.
 * When every connection is busy, due requests queue and count in `missed` (see
 * open-loop.js); without `connections`, an open loop gets rate × 0.5 s of them.
 * Requests in flight when the measured window closes are not counted (as wrk).
 *
 * Ticks (LoadTick, src/README.md) come once a second per phase. `rps`, `interval`
 * and `generator` cover the last second; `requests`, `bytes`, `errors`,
 * `statuses`, `missed` and `overall` cover the current phase so far (the warm-up
 * in warm-up ticks, the measured window in measure ticks). `generator.elu` is the
 * busiest thread's; `generator.cpuPct` adds the threads up (200 = two cores).
 * Every option may be left out and takes the CLI's default (load-options.js
 * LOAD_DEFAULTS): GET, 30 connections (open loop: rate × 0.5 s, 10 to 1,000),
 * 10 s measured after a 2 s warm-up, a 10 s timeout, one generator thread, seed 1;
 * a bad one throws the UsageError the CLI prints for its flag. A run plan's `load`
 * (run-plan.js buildLoad) is this input without `url`.
 * With `mix`, each request is drawn by weight from its entries (seeded by `seed`) and
 * the result adds `endpoints`, one per entry with its own figures.
 * @param {import('./load-options.js').LoadOptions} options
 * @returns {EventEmitter & { done: Promise<object>, stop(): Promise<object> }}
 *   emits 'phase' ({ phase, at }: at, epoch ms it began) and 'tick' (LoadTick); `done` resolves to the LoadResult
 * @throws {import('../base/errors.js').UsageError} for a bad option (before anything starts)
 */
export function startLoad(options) {
  const opts = normalizeOptions(options);
  // done and stop are set below, before it is returned.
  const load = /** @type {EventEmitter & { done: Promise<object>, stop(): Promise<object> }} */ (new EventEmitter());
  const configs = threadConfigs(opts);
  // How the threads write requests: they run on this Node, so its feature check is theirs.
  const writePath = opts.writePath === 'fast' && !opts.target.tls && FAST_WRITES_AVAILABLE ? 'fast' : 'public';
  const aggregator = new Aggregator(configs.length);
  const workers = configs.map((workerData) => new Worker(WORKER_URL, { workerData }));
  const crashNotes = [];
  // Connections the host's listening sockets had no room for, counted from here (listen-overflows.js).
  const overflowsAtStart = readListenOverflows();
  let connected = 0;
  let goSent = false;
  let phase = null;
  let finished = false;
  let stopTimer = null;
  let resolveDone;
  load.done = new Promise((resolve) => {
    resolveDone = resolve;
  });

  const setPhase = (next) => {
    if (phase === next) return;
    phase = next;
    // `at`: when the phase began (epoch ms), stamped here once, before any listener's work.
    load.emit('phase', { phase: next, at: Date.now() });
  };

  const emitTick = (merged) => {
    if (merged.phase === 'measure') setPhase('measure');
    if (!merged.tick) return;
    const t = merged.totals;
    const plannedMs = merged.phase === 'warmup' ? opts.warmupMs : opts.durationMs;
    load.emit('tick', {
      second: merged.index + 1,
      phase: merged.phase,
      elapsedMs: Math.round(merged.phaseElapsedMs),
      plannedMs,
      requests: t.requests,
      rps: round1((merged.requests * 1000) / merged.intervalMs),
      meanRps: round1(merged.phaseElapsedMs > 0 ? (t.requests * 1000) / merged.phaseElapsedMs : 0),
      bytes: t.bytes,
      errors: t.errors,
      statuses: t.statuses,
      errorTexts: t.errorTexts,
      interval: merged.interval,
      overall: t.overall,
      missed: t.missed,
      generator: {
        elu: round3(merged.eluMax),
        // Per-thread CPU from /proc/thread-self/stat; ELU × 100 where unreadable.
        cpuPct: round1(merged.cpuMs !== null ? (merged.cpuMs * 100) / merged.intervalMs : merged.eluSum * 100),
      },
    });
  };

  const result = () => {
    const m = aggregator.measured();
    const seconds = m.elapsedMs / 1000;
    // ELU of the busiest generator thread (a saturated thread limits the run
    // whatever the others do); cpuPct adds the threads up (200 = two cores).
    const eluBusiest = Math.max(0, ...m.elu);
    const eluSum = m.elu.reduce((a, b) => a + b, 0);
    const notes = [...crashNotes, ...notesForCodes(m.codes, { connections: opts.connections })];
    const unreachable = unreachableNote(m, opts.url);
    if (unreachable) notes.push(unreachable);
    const stall = stalledAtEnd(m);
    // An open loop stopped in its warm-up sends the requests due then late, into the measured time, each timed from when it was due.
    const stopped = m.stopped ?? (opts.rate !== null && m.warmupStopped ? { ...m.warmupStopped, inWarmup: true } : null);
    if (stopped) {
      const when = stopped.inWarmup ? 'in the warm-up: the requests due then were sent late, into the measured time, each timed from when it was due, so' : `of the ${seconds.toFixed(1)} s measured: nothing was sent then, so`;
      notes.push(`spawnbench itself did not run for ${(stopped.ms / 1000).toFixed(1)} s ${when} req/s and latency hold that gap, not the server's figures (stopped by Ctrl-Z or SIGSTOP, a suspended machine, a debugger); run again without stopping it`);
    }
    // Requests not sent on time while spawnbench was stopped say nothing of the connections.
    const missed = stopped ? null : missedNote(m, { rate: opts.rate, connections: opts.connections, seconds, stalled: stall !== null });
    if (missed) notes.push(missed);
    if (m.unsolicited > 0) {
      notes.push(`the server sent ${m.unsolicited} ${m.unsolicited === 1 ? 'response (or bytes)' : 'responses (or bytes)'} that no request asked for: each is a bad response in Errors, not a failed request, and its connection was opened again`);
    }
    const lost = lostAtEnd(m);
    const overflowsNow = readListenOverflows();
    const listenOverflows = overflowsAtStart !== null && overflowsNow !== null ? Math.max(0, overflowsNow - overflowsAtStart) : null;
    if (lost) notes.push(lostNote(lost, listenOverflows, opts.connections));
    if (stall) {
      notes.push(`${stall.count} ${stall.count === 1 ? 'request was' : 'requests were'} still unanswered when the run ended, the oldest after ${(stall.oldestMs / 1000).toFixed(1)} s, far longer than any answered request (${Math.round((stall.answeredMaxMs ?? m.latency.maxMs) * 10) / 10} ms${stall.inWarmup ? ', in the warm-up' : ''}): the server stopped answering, and the figures leave those requests out`);
    }
    if (eluBusiest >= GENERATOR_BUSY_ELU && m.elapsedMs >= GENERATOR_BUSY_MIN_MS) {
      // No more threads than --generator-threads allows (one per CPU of spawnbench's budget).
      const more = opts.threads < budgetWorkers(ownCpuBudget()) ? `try --generator-threads ${opts.threads + 1}` : 'drive the server from another machine, or with wrk';
      notes.push(`the generator thread was busy ${Math.round(eluBusiest * 100)}% of the time, so it may have limited the rate: ${more}`);
    }
    return {
      mode: opts.rate === null ? 'closed' : 'open',
      connections: opts.connections,
      // Host-wide accept-queue overflows during the load (null: not read): see listen-overflows.js.
      listenOverflows,
      threads: opts.threads,
      rate: opts.rate,
      durationMs: Math.round(m.elapsedMs),
      requests: m.requests,
      rps: round1(seconds > 0 ? m.requests / seconds : 0),
      bytes: m.bytes,
      latency: m.latency,
      // The successful responses' latency (2xx, body matched): what the latency gates read.
      succeededLatency: m.succeededLatency,
      histogram: m.histogram,
      errors: m.errors,
      statuses: m.statuses,
      bodySamples: m.bodySamples,
      errorTexts: m.errorTexts,
      missed: m.missed,
      // Parse errors with no request in flight (also in errors.parse): no request failed with them.
      unsolicited: m.unsolicited,
      // Measured requests still in flight at the end (left out of every figure) and the longest any had waited.
      unanswered: m.unanswered,
      series: m.series,
      // spawnbench itself stopped while measuring (SIGSTOP, Ctrl-Z): how long in all, and the longest stop (ms); null: never.
      generatorStopped: stopped,
      generator: {
        cpuPct: round1(m.cpuMs !== null && seconds > 0 ? m.cpuMs / 10 / seconds : eluSum * 100),
        elu: round3(eluBusiest),
        writePath,
      },
      notes,
      ...(opts.mix ? { endpoints: endpointFigures(opts.mix, m, seconds) } : {}),
    };
  };

  const finishIfDone = async () => {
    if (finished || !aggregator.allDone) return;
    finished = true;
    clearTimeout(stopTimer);
    const loadResult = result();
    await Promise.all(workers.map((worker) => worker.terminate()));
    setPhase('done');
    resolveDone(loadResult);
  };

  workers.forEach((worker, i) => {
    worker.on('message', (message) => {
      if (message.type === 'connected') {
        if (++connected === workers.length && !finished) {
          goSent = true;
          setPhase(opts.warmupMs > 0 ? 'warmup' : 'measure');
          for (const w of workers) w.postMessage({ type: 'go' });
        }
      } else if (message.type === 'phase') {
        setPhase('measure');
      } else if (message.type === 'report') {
        for (const merged of aggregator.add(i, message)) emitTick(merged);
        finishIfDone();
      }
    });
    worker.on('error', (error) => {
      crashNotes.push(`generator thread ${i} failed: ${error.message}`);
    });
    worker.on('exit', () => {
      if (aggregator.done[i]) return;
      // A thread lost before 'go' would leave the others waiting for it forever.
      if (!goSent) load.stop();
      for (const merged of aggregator.abandon(i)) emitTick(merged);
      finishIfDone();
    });
  });

  load.stop = () => {
    if (!finished && !stopTimer) {
      for (const worker of workers) worker.postMessage({ type: 'stop' });
      stopTimer = setTimeout(() => {
        for (const worker of workers) worker.terminate();
      }, GENERATOR_STOP_GRACE_MS);
    }
    return load.done;
  };
  return load;
}

/**
 * Each mix entry's own figures over the measured phase (load.endpoints).
 * @param {import('./mix.js').MixEntry[]} mix
 * @param {ReturnType<Aggregator['measured']>} m
 * @param {number} seconds
 */
function endpointFigures(mix, m, seconds) {
  const total = mix.reduce((sum, e) => sum + e.weight, 0);
  return mix.map((entry, i) => {
    const e = m.endpoints?.[i] ?? null;
    const requests = e?.requests ?? 0;
    const latency = e?.latency ?? { minMs: 0, meanMs: 0, p50Ms: 0, p75Ms: 0, p90Ms: 0, p99Ms: 0, p999Ms: 0, maxMs: 0 };
    return {
      name: entry.name,
      method: entry.method,
      path: entry.path,
      weight: entry.weight,
      weightShare: round3(entry.weight / total),
      requests,
      share: round3(m.requests > 0 ? requests / m.requests : 0),
      rps: round1(seconds > 0 ? requests / seconds : 0),
      errors: e?.errors ?? { total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0, tls: 0 },
      statuses: e?.statuses ?? {},
      p50Ms: latency.p50Ms,
      p90Ms: latency.p90Ms,
      p99Ms: latency.p99Ms,
      maxMs: latency.maxMs,
      latency,
      histogram: e?.histogram ?? null,
      errorTexts: e?.errorTexts ?? [],
    };
  });
}

function round1(n) {
  return Math.round(n * 10) / 10;
}

function round3(n) {
  return Math.round(n * 1000) / 1000;
}
