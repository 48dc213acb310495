/**
 * The host's count of connections a listening socket had no room for (TcpExt ListenOverflows in /proc/net/netstat):
 * a server whose accept queue (its listen backlog, 511 by default in Node, capped by net.core.somaxconn) is full
 * drops the handshake's last packet, and the client's connection, connected as far as it knows, waits on TCP's
 * retries for seconds while the server answers the others. Host-wide: it counts every program's listening sockets.
 */
import { readFileSync } from 'node:fs';

/**
 * ListenOverflows from the text of /proc/net/netstat, or null where it is not there.
 * @param {string} text
 * @returns {number|null}
 */
export function parseListenOverflows(text) {
  const lines = String(text).split('\n').filter((line) => line.startsWith('TcpExt:'));
  if (lines.length < 2) return null;
  const names = lines[0].trim().split(/\s+/);
  const values = lines[1].trim().split(/\s+/);
  const i = names.indexOf('ListenOverflows');
  const value = i > 0 ? Number(values[i]) : NaN;
  return Number.isFinite(value) ? value : null;
}

/** The host's ListenOverflows now, or null (not Linux, or unreadable). */
export function readListenOverflows() {
  try {
    return parseListenOverflows(readFileSync('/proc/net/netstat', 'utf8'));
  } catch {
    return null;
  }
}

/**
 * The note for requests the server never answered while it answered others (stall.js lostAtEnd), naming its full
 * accept queue when the host counted overflows during the load: at -c 10000, 3,966 requests waited 2 s on connections
 * not yet accepted, and the note blamed "a worker that died with them, a connection it stopped reading".
 * @param {{ count: number, oldestMs: number }} lost
 * @param {number|null} overflows ListenOverflows counted during the load (null: not read); named when at least one per lost request
 * @param {number} connections --connections
 * @returns {string}
 */
export function lostNote(lost, overflows, connections) {
  const one = lost.count === 1;
  const head = `${lost.count} ${one ? 'request was' : 'requests were'} still unanswered when the run ended, the oldest after ${(lost.oldestMs / 1000).toFixed(1)} s, while the server kept answering others`;
  const out = `and the figures leave ${one ? 'it' : 'them'} out`;
  // Each such connection had its handshake dropped once at least: fewer overflows than lost requests (another program's
  // socket, host-wide) do not explain them.
  if (overflows !== null && overflows > 0 && overflows >= lost.count) {
    return `${head}: a listening socket's accept queue overflowed ${overflows} ${overflows === 1 ? 'time' : 'times'} during the load (host-wide TcpExt ListenOverflows), so connections the server had not accepted yet waited on TCP's retries; ` +
      `give its listen() a larger backlog (Node's default is 511, capped by net.core.somaxconn) or use fewer than ${connections} --connections, ${out}`;
  }
  return `${head}: it lost ${one ? 'it' : 'them'} (a worker that died with ${one ? 'it' : 'them'}, a connection it stopped reading), ${out}`;
}
