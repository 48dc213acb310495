/**
 * What a generator thread counts between two reports, and how the main thread
 * adds reports up. Plain objects so they cross postMessage as they are.
 */
import { createHistogram, encodeHistogram, LatencyCounts, recordMs } from './histogram.js';
import { createTextCounter } from '../base/untrusted-text.js';
import { ERROR_KEYS_KEPT } from '../base/thresholds.js';

/**
 * The error kinds, in the order reports and results list them. `tls`: the TCP
 * connection opened but the TLS handshake failed (certificate refused, protocol
 * mismatch); last, so the older kinds keep their positions.
 */
/** One report per second from each generator thread: the dashboard's tick and the result's series resolution (ms). */
export const REPORT_MS = 1000;

export const ERROR_KINDS = ['connect', 'reset', 'timeout', 'parse', 'mismatch', 'non2xx', 'tls'];
const NON2XX = ERROR_KINDS.indexOf('non2xx');
const MISMATCH = ERROR_KINDS.indexOf('mismatch');

// Bytes kept of the first body seen for each non-2xx status: enough for an error
// line such as "spawn nosuchcmd ENOENT", small enough to print in a summary.
export const BODY_SAMPLE_BYTES = 200;

/** Zeroed error counters ({ total, connect, ... }). */
export function emptyErrors() {
  return { total: 0, connect: 0, reset: 0, timeout: 0, parse: 0, mismatch: 0, non2xx: 0, tls: 0 };
}

/** Adds counters of `from` into `into` (errors and statuses objects alike). */
export function addCounts(into, from) {
  for (const key of Object.keys(from)) into[key] = (into[key] ?? 0) + from[key];
  return into;
}

/**
 * Per-thread counters for the interval since the last report (worker side, hot path).
 */
export class IntervalStats {
  constructor() {
    this.histogram = createHistogram();
    /** This interval's latencies, folded into `histogram` at take(). */
    this.latencies = new LatencyCounts();
    /** This interval's failed responses' latencies (non-2xx, body mismatch), also in `latencies`: the
     * successes' latency is the difference (recorded on the error path only, so a success costs nothing more). */
    this.failedHistogram = createHistogram();
    // Status codes are 100..599 (the parser rejects others): a flat array is the
    // cheapest counter on the hot path.
    this.statusCounts = new Float64Array(600);
    this.errorCounts = new Float64Array(ERROR_KINDS.length);
    this.requests = 0;
    this.bytes = 0;
    this.missed = 0;
    /** Parse errors with no request in flight: bytes or a second response nobody asked for (also in the parse errors). */
    this.unsolicited = 0;
    this.bodySamples = {};
    /** status or kind → { status, kind, count, counter }: error texts, filled on the error paths only */
    this.errorTexts = new Map();
    this.notes = new Set();
    /** A mix's entries, each counted on its own as well (null: one request, the totals say it all). */
    this.endpoints = null;
  }

  /**
   * Counts each of `count` mix entries on its own too (its requests, latencies, errors, statuses, error texts).
   * @param {number} count
   */
  trackEndpoints(count) {
    this.endpoints = Array.from({ length: count }, () => new EndpointStats());
  }

  /**
   * An error's text, counted by status (non-2xx) or kind (connect, reset, tls): never
   * called for a 2xx response. At most ERROR_KEYS_KEPT keys; a text is already cleaned.
   * @param {number} status 0 for a failed request
   * @param {string} kind 'non2xx' or an ERROR_KINDS name
   * @param {string} text
   */
  errorText(status, kind, text, entry = -1) {
    countText(this.errorTexts, status, kind, text);
    if (entry >= 0 && this.endpoints !== null) countText(this.endpoints[entry].errorTexts, status, kind, text);
  }

  /** A completed response (any status), latency in ms; `entry`: the mix entry it answered. */
  response(status, latencyMs, mismatch, entry = 0) {
    this.requests++;
    this.statusCounts[status]++;
    this.latencies.recordMs(latencyMs);
    if (status < 200 || status > 299) this.failedResponse(NON2XX, latencyMs);
    else if (mismatch) this.failedResponse(MISMATCH, latencyMs);
    if (this.endpoints !== null) this.endpoints[entry].response(status, latencyMs, mismatch);
  }

  /** A response that came but failed (non-2xx, body mismatch): counted, and its latency kept apart. */
  failedResponse(kindIndex, latencyMs) {
    this.errorCounts[kindIndex]++;
    recordMs(this.failedHistogram, latencyMs);
  }

  /**
   * @param {number} kindIndex index into ERROR_KINDS
   * @param {number} [entry] the mix entry of the request that failed (-1: none was in flight)
   */
  error(kindIndex, entry = -1) {
    this.errorCounts[kindIndex]++;
    if (entry >= 0 && this.endpoints !== null) this.endpoints[entry].errorCounts[kindIndex]++;
  }

