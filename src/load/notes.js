import { OPEN_LOOP_BEYOND_SHARE, OPEN_LOOP_RATE_MET } from '../base/thresholds.js';

/**
 * Socket error codes that mean the generator's side ran out of something, and
 * the fix to print. Everything else is counted as a connect error without a note.
 */
const FIXES = {
  EMFILE: (c) => `EMFILE: too many open files for ${c} connections: raise the limit (ulimit -n 65536) or use fewer --connections`,
  ENFILE: (c) => `ENFILE: the system ran out of file handles for ${c} connections: raise fs.file-max or use fewer --connections`,
  DEPTH_ZERO_SELF_SIGNED_CERT: () => 'TLS: the server\'s certificate is self-signed: pass --insecure to accept it',
  ERR_SSL_WRONG_VERSION_NUMBER: () => 'TLS: the server did not answer the handshake with TLS: is it speaking https on that port?',
  TLS_HANDSHAKE_CLOSED: () => 'TLS: the server closed connections during the handshake',
  EADDRNOTAVAIL: (c) =>
    `EADDRNOTAVAIL: out of local ports for ${c} connections: use fewer --connections (or widen net.ipv4.ip_local_port_range)`,
};

/**
 * Notes for the error codes seen during a run.
 * @param {Iterable<string>} codes socket error codes (e.g. 'EMFILE')
 * @param {{ connections: number }} options
 * @returns {string[]}
 */
export function notesForCodes(codes, { connections }) {
  const notes = [];
  for (const code of new Set(codes)) if (FIXES[code]) notes.push(FIXES[code](connections));
  return notes;
}

/**
 * The note of a run that got no response and could not connect, where failed connects are most
 * of its errors; else null. A few connects that timed out beside many requests that did
 * (--timeout 1ms) are no sign that nothing listens there.
 * @param {{ requests: number, errors: { connect: number, total: number } }} measured
 * @param {string} url
 * @returns {string|null}
 */
export function unreachableNote({ requests, errors }, url) {
  if (requests > 0 || !(errors.connect > 0) || errors.connect * 2 <= errors.total) return null;
  return `could not connect to ${url}: is the server running and listening on that port?`;
}

/**
 * The note on requests of the open loop that went out late (`missed`); null when none did.
 * Connects that failed (a server that closed its listener, or restarts) leave connections
 * opening again rather than busy: more connections would be refused as well, so that case
 * does not say "raise --connections".
 * @param {{ missed: number, requests: number, errors: { connect: number } }} measured
 * @param {{ rate: number|null, connections: number, seconds: number, stalled?: boolean }} options
 *   `stalled`: the server stopped answering (load/stall.js): its connections waited on it, and neither --rate nor --connections is the fix
 * @returns {string|null}
 */
export function missedNote({ missed, requests, errors }, { rate, connections, seconds, stalled = false }) {
  if (!(missed > 0)) return null;
  if (stalled) return `${missed} requests could not be sent on time: the server stopped answering (below), and its connections waited on it`;
  if (errors.connect > 0 && errors.connect * 2 >= missed) {
    return `${missed} requests could not be sent on time: connections were being opened again after ${errors.connect} failed connects (nothing accepted them then), so more --connections would not help`;
  }
  const answeredRps = seconds > 0 ? requests / seconds : 0;
  if (rate !== null && answeredRps < rate * OPEN_LOOP_BEYOND_SHARE) {
    return `the open loop at ${rate} req/s is far beyond what was answered (${Math.round(answeredRps)} req/s): ${missed} requests could not be sent on time on the ${connections} connections, and the latency is mostly their wait; lower --rate, or raise --connections if the server has room`;
  }
  // Short of the rate: a server at its limit keeps its connections busy too, and more of them only queue. Seen: pbkdf2 at
  // --rate 400, cores 100% busy, 287 req/s answered: "all 200 connections were busy; raise --connections".
  if (rate !== null && answeredRps < rate * OPEN_LOOP_RATE_MET) {
    return `${missed} requests could not be sent on time: all ${connections} connections were busy, and ${Math.round(answeredRps)} req/s of the ${rate} offered were answered; raise --connections if the server has room, else lower --rate`;
  }
  return `${missed} requests could not be sent on time: all ${connections} connections were busy; raise --connections`;
}
