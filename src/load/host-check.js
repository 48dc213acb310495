/**
 * The host of --url, checked before a run starts: an unresolvable name used to give a run
 * of 0 requests, "Errors none" and exit 0.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { UsageError } from '../errors.js';

/**
 * The WHATWG URL parser reads `http:///x` as host `x`; a user who typed three slashes
 * forgot the host.
 * @param {string} url as given
 * @throws {UsageError}
 */
export function checkHostGiven(url) {
  if (/^https?:\/{3}/i.test(String(url).trim())) {
    throw new UsageError(`--url '${url}' has no host; give one, like http://127.0.0.1:3000/`);
  }
}

/**
 * Resolves the host of `url`; an IP literal needs no lookup.
 * @param {string} url
 * @throws {UsageError} when the name does not resolve
 */
export async function checkHostResolves(url) {
  const host = new URL(url).hostname.replace(/^\[(.*)\]$/, '$1');
  if (isIP(host)) return;
  try {
    await lookup(host);
  } catch (error) {
    throw new UsageError(`--url ${url}: host '${host}' does not resolve (${error.code}); check the name, or give an IP address`);
  }
}

/**
 * Why a run that got no response failed, or null when something answered. A run stopped
 * early is not a failure of this kind.
 * @param {{ requests: number, errors: Record<string, number> }} load
 * @param {boolean} stoppedEarly
 * @returns {string|null}
 */
export function noResponseFailure(load, stoppedEarly) {
  if (stoppedEarly || load.requests > 0) return null;
  const kinds = Object.entries(load.errors ?? {}).filter(([kind, n]) => kind !== 'total' && n > 0).map(([kind, n]) => `${n} ${kind}`);
  return `no request got a response${kinds.length ? `: ${kinds.join(', ')} errors` : ''}; is the server listening at that address?`;
}
