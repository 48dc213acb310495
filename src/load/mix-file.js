/**
 * Reads a --mix file: a JSON array of entries, or a HAR 1.2 capture (`.har`, or any
 * JSON with `log.entries`) as browsers' DevTools and proxies export it. From a HAR,
 * each entry's method, path with query, headers and postData; requests that differ
 * only in an id-like path segment are one endpoint (`GET /items/:id`), weighted by
 * how many the capture holds; its host is dropped (the server under test answers).
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import { UsageError } from '../base/errors.js';
import { checkMix } from './mix.js';
import { pathTemplate, routeName } from '../base/route-template.js';

export { pathTemplate };

// Headers a capture carries that belong to its own connection, not to a request
// sent again elsewhere (RFC 9110 §7.6.1 hop-by-hop, host, the framing spawnbench sets).
const DROPPED_HEADERS = new Set([
  'connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer',
  'proxy-authenticate', 'proxy-authorization', 'host', 'content-length',
]);

/**
 * @param {string} file
 * @returns {import('./mix.js').MixEntry[]}
 * @throws {UsageError} one line naming the file, the entry and the field
 */
export function readMixFile(file) {
  const source = `--mix ${basename(String(file))}`;
  let text;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
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
  entries.forEach((entry, i) => {
    const request = entry?.request;
    let url;
    try {
      url = new URL(request?.url);
    } catch {
      throw new UsageError(`${source}: entry ${i + 1}: "request.url" ${JSON.stringify(request?.url ?? null)} is not a URL`);
    }
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
    const text = request.postData?.text;
    if (text != null && request.postData.mimeType && !headers['content-type']) headers['content-type'] = request.postData.mimeType;
    endpoints.set(key, { name: key, method, path, headers, body: text ?? null, weight: 1 });
  });
  return [...endpoints.values()];
}
