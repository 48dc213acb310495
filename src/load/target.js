import { UsageError } from '../base/errors.js';
import { checkHostGiven } from './host-check.js';

const URL_HINT = 'http://127.0.0.1:3000/path';
const DEFAULT_PORTS = { 'http:': 80, 'https:': 443 };

/**
 * Checks a target URL and splits it into what a socket and a request line need.
 * @param {string} url e.g. 'http://127.0.0.1:3000/path?x=1' or 'https://…'
 * @returns {{ url: string, host: string, port: number, path: string, hostHeader: string, tls: boolean }}
 * @throws {UsageError} one line naming --url and the expected form
 */
export function parseTarget(url) {
  checkHostGiven(url);
  let parsed;
  try {
    parsed = new URL(String(url));
  } catch {
    throw new UsageError(`--url must be an http:// or https:// URL like ${URL_HINT} (got '${url}')`);
  }
  if (!(parsed.protocol in DEFAULT_PORTS) || !parsed.hostname) {
    throw new UsageError(`--url must be an http:// or https:// URL like ${URL_HINT} (got '${url}')`);
  }
  if (parsed.username || parsed.password) {
    throw new UsageError(`--url must not carry credentials; send them with --header 'authorization: ...' (got '${url}')`);
  }
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1'); // IPv6 literals come bracketed
  return {
    url: parsed.href,
    host,
    port: parsed.port ? Number(parsed.port) : DEFAULT_PORTS[parsed.protocol],
    path: `${parsed.pathname || '/'}${parsed.search}`,
    hostHeader: parsed.host,
    tls: parsed.protocol === 'https:',
  };
}
