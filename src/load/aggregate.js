/**
 * Main-thread side of the generator: adds up the per-second reports of every
 * generator thread into merged intervals (for ticks) and phase totals (for the
 * result). Reports of one index are merged only once every thread has sent it or
 * has finished, so a tick always covers all threads.
 */
import { addEncoded, createHistogram, encodeHistogram, fullSummary, shortSummary, succeededSummary } from './histogram.js';
import { addCounts, createErrorTexts, emptyErrors, REPORT_MS } from './counters.js';
import { GENERATOR_STOPPED_MIN_MS } from '../base/thresholds.js';

// Intervals shorter than this (the sliver between the last full second and the
// end of a phase), in ms, are added to the totals but get no tick of their own:
// a rate over a few ms is noise.
const MIN_TICK_MS = 100;

function emptyTotals() {
  return {
    requests: 0,
    bytes: 0,
    missed: 0,
    unsolicited: 0,
    errors: emptyErrors(),
    statuses: {},
    histogram: createHistogram(),
    // The failed responses' latencies (non-2xx, mismatch), also in `histogram`.
    failedHistogram: createHistogram(),
    cpuMs: 0,
    cpuKnown: true,
    elapsedMs: 0,
  };
}

export class Aggregator {
  /** @param {number} threads */
  constructor(threads) {
    this.threads = threads;
    this.lastIndex = new Array(threads).fill(-1);
    this.done = new Array(threads).fill(false);
    this.pending = new Map();
    this.nextIndex = 0;
    this.phase = null;
    this.phaseTotals = emptyTotals();
    /** The measured requests still in flight when the threads finished, and the longest any had waited (ms). */
    this.unanswered = { count: 0, oldestMs: 0, quietMs: /** @type {number|null} */ (null), lateCount: 0, begun: 0 };
    /** The warm-up's requests still in flight then, and the warm-up's answered requests with their histogram. */
    this.warmup = { count: 0, oldestMs: 0, answered: 0, histogram: createHistogram() };
    this.measure = emptyTotals();
    this.measureSeen = false;
    this.series = [];
    // Intervals far longer than the report period: spawnbench itself stopped (SIGSTOP, Ctrl-Z), measured or in the warm-up.
    this.stopped = { ms: 0, longestMs: 0 };
    this.warmupStopped = { ms: 0, longestMs: 0 };
    this.bodySamples = {};
    // The measured phase's error texts by status and kind (warm-up texts are not kept).
    this.errorTexts = createErrorTexts();
    this.codes = new Set();
    // Per thread, event-loop active and idle ms over the measured phase.
    this.measureElu = Array.from({ length: threads }, () => ({ active: 0, idle: 0 }));
    /** A mix's entries over the measured phase, each with its own histogram (null: no mix). */
    this.endpoints = null;
  }

