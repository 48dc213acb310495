/**
 * startLoad()'s options, once for every caller: the defaults, the checks (a
 * UsageError naming the flag, in the words the CLI's option parsers use, since
 * they are these same functions: option-declarations.js), and the split of
 * connections, rate and request count over the generator threads. A run plan's
 * `load` (run-plan.js buildLoad) is checkLoad()'s output: the engine hands it to
 * startLoad() as it is, with the URL it drives.
 */
import { isIP } from 'node:net';
import { UsageError } from '../base/errors.js';
import { parseDuration, parseInteger, parsePositiveNumber } from '../base/units.js';
import { buildRequest } from './request.js';
import { parseTarget } from './target.js';
import { checkMix, mixTable } from './mix.js';

import {
  DEFAULT_CONNECTIONS, DEFAULT_DURATION_MS, DEFAULT_WARMUP_MS, DEFAULT_TIMEOUT_MS, DEFAULT_GENERATOR_THREADS, DEFAULT_SEED,
  OPEN_LOOP_HEADROOM_S, OPEN_LOOP_MIN_DEFAULT_CONNECTIONS, OPEN_LOOP_MAX_DEFAULT_CONNECTIONS, MAX_RATE,
} from '../base/thresholds.js';

/** Most keep-alive connections a run opens (count): past this a machine runs out of ephemeral ports. */
export const MAX_CONNECTIONS = 10_000;

/** Most generator threads (count): each costs memory (64 on 2 cores took ~1 GB). */
export const MAX_GENERATOR_THREADS = 64;

/**
 * What a load run does when an option is left out: the CLI's defaults (--help shows
 * them, option-declarations.js declares them from these same thresholds) and the API's.
 * `connections` has none here: 30 in a closed loop, rate × 0.5 s (10 to 1,000) in an open one.
 */
export const LOAD_DEFAULTS = Object.freeze({
  method: 'GET',
  durationMs: DEFAULT_DURATION_MS,
  warmupMs: DEFAULT_WARMUP_MS,
  timeoutMs: DEFAULT_TIMEOUT_MS,
  threads: DEFAULT_GENERATOR_THREADS,
  seed: DEFAULT_SEED,
});

/** An HTTP method: a token (RFC 9110), upper-cased as sent. */
export function checkMethod(value) {
  const method = String(value).toUpperCase();
  if (!/^[A-Z]+$/.test(method)) throw new UsageError(`--method '${value}' is not an HTTP method; use GET, POST, …`);
  return method;
}

/**
 * Each load option's parser: the CLI's text, the API's typed value or its text → the
 * typed value, or a UsageError naming the flag. The option declarations use these.
 */
export const LOAD_PARSERS = {
  connections: (v) => parseInteger(v, '--connections', { max: MAX_CONNECTIONS }),
  requests: (v) => parseInteger(v, '--requests'),
  durationMs: (v) => parseDuration(v, '--duration'),
  warmupMs: (v) => parseDuration(v, '--warmup', { allowZero: true }),
  rate: (v) => parsePositiveNumber(v, '--rate', { max: MAX_RATE }),
  timeoutMs: (v) => parseDuration(v, '--timeout'),
  method: checkMethod,
  threads: (v) => parseInteger(v, '--generator-threads', { max: MAX_GENERATOR_THREADS }),
  seed: (v) => parseInteger(v, '--seed', { min: 0 }),
};

/**
 * The options of one load run: startLoad()'s input, and a run plan's `load` (without `url`,
 * which the engine knows once the server listens). Every field may be left out; its default follows.
 * @typedef {object} LoadOptions
 * @property {string} [url] what to drive, e.g. 'http://127.0.0.1:3000/api' (startLoad() only: a plan has none)
 * @property {string} [method] 'GET'
 * @property {Record<string, string>} [headers] added to every request ({})
 * @property {string|Buffer|null} [body] null
 * @property {import('./mix.js').MixEntry[]|null} [mix] requests drawn by weight instead of method, the URL's path
 *   and body (null: one request); each entry's headers over `headers`
 * @property {number} [seed] seeds the draw from `mix` (1: two runs draw the same sequence)
 * @property {number|null} [connections] keep-alive connections (null: 30 closed loop; open loop rate × 0.5 s, 10 to 1,000,
 *   and at least one per thread)
 * @property {number|null} [durationMs] measured time (10 s; null with `requests`)
 * @property {number|null} [requests] measure this many requests instead (null)
 * @property {number} [warmupMs] unmeasured warm-up before it (2 s, as the CLI)
 * @property {number|null} [rate] open loop: requests per second (null: closed loop)
 * @property {number} [timeoutMs] per request (10 s)
 * @property {boolean} [verify] whether bodies are compared with `expected` (true)
 * @property {Buffer|string|null} [expected] the body every 2xx response must have (null: not checked)
 * @property {Buffer|string|null} [expectedBody] the older name of `expected`
 * @property {number} [threads] generator worker threads (1), at most `connections`
 * @property {boolean} [insecure] https: accept a certificate that does not verify (false)
 * @property {'fast'|'public'} [writePath] how requests are written (request-writer.js; 'fast')
 */

