/**
 * startLoad() options: defaults, checks (UsageError naming the flag), and the
 * split of connections, rate and request count over the generator threads.
 */
import { isIP } from 'node:net';
import { UsageError } from '../errors.js';
import { buildRequest } from './request.js';
import { parseTarget } from './target.js';

import {
  DEFAULT_CONNECTIONS, DEFAULT_DURATION_MS, DEFAULT_TIMEOUT_MS, OPEN_LOOP_HEADROOM_S, OPEN_LOOP_MIN_DEFAULT_CONNECTIONS, OPEN_LOOP_MAX_DEFAULT_CONNECTIONS,
} from '../thresholds.js';

function positiveInt(value, flag) {
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} must be a whole number ≥ 1 (got ${value})`);
  return value;
}

function nonNegative(value, flag) {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new UsageError(`${flag} must be a number ≥ 0 (got ${value})`);
  }
  return value;
}

/**
 * Fills defaults and checks every option.
 * @param {object} options startLoad() options (see src/README.md)
 * @returns {object} normalized options plus `target` and `requestBytes`
 * @throws {UsageError}
 */
export function normalizeOptions(options) {
  const target = parseTarget(options.url);
  const method = String(options.method ?? 'GET').toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw new UsageError(`--method must be an HTTP method like GET or POST (got ${options.method})`);
  const rate = options.rate == null ? null : options.rate;
  if (rate !== null && !(typeof rate === 'number' && rate > 0 && Number.isFinite(rate))) {
    throw new UsageError(`--rate must be a number of requests per second > 0 (got ${rate})`);
  }
  const connections =
    options.connections == null
      ? rate === null
        ? DEFAULT_CONNECTIONS
        : Math.min(OPEN_LOOP_MAX_DEFAULT_CONNECTIONS, Math.max(OPEN_LOOP_MIN_DEFAULT_CONNECTIONS, Math.ceil(rate * OPEN_LOOP_HEADROOM_S)))
      : positiveInt(options.connections, '--connections');
  const requests = options.requests == null ? null : positiveInt(options.requests, '--requests');
  let durationMs = options.durationMs == null ? null : nonNegative(options.durationMs, '--duration');
  if (durationMs === 0) throw new UsageError('--duration must be longer than 0');
  if (requests !== null && durationMs !== null) throw new UsageError('use either --duration or --requests, not both');
  if (requests === null && durationMs === null) durationMs = DEFAULT_DURATION_MS;
  const threads = Math.min(positiveInt(options.threads ?? 1, '--generator-threads'), connections);
  const expected = options.expectedBody;
  return {
    url: target.url,
    target,
    method,
    connections,
    durationMs,
    requests,
    warmupMs: nonNegative(options.warmupMs ?? 0, '--warmup'),
    rate,
    timeoutMs: positiveInt(Math.round(options.timeoutMs ?? DEFAULT_TIMEOUT_MS), '--timeout'),
    expectedBody: expected == null ? null : Buffer.isBuffer(expected) ? expected : Buffer.from(String(expected)),
    threads,
    insecure: Boolean(options.insecure),
    writePath: checkWritePath(options.writePath),
    requestBytes: buildRequest(target, { method, headers: options.headers, body: options.body }),
  };
}

/**
 * 'fast' (the default): requests are written through the socket's handle where
 * this Node allows it (request-writer.js); 'public': always `socket.write()`, for
 * A/B measurements and tests. https always takes the public path.
 */
function checkWritePath(value = 'fast') {
  if (value !== 'fast' && value !== 'public') throw new UsageError(`writePath must be 'fast' or 'public' (got ${value})`);
  return value;
}

/** Splits `total` into `parts` whole shares differing by at most one. */
function share(total, parts, i) {
  return Math.floor(total / parts) + (i < total % parts ? 1 : 0);
}

/**
 * The workerData of each generator thread.
 * @param {ReturnType<typeof normalizeOptions>} opts
 */
export function threadConfigs(opts) {
  return Array.from({ length: opts.threads }, (_, i) => ({
    index: i,
    host: opts.target.host,
    port: opts.target.port,
    tls: opts.target.tls,
    // SNI carries a host name, never an IP literal (RFC 6066).
    servername: opts.target.tls && !isIP(opts.target.host) ? opts.target.host : undefined,
    insecure: opts.insecure,
    writePath: opts.writePath,
    requestBytes: opts.requestBytes,
    noBody: opts.method === 'HEAD',
    expectedBody: opts.expectedBody,
    connections: share(opts.connections, opts.threads, i),
    timeoutMs: opts.timeoutMs,
    warmupMs: opts.warmupMs,
    durationMs: opts.durationMs,
    requests: opts.requests === null ? null : share(opts.requests, opts.threads, i),
    // Threads interleave on one schedule: each sends every threads/rate seconds,
    // thread i offset by i/rate, so the arrivals of all threads are evenly spaced.
    rate: opts.rate === null ? null : opts.rate / opts.threads,
    rateOffsetMs: opts.rate === null ? 0 : (i * 1000) / opts.rate,
  }));
}
