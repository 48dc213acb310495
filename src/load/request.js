import { UsageError } from '../base/errors.js';

/**
 * Builds the bytes of the one request a run sends over and over. They are built
 * once and written as-is for every request (no per-request formatting).
 * @param {{ path: string, hostHeader: string }} target from parseTarget()
 * @param {{ method?: string, headers?: Record<string, string>, body?: string|Buffer|null }} [options]
 * @returns {Buffer}
 */
export function buildRequest(target, { method = 'GET', headers = {}, body = null } = {}) {
  const bodyBytes = body == null ? null : Buffer.isBuffer(body) ? body : Buffer.from(String(body));
  const fields = new Map([
    ['host', ['Host', target.hostHeader]],
    ['user-agent', ['User-Agent', 'spawnbench']],
    ['accept', ['Accept', '*/*']],
  ]);
  for (const [name, value] of Object.entries(headers ?? {})) {
    fields.set(name.toLowerCase(), [name, String(value)]);
  }
  // A body is framed by its length (no chunked uploads); a user header cannot
  // contradict the bytes we actually send.
  fields.delete('transfer-encoding');
  if (bodyBytes || /^(POST|PUT|PATCH)$/i.test(method)) {
    fields.set('content-length', ['Content-Length', String(bodyBytes ? bodyBytes.length : 0)]);
  } else {
    fields.delete('content-length');
  }
  let head = `${method.toUpperCase()} ${target.path} HTTP/1.1\r\n`;
  for (const [name, value] of fields.values()) {
    if (/[\r\n]/.test(name) || /[\r\n]/.test(value)) throw new UsageError(`--header '${name}' must not contain a line break`);
    head += `${name}: ${value}\r\n`;
  }
  head += '\r\n';
  const headBytes = Buffer.from(head, 'latin1');
  return bodyBytes ? Buffer.concat([headBytes, bodyBytes]) : headBytes;
}