/**
 * The options with every default filled in and every value checked: a plan's `load`.
 * Checking its own output again gives it back unchanged.
 * @param {LoadOptions} options
 * @throws {UsageError}
 */
export function checkLoad(options) {
  const given = (name) => options[name] != null;
  const pick = (name) => (given(name) ? LOAD_PARSERS[name](options[name]) : LOAD_DEFAULTS[name] ?? null);
  const rate = pick('rate');
  const threads = pick('threads');
  const connections = given('connections') ? LOAD_PARSERS.connections(options.connections) : null;
  if (connections !== null && threads > connections) {
    throw new UsageError(`--generator-threads (${threads}) cannot exceed --connections (${connections})`);
  }
  const requests = given('requests') ? LOAD_PARSERS.requests(options.requests) : null;
  if (requests !== null && given('durationMs')) throw new UsageError('use either --duration or --requests, not both');
  const mix = options.mix == null ? null : checkMix(options.mix);
  if (mix && (given('body') || (given('method') && options.method !== LOAD_DEFAULTS.method))) {
    throw new UsageError('--mix gives each request its method, path and body: drop --method and --body');
  }
  const verify = options.verify !== false;
  const expected = options.expected ?? options.expectedBody ?? null;
  return {
    connections,
    durationMs: requests === null ? pick('durationMs') : null,
    requests,
    warmupMs: pick('warmupMs'),
    rate,
    timeoutMs: Math.round(pick('timeoutMs')),
    method: pick('method'),
    headers: options.headers ?? {},
    body: options.body ?? null,
    verify,
    expected: !verify || expected == null ? null : Buffer.isBuffer(expected) ? expected : Buffer.from(String(expected)),
    threads,
    insecure: Boolean(options.insecure),
    mix,
    seed: pick('seed'),
    writePath: checkWritePath(options.writePath),
  };
}

/**
 * Fills defaults and checks every option (checkLoad), then what the threads need:
 * the target, its connections, each request's bytes.
 * @param {LoadOptions} options
 * @throws {UsageError}
 */
export function normalizeOptions(options) {
  const target = parseTarget(options.url);
  const load = checkLoad(options);
  const connections = load.connections ?? Math.max(load.threads, defaultConnections(load.rate));
  const entries = load.mix ?? [{ name: `${load.method} ${target.path}`, method: load.method, path: target.path, headers: {}, body: load.body, weight: 1 }];
  return {
    ...load,
    url: target.url,
    target,
    connections,
    expectedBody: load.expected,
    entries,
    requests: load.requests,
    requestBytes: entries.map((e) => buildRequest({ ...target, path: e.path }, { method: e.method, headers: { ...load.headers, ...e.headers }, body: e.body })),
  };
}

/** Connections when none were given: 30 closed loop; open loop rate × 0.5 s, from 10 to 1,000. */
function defaultConnections(rate) {
  if (rate === null) return DEFAULT_CONNECTIONS;
  return Math.min(OPEN_LOOP_MAX_DEFAULT_CONNECTIONS, Math.max(OPEN_LOOP_MIN_DEFAULT_CONNECTIONS, Math.ceil(rate * OPEN_LOOP_HEADROOM_S)));
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
  const table = mixTable(opts.entries);
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
    noBody: opts.entries.map((e) => e.method === 'HEAD'),
    cumulative: table,
    // A mix's entries are counted one by one as well (load.endpoints).
    endpoints: opts.mix !== null,
    // Each thread its own stream of draws, all of them from --seed.
    seed: (opts.seed + i * 0x9e3779b9) >>> 0,
    expectedBody: opts.mix ? null : opts.expectedBody,
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

/** @typedef {ReturnType<typeof checkLoad>} CheckedLoad a run plan's `load`: LoadOptions checked, every default filled in */
