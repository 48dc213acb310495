/**
 * When the connection count, not the server, bounds a closed loop's throughput.
 * Little's law: requests in flight = throughput × time in the system, so with every
 * connection always waiting on a response, throughput = connections / latency. When
 * that holds (the connections were busy, not waiting on the generator) and the
 * server had room (no limit in its samples), the throughput measured is what that
 * many connections can carry at that latency: more connections would find more.
 * Seen on a 16-core machine: 4 workers, 30 connections, p50 2.4 ms:
 * 30 / 2.4 ms ≈ 12,500 req/s, and 12,498 req/s measured (#36).
 * Pure: figures in, figures out; the wording is in report/.
 */
import { LITTLE_LAW_TOLERANCE } from '../base/thresholds.js';

/**
 * @typedef {object} LittleLaw
 * @property {number} connections
 * @property {number} latencyMs the mean latency, or the median where the mean is not known
 * @property {'mean'|'p50'} latencyFrom
 * @property {number} predictedRps connections / latency
 * @property {number} rps measured
 * @property {number} ratio predictedRps / rps
 * @property {boolean} holds the two agree within LITTLE_LAW_TOLERANCE: every connection was waiting on the server
 */

/**
 * Little's law on a closed loop's figures; null for an open loop or without the figures.
 * @param {{ mode?: string|null, connections?: number|null, rps?: number|null, meanMs?: number|null, p50Ms?: number|null }} load
 * @returns {LittleLaw|null}
 */
export function littleLaw({ mode = 'closed', connections = null, rps = null, meanMs = null, p50Ms = null }) {
  if (mode !== 'closed' || connections === null || !(connections > 0) || rps === null || !(rps > 0)) return null;
  const latencyFrom = (meanMs ?? 0) > 0 ? 'mean' : (p50Ms ?? 0) > 0 ? 'p50' : null;
  if (latencyFrom === null) return null;
  // the one of the two found above 0
  const latencyMs = /** @type {number} */ (latencyFrom === 'mean' ? meanMs : p50Ms);
  const predictedRps = connections / (latencyMs / 1000);
  const ratio = predictedRps / rps;
  return { connections, latencyMs, latencyFrom, predictedRps, rps, ratio, holds: Math.abs(ratio - 1) <= LITTLE_LAW_TOLERANCE };
}
