/**
 * Reads a --mix file: a JSON array of entries, or a HAR 1.2 capture (`.har`, or any
 * JSON with `log.entries`) as browsers' DevTools and proxies export it. From a HAR,
 * each entry's method, path with query, headers and postData; requests that differ
 * only in an id-like path segment are one endpoint (`GET /items/:id`), weighted by
 * how many the capture holds; its host is dropped (the server under test answers).
 */
import { readFileSync, statSync } from 'node:fs';
import { constants } from 'node:buffer';
import { basename } from 'node:path';
import { UsageError } from '../base/errors.js';
import { checkMix, checkEntry } from './mix.js';
import { pathTemplate, routeName } from '../base/route-template.js';

export { pathTemplate };

// Headers a capture carries that belong to its own connection, not to a request
// sent again elsewhere (RFC 9110 §7.6.1 hop-by-hop, host, the framing spawnbench sets).
// A capture's postData.text is the body as sent before its content-encoding (HAR 1.2: plain text), so
// that header would tell the server a plain body is gzip.
const DROPPED_HEADERS = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer',
  'proxy-authenticate', 'proxy-authorization', 'host', 'content-length', 'content-encoding',
]);

/**
 * @param {string} file
 * @returns {import('./mix.js').MixEntry[]}
 * @throws {UsageError} one line naming the file, the entry and the field
 */
export function readMixFile(file) {
  const source = `--mix ${basename(String(file))}`;
  // A capture with its responses' bodies passes 512 MB, more than a string holds: it said "cannot read it
  // (ERR_STRING_TOO_LONG); give a JSON or .har file" of a .har file. A mix uses only the requests.
  const tooLong = () => new UsageError(`${source}: is ${Math.round(statSync(file).size / 2 ** 20)} MB, more than spawnbench reads (${Math.floor(constants.MAX_STRING_LENGTH / 2 ** 20)} MB); a capture that large holds its responses' bodies, which a mix does not use: drop them, e.g. jq 'del(.log.entries[].response.content.text)' ${basename(String(file))} > requests.har`);
  let text;
  try {
    if (statSync(file).size > constants.MAX_STRING_LENGTH) throw tooLong();
    const bytes = readFileSync(file);
    // A byte-order mark (an editor on Windows; PowerShell 5's > writes UTF-16) read as "not JSON".
    text = bytes[0] === 0xff && bytes[1] === 0xfe ? bytes.toString('utf16le', 2) : bytes.toString('utf8', bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    if (error.code === 'ERR_STRING_TOO_LONG') throw tooLong();
    throw new UsageError(`${source}: cannot read it (${error.code ?? error.message}); give a JSON or .har file`);
  }
  let data;
  try {
    data = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`${source}: is not JSON (${String(error.message).split('\n')[0]}); is it complete?`);
  }
  if (data && typeof data === 'object' && !Array.isArray(data) && ('log' in data || String(file).endsWith('.har'))) return checkMix(fromHar(data, source), source);
  return checkMix(data, source);
}

