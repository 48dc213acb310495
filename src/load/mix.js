/**
 * A mix of requests (--mix): entries `{ name, method, path, headers, body, weight }`,
 * each request of a run drawn from them by weight. Checked here (one line naming the
 * entry and the field), from a JSON file, a HAR 1.2 capture (mix-file.js) or the API's array;
 * the draw is a cumulative table and one seeded random number (worker.js).
 */
import { UsageError } from '../base/errors.js';
import { MIX_MAX_ENTRIES } from '../base/thresholds.js';

/**
 * @typedef {object} MixEntry one endpoint of a mix
 * @property {string} name what it is called in the output and in `--assert 'p99{name}<…'` ('GET /items/:id')
 * @property {string} method
 * @property {string} path with its query, as sent
 * @property {Record<string, string>} headers over the run's --header values
 * @property {string|null} body
 * @property {number} weight its share of the requests is weight / the sum of the weights
 */

// A token (RFC 9110 §5.6.2): what an HTTP method is made of.
const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * Checks a mix and fills in each entry's defaults (weight 1, name `METHOD path`).
 * @param {unknown} list an array of entries
 * @param {string} [source] where it came from, for the error ('mix.json')
 * @returns {MixEntry[]}
 * @throws {UsageError} naming the entry (from 1) and the field
 */
export function checkMix(list, source = '--mix') {
  if (!Array.isArray(list)) throw new UsageError(`${source}: must be a JSON array of { "method", "path", "weight"? } entries`);
  if (list.length === 0) throw new UsageError(`${source}: has no entries; give at least one { "method", "path" }`);
  if (list.length > MIX_MAX_ENTRIES) throw new UsageError(`${source}: has ${list.length} endpoints, more than ${MIX_MAX_ENTRIES}; keep the API's routes and drop the rest (static files, other hosts)`);
  const entries = list.map((item, i) => checkEntry(item, `${source}: entry ${i + 1}`));
  const total = entries.reduce((sum, e) => sum + e.weight, 0);
  if (!(total > 0)) throw new UsageError(`${source}: every weight is 0; give at least one entry a weight above 0`);
  // Weights of 1e308 add up to Infinity: every share would be 0 and the last entry drawn every time.
  if (!Number.isFinite(total)) throw new UsageError(`${source}: the weights add up to more than a number holds; give smaller weights (only their ratios count: 1 and 3 draw 25% and 75%)`);
  const names = new Set();
  for (const [i, e] of entries.entries()) {
    if (names.has(e.name)) throw new UsageError(`${source}: entry ${i + 1}: "name" '${e.name}' is used by an earlier entry; give each entry its own name`);
    names.add(e.name);
  }
  return entries;
}

/**
 * One entry checked, its defaults filled in.
 * @param {any} item an entry as read (any JSON value)
 * @param {string} where what to call it in an error ('--mix x.har: entry 5')
 * @returns {MixEntry}
 * @throws {UsageError}
 */
export function checkEntry(item, where) {
  if (item === null || typeof item !== 'object' || Array.isArray(item)) throw new UsageError(`${where}: must be an object like { "method": "GET", "path": "/" }`);
  const method = item.method ?? 'GET';
  if (typeof method !== 'string' || !TOKEN.test(method)) throw new UsageError(`${where}: "method" ${JSON.stringify(method)} is not an HTTP method; use GET, POST, …`);
  if (item.path == null) throw new UsageError(`${where}: "path" is missing; give one like "/api/items"`);
  // A control character would go raw into the request line (and a terminal): refused with the spaces.
  if (typeof item.path !== 'string' || !item.path.startsWith('/') || /[\s\x00-\x1f\x7f]/.test(item.path)) {
    throw new UsageError(`${where}: "path" ${JSON.stringify(item.path)} must start with / and hold no spaces or control characters, like "/api/items?q=1"`);
  }
  // A route template ("/items/{id}", as an OpenAPI file writes it) is no path: its name was refused for its braces,
  // an error about a field the entry did not give.
  if (/[{}]/.test(item.path)) {
    throw new UsageError(`${where}: "path" ${JSON.stringify(item.path)} holds { or }: a mix sends each path as it is and fills in no template; give a real one like "/items/42" (paths that differ by an id show as one route, /items/:id)`);
  }
  const weight = item.weight ?? 1;
  if (typeof weight !== 'number' || !Number.isFinite(weight) || weight < 0) {
    throw new UsageError(`${where}: "weight" ${JSON.stringify(weight)} must be a number ≥ 0`);
  }
  /** @type {Record<string, string>} */
  const headers = {};
  if (item.headers != null) {
    if (typeof item.headers !== 'object' || Array.isArray(item.headers)) throw new UsageError(`${where}: "headers" must be an object of name: value`);
    for (const [name, value] of Object.entries(item.headers)) {
      // A control character (NUL, DEL, …) is no header value: the server would answer every request 400.
      if (!TOKEN.test(name) || /[\x00-\x08\x0a-\x1f\x7f]/.test(String(value))) throw new UsageError(`${where}: "headers" '${name}' must be a header name with a value on one line, without control characters`);
      headers[name.toLowerCase()] = String(value);
    }
  }
  let body = item.body ?? null;
  if (body !== null && typeof body !== 'string') {
    body = JSON.stringify(body);
    headers['content-type'] ??= 'application/json';
  }
  const upper = method.toUpperCase();
  const name = item.name == null ? `${upper} ${item.path}` : String(item.name);
  if (name.trim() === '' || /[{}\r\n]/.test(name)) throw new UsageError(`${where}: "name" ${JSON.stringify(name)} must be one line without { or }`);
  return { name, method: upper, path: encodePath(item.path), headers, body, weight };
}

/**
 * A path with its non-ASCII characters percent-encoded as UTF-8, as a URL has them (`--path /ünïcode`
 * alone is sent so): sent raw, every request of `/ünïcode` in a mix was answered 400.
 * @param {string} path
 */
function encodePath(path) {
  return path.replace(/[^\x00-\x7f]+/g, (text) => [...Buffer.from(text, 'utf8')].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''));
}

/**
 * The draw's table: entry i is drawn when a random number in [0, 1) falls below
 * `cumulative[i]` and not below the one before.
 * @param {Array<{ weight: number }>} entries
 * @returns {Float64Array}
 */
export function mixTable(entries) {
  const total = entries.reduce((sum, e) => sum + e.weight, 0);
  const table = new Float64Array(entries.length);
  let sum = 0;
  for (let i = 0; i < entries.length; i++) {
    sum += entries[i].weight;
    table[i] = sum / total;
  }
  table[entries.length - 1] = 1;
  return table;
}

/**
 * The entry a random number in [0, 1) falls on (a scan: mixes are a handful of entries).
 * @param {Float64Array} table from mixTable()
 * @param {number} r
 */
export function drawFrom(table, r) {
  let i = 0;
  while (r >= table[i] && i < table.length - 1) i++;
  return i;
}

/**
 * A seeded pseudo-random generator (mulberry32, as strategies/lib/random.js seeds the
 * balancers from --seed): the same seed draws the same sequence of requests.
 * @param {number} seed
 * @returns {() => number} a float in [0, 1) per call
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