  /**
   * Takes one thread's report; returns the merged intervals it completed, in order.
   * @returns {Array<object>} merged intervals: { index, phase, intervalMs, phaseElapsedMs, requests, ..., histogram }
   */
  add(thread, report) {
    this.lastIndex[thread] = report.index;
    if (report.final) this.done[thread] = true;
    if (report.unanswered) {
      this.unanswered.count += report.unanswered.count;
      this.unanswered.oldestMs = Math.max(this.unanswered.oldestMs, report.unanswered.oldestMs);
      this.unanswered.lateCount += report.unanswered.lateCount ?? 0;
      this.unanswered.begun += report.unanswered.begun ?? 0;
      // The server was quiet only as long as every thread went unanswered: the shortest quiet is the server's.
      const quiet = report.unanswered.quietMs;
      if (typeof quiet === 'number') this.unanswered.quietMs = this.unanswered.quietMs === null ? quiet : Math.min(this.unanswered.quietMs, quiet);
      if (report.unanswered.warmup) {
        this.warmup.count += report.unanswered.warmup.count;
        this.warmup.oldestMs = Math.max(this.warmup.oldestMs, report.unanswered.warmup.oldestMs);
      }
    }
    if (report.phase === 'warmup') {
      this.warmup.answered += report.requests;
      if (report.histogram) addEncoded(this.warmup.histogram, report.histogram);
    }
    for (const [status, text] of Object.entries(report.bodySamples)) this.bodySamples[status] ??= text;
    if (report.phase === 'measure' && report.errorTexts.length > 0) this.errorTexts.add(report.errorTexts);
    for (const code of report.notes) this.codes.add(code);
    if (report.phase === 'measure' && report.endpoints) this.addEndpoints(report.endpoints);

    let merged = this.pending.get(report.index);
    if (!merged) {
      merged = { ...emptyTotals(), index: report.index, phase: report.phase, intervalMs: 0, phaseElapsedMs: 0, eluMax: 0, eluSum: 0 };
      this.pending.set(report.index, merged);
    }
    // A thread that ended early (requests mode, stop) may report a measure
    // interval under an index others used for warm-up; measure wins.
    if (report.phase === 'measure') merged.phase = 'measure';
    merged.requests += report.requests;
    merged.bytes += report.bytes;
    merged.missed += report.missed;
    merged.unsolicited += report.unsolicited ?? 0;
    addCounts(merged.errors, report.errors);
    addCounts(merged.statuses, report.statuses);
    if (report.histogram) addEncoded(merged.histogram, report.histogram);
    if (report.failedHistogram) addEncoded(merged.failedHistogram, report.failedHistogram);
    if (report.cpuMs === null) merged.cpuKnown = false;
    else merged.cpuMs += report.cpuMs;
    const eluTotal = report.eluActiveMs + report.eluIdleMs;
    const elu = eluTotal > 0 ? report.eluActiveMs / eluTotal : 0;
    merged.eluMax = Math.max(merged.eluMax, elu);
    merged.eluSum += elu;
    if (report.phase === 'measure') {
      this.measureElu[thread].active += report.eluActiveMs;
      this.measureElu[thread].idle += report.eluIdleMs;
    }
    merged.intervalMs = Math.max(merged.intervalMs, report.intervalMs);
    merged.phaseElapsedMs = Math.max(merged.phaseElapsedMs, report.phaseElapsedMs);
    return this.drain();
  }

  /** Adds one report's per-entry counters to the measured phase's. */
  addEndpoints(list) {
    this.endpoints ??= list.map(() => ({ requests: 0, errors: emptyErrors(), statuses: {}, histogram: createHistogram(), errorTexts: createErrorTexts() }));
    list.forEach((e, i) => {
      const into = this.endpoints[i];
      into.requests += e.requests;
      addCounts(into.errors, e.errors);
      addCounts(into.statuses, e.statuses);
      if (e.histogram) addEncoded(into.histogram, e.histogram);
      if (e.errorTexts.length > 0) into.errorTexts.add(e.errorTexts);
    });
  }

  /** Marks a thread as gone without a final report (it crashed or was terminated). */
  abandon(thread) {
    this.done[thread] = true;
    return this.drain();
  }

  get allDone() {
    return this.done.every(Boolean);
  }

  drain() {
    const ready = [];
    for (;;) {
      const index = this.nextIndex;
      const merged = this.pending.get(index);
      const complete = this.lastIndex.every((last, t) => last >= index || this.done[t]);
      if (!merged || !complete) break;
      this.pending.delete(index);
      this.nextIndex++;
      ready.push(this.apply(merged));
    }
    return ready;
  }