function fromHar(data, source) {
  const entries = data?.log?.entries;
  if (!Array.isArray(entries) || entries.length === 0) throw new UsageError(`${source}: a HAR without entries (log.entries is empty or missing); export the capture with its requests`);
  const endpoints = new Map();
  /** host → its requests in the capture */
  const hosts = new Map();
  entries.forEach((entry, i) => {
    const request = entry?.request;
    let url;
    try {
      url = new URL(request?.url);
    } catch {
      throw new UsageError(`${source}: entry ${i + 1}: "request.url" ${JSON.stringify(request?.url ?? null)} is not a URL`);
    }
    // A data: or blob: URL (a page's inline image) never went to a server: named here, not as a host without a name.
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new UsageError(`${source}: entry ${i + 1}: "request.url" is a ${url.protocol} URL, not a request to a server; drop such entries from the capture`);
    }
    const host = hostOf(url);
    hosts.set(host, (hosts.get(host) ?? 0) + 1);
    const method = String(request.method ?? 'GET').toUpperCase();
    const path = `${url.pathname || '/'}${url.search}`;
    const key = routeName(method, path);
    const known = endpoints.get(key);
    if (known) {
      known.weight++;
      return;
    }
    const headers = {};
    for (const { name, value } of Array.isArray(request.headers) ? request.headers : []) {
      const lower = String(name).toLowerCase();
      if (lower.startsWith(':') || DROPPED_HEADERS.has(lower)) continue;
      headers[lower] = String(value);
    }
    const text = postBody(request.postData, headers['content-type'], `${source}: entry ${i + 1}`);
    if (text != null && request.postData.mimeType && !headers['content-type']) headers['content-type'] = request.postData.mimeType;
    const endpoint = { name: key, method, path, headers, body: text ?? null, weight: 1 };
    // Checked here, where the capture's own entry number is known: checked later with the others, an error named
    // the endpoint's place among them ("entry 3" of a bad header in the capture's entry 5).
    checkEntry(endpoint, `${source}: entry ${i + 1}`);
    endpoints.set(key, endpoint);
  });
  // A page's capture holds its CDN's, fonts' and analytics' requests too: sent to the one server under test,
  // each was a 404 measured as its traffic.
  if (hosts.size > 1) {
    const [top] = [...hosts].sort((a, b) => b[1] - a[1]);
    const listed = [...hosts].sort((a, b) => b[1] - a[1]).slice(0, 4).map(([host, n]) => `${host} ×${n}`).join(', ');
    throw new UsageError(`${source}: holds requests to ${hosts.size} hosts (${listed}${hosts.size > 4 ? ', …' : ''}), and every request would go to the one server under test; keep one host's entries, e.g. jq '.log.entries |= map(select(.request.url | test("//${top[0]}[:/]")))' ${basename(source.slice('--mix '.length))} > one-host.har`);
  }
  return [...endpoints.values()];
}

/** Names of this machine: a capture of a dev server holds them side by side. */
const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * The host a request went to, its loopback names one: `localhost:3000`, `127.0.0.1:3000` and `[::1]:3000` are the
 * same server, and a capture of them was refused as "requests to 2 hosts … keep one host's entries".
 * @param {URL} url
 */
function hostOf(url) {
  return LOOPBACK.has(url.hostname) ? `localhost${url.port ? `:${url.port}` : ''}` : url.host;
}

/**
 * The body of a HAR entry's postData: its `text`, or, where a capture keeps a form as
 * `params` only (HAR 1.2 allows either), that form encoded again. Sent as an empty body,
 * a login form's POST went out with no fields and was measured all the same.
 * @param {{ text?: string|null, mimeType?: string, encoding?: string, params?: Array<{ name: string, value?: string, fileName?: string }> }|undefined} postData
 * @param {string|undefined} contentType the entry's own content-type header
 * @param {string} where '--mix x.har: entry N'
 * @returns {string|null}
 * @throws {UsageError} params that cannot be encoded again (a multipart form, a file)
 */
function postBody(postData, contentType, where) {
  // Some captures keep a body base64-encoded ("encoding": "base64", as HAR does for response content): sent as it is,
  // the server got the base64 text. Decoded where it is text; binary is refused (bodies are sent as UTF-8 text).
  if (postData?.text != null && String(postData.encoding ?? '').toLowerCase() === 'base64') {
    const bytes = Buffer.from(String(postData.text), 'base64');
    const text = bytes.toString('utf8');
    if (Buffer.from(text, 'utf8').equals(bytes)) return text;
    throw new UsageError(`${where}: "postData" is binary (base64), and spawnbench sends bodies as text; give this request's "body" in a JSON mix, or leave it out of the capture`);
  }
  if (!postData || postData.text != null) return postData?.text ?? null;
  const params = Array.isArray(postData.params) ? postData.params : [];
  if (params.length === 0) return null;
  const mime = String(contentType ?? postData.mimeType ?? '').toLowerCase();
  if (mime.startsWith('application/x-www-form-urlencoded') && !params.some((p) => p?.fileName != null)) {
    const form = new URLSearchParams();
    for (const p of params) form.append(String(p?.name ?? ''), String(p?.value ?? ''));
    return form.toString();
  }
  throw new UsageError(`${where}: "postData" holds params but no text, and a ${mime || 'body of no type'} cannot be rebuilt from them; export the capture with request bodies, or give this request's "body" in a JSON mix`);
}