  /** Plain snapshot for postMessage; resets the counters for the next interval. */
  take() {
    this.latencies.foldInto(this.histogram);
    const errors = emptyErrors();
    for (let i = 0; i < ERROR_KINDS.length; i++) {
      errors[ERROR_KINDS[i]] = this.errorCounts[i];
      errors.total += this.errorCounts[i];
    }
    const statuses = {};
    for (let s = 100; s < 600; s++) if (this.statusCounts[s] > 0) statuses[s] = this.statusCounts[s];
    const snapshot = {
      requests: this.requests,
      bytes: this.bytes,
      missed: this.missed,
      unsolicited: this.unsolicited,
      errors,
      statuses,
      histogram: this.histogram.totalCount > 0 ? encodeHistogram(this.histogram) : null,
      failedHistogram: this.failedHistogram.totalCount > 0 ? encodeHistogram(this.failedHistogram) : null,
      bodySamples: this.bodySamples,
      errorTexts: [...this.errorTexts.values()].map(({ status, kind, counter }) => ({ status, kind, ...counter.snapshot() })),
      notes: [...this.notes],
      endpoints: this.endpoints === null ? null : this.endpoints.map((e) => e.take()),
    };
    this.histogram.reset();
    this.failedHistogram.reset();
    this.statusCounts.fill(0);
    this.errorCounts.fill(0);
    this.requests = 0;
    this.bytes = 0;
    this.missed = 0;
    this.unsolicited = 0;
    this.bodySamples = {};
    this.errorTexts.clear();
    this.notes.clear();
    return snapshot;
  }
}

/** One text more for a status or kind, at most ERROR_KEYS_KEPT of them. */
function countText(texts, status, kind, text) {
  const key = status || kind;
  let entry = texts.get(key);
  if (!entry) {
    if (texts.size >= ERROR_KEYS_KEPT) return;
    entry = { status: status || null, kind, counter: createTextCounter() };
    texts.set(key, entry);
  }
  entry.counter.add(text, 1, false);
}

function errorsOf(counts) {
  const errors = emptyErrors();
  for (let i = 0; i < ERROR_KINDS.length; i++) {
    errors[ERROR_KINDS[i]] = counts[i];
    errors.total += counts[i];
  }
  return errors;
}

function statusesOf(counts) {
  const statuses = {};
  for (let s = 100; s < 600; s++) if (counts[s] > 0) statuses[s] = counts[s];
  return statuses;
}

/** One mix entry's counters between two reports (worker side, hot path). */
class EndpointStats {
  constructor() {
    this.histogram = createHistogram();
    this.latencies = new LatencyCounts();
    this.statusCounts = new Float64Array(600);
    this.errorCounts = new Float64Array(ERROR_KINDS.length);
    this.requests = 0;
    this.errorTexts = new Map();
  }

  response(status, latencyMs, mismatch) {
    this.requests++;
    this.statusCounts[status]++;
    this.latencies.recordMs(latencyMs);
    if (status < 200 || status > 299) this.errorCounts[NON2XX]++;
    else if (mismatch) this.errorCounts[MISMATCH]++;
  }

  take() {
    this.latencies.foldInto(this.histogram);
    const snapshot = {
      requests: this.requests,
      errors: errorsOf(this.errorCounts),
      statuses: statusesOf(this.statusCounts),
      histogram: this.histogram.totalCount > 0 ? encodeHistogram(this.histogram) : null,
      errorTexts: [...this.errorTexts.values()].map(({ status, kind, counter }) => ({ status, kind, ...counter.snapshot() })),
    };
    this.histogram.reset();
    this.statusCounts.fill(0);
    this.errorCounts.fill(0);
    this.requests = 0;
    this.errorTexts.clear();
    return snapshot;
  }
}

/** Error index constants for the hot path (positions in ERROR_KINDS). */
export const CONNECT = 0;
export const RESET = 1;
export const TIMEOUT = 2;
export const PARSE = 3;
export const TLS = 6;

/**
 * Adds threads' error texts up with bounded memory: one text counter per status or
 * kind, at most ERROR_KEYS_KEPT of them.
 */
export function createErrorTexts() {
  const entries = new Map();
  return {
    /** @param {Array<{ status: number|null, kind: string, texts: Array<{ text: string, count: number }>, other: number }>} list */
    add(list) {
      for (const item of list) {
        const key = item.status ?? item.kind;
        let entry = entries.get(key);
        if (!entry) {
          if (entries.size >= ERROR_KEYS_KEPT) continue;
          entry = { status: item.status, kind: item.kind, counter: createTextCounter() };
          entries.set(key, entry);
        }
        entry.counter.merge(item);
      }
    },
    /**
     * @returns {Array<{ status: number|null, kind: string, count: number, texts: Array<{ text: string, count: number }>, other: number }>}
     *   most frequent first
     */
    list() {
      return [...entries.values()]
        .map(({ status, kind, counter }) => {
          const { texts, other, total } = counter.snapshot();
          return { status, kind, count: total, texts, other };
        })
        .sort((a, b) => b.count - a.count);
    },
  };
}