  /** Adds a merged interval to the totals; returns it with `tick: boolean` and summaries. */
  apply(merged) {
    if (merged.phase !== this.phase) {
      this.phase = merged.phase;
      this.phaseTotals = merged.phase === 'measure' ? this.measure : emptyTotals();
    }
    const totals = this.phaseTotals;
    if (merged.phase === 'measure') this.measureSeen = true;
    totals.requests += merged.requests;
    totals.bytes += merged.bytes;
    totals.missed += merged.missed;
    totals.unsolicited += merged.unsolicited;
    addCounts(totals.errors, merged.errors);
    addCounts(totals.statuses, merged.statuses);
    totals.histogram.add(merged.histogram);
    totals.failedHistogram.add(merged.failedHistogram);
    if (!merged.cpuKnown) totals.cpuKnown = false;
    totals.cpuMs += merged.cpuMs;
    totals.elapsedMs = Math.max(totals.elapsedMs, merged.phaseElapsedMs);

    const tick = merged.intervalMs >= MIN_TICK_MS;
    const interval = shortSummary(merged.histogram);
    const late = merged.intervalMs - REPORT_MS;
    if (late >= GENERATOR_STOPPED_MIN_MS) {
      const stopped = merged.phase === 'measure' ? this.stopped : this.warmupStopped;
      stopped.ms += late;
      stopped.longestMs = Math.max(stopped.longestMs, late);
    }
    if (merged.phase === 'measure') {
      const last = this.series.at(-1);
      if (tick || !last) {
        // p50, p90 and max too (after p99, which came first): the HTML report draws the percentiles over time.
        this.series.push({ second: this.series.length + 1, requests: merged.requests, errors: merged.errors.total, p99Ms: interval.p99Ms, p50Ms: interval.p50Ms, p90Ms: interval.p90Ms, maxMs: interval.maxMs });
      } else {
        last.requests += merged.requests;
        last.errors += merged.errors.total;
      }
    }
    merged.histogram.destroy();
    merged.failedHistogram.destroy();
    return {
      index: merged.index,
      phase: merged.phase,
      tick,
      intervalMs: merged.intervalMs,
      phaseElapsedMs: merged.phaseElapsedMs,
      requests: merged.requests,
      cpuMs: merged.cpuKnown ? merged.cpuMs : null,
      eluMax: merged.eluMax,
      eluSum: merged.eluSum,
      interval,
      totals: {
        requests: totals.requests,
        bytes: totals.bytes,
        missed: totals.missed,
        unsolicited: totals.unsolicited,
        errors: { ...totals.errors },
        statuses: { ...totals.statuses },
        errorTexts: merged.phase === 'measure' && totals.errors.total > 0 ? this.errorTexts.list() : [],
        overall: shortSummary(totals.histogram),
      },
    };
  }

  /** Totals of the measured phase for the LoadResult. */
  measured() {
    const m = this.measure;
    return {
      requests: m.requests,
      bytes: m.bytes,
      missed: m.missed,
      unsolicited: m.unsolicited,
      unanswered: {
        count: this.unanswered.count,
        oldestMs: Math.round(this.unanswered.oldestMs * 10) / 10,
        quietMs: this.unanswered.quietMs === null ? null : Math.round(this.unanswered.quietMs * 10) / 10,
        lateCount: this.unanswered.lateCount,
        begun: this.unanswered.begun,
        // A server that stopped answering in the warm-up: what it answered then, and what it left waiting.
        warmup: {
          count: this.warmup.count,
          oldestMs: Math.round(this.warmup.oldestMs * 10) / 10,
          answered: this.warmup.answered,
          answeredMaxMs: this.warmup.answered > 0 ? fullSummary(this.warmup.histogram).maxMs : null,
        },
      },
      errors: { ...m.errors },
      statuses: { ...m.statuses },
      latency: fullSummary(m.histogram),
      succeededLatency: succeededSummary(m.histogram, m.failedHistogram),
      histogram: encodeHistogram(m.histogram),
      elapsedMs: m.elapsedMs,
      cpuMs: m.cpuKnown ? m.cpuMs : null,
      elu: this.measureElu.map(({ active, idle }) => (active + idle > 0 ? active / (active + idle) : 0)),
      series: this.series,
      stopped: stoppedFigures(this.stopped),
      warmupStopped: stoppedFigures(this.warmupStopped),
      bodySamples: { ...this.bodySamples },
      errorTexts: this.errorTexts.list(),
      codes: [...this.codes],
      endpoints: this.endpoints?.map((e) => ({
        requests: e.requests,
        errors: { ...e.errors },
        statuses: { ...e.statuses },
        latency: fullSummary(e.histogram),
        histogram: encodeHistogram(e.histogram),
        errorTexts: e.errorTexts.list(),
      })) ?? null,
    };
  }
}

/**
 * @param {{ ms: number, longestMs: number }} stopped
 * @returns {{ ms: number, longestMs: number, inWarmup?: boolean }|null} null: never stopped
 */
function stoppedFigures(stopped) {
  return stopped.ms > 0 ? { ms: Math.round(stopped.ms), longestMs: Math.round(stopped.longestMs) } : null;
}
