/**
 * Why requests failed, from what the server said: the error texts the generator
 * counted by status and kind (the first line of each non-2xx body, a failed
 * request's errno), the server's stderr lines, and its downstream connections.
 * Pure: figures in, the most telling text and the downstream it points at out.
 */
import { ERROR_RATE, OTHER_USER_SHARE, SERVER_OWN_FILES } from '../base/thresholds.js';
import { NEW_CONNECTION_CLOSE_TEXT } from '../load/connection.js';

/** @typedef {import('../base/result-types.js').ErrorTexts} ErrorTexts */
/** @typedef {{ errorTexts?: ErrorTexts[] }|null|undefined} WithErrorTexts a LoadResult, or a tune step's figures */
/** @typedef {{ peer: string, name: string|null, connections: number }} DownstreamPeer */

/**
 * Texts a downstream sends when it turns a client away: PostgreSQL's "sorry, too many
 * clients already" and "remaining connection slots are reserved", MySQL's "Too many
 * connections", Redis's "max number of clients reached", a refused TCP connect
 * (ECONNREFUSED, "connection refused"), and a pool's "timeout exceeded when trying to
 * connect" (node-postgres) or "timeout acquiring a connection" (knex, generic pools).
 */
const REFUSALS = [
  /too many (clients|connections)/i,
  /remaining connection slots/i,
  /max(imum)? number of clients/i,
  /ECONNREFUSED|connection refused/i,
  /timeout (exceeded )?when trying to connect/i,
  /timeout acquiring a connection/i,
];

/**
 * The most frequent error and its most frequent text.
 * @param {WithErrorTexts} load a LoadResult
 * @param {{ lines: Array<{ text: string, count: number }> }|null} [stderr] the server's stderr lines of the run
 * @returns {{ status: number|null, kind: string, count: number, text: string|null, textCount: number, stderr: { text: string, count: number }|null }|null}
 *   `text`: the top text of the top status or kind; `stderr`: the server's most frequent stderr line
 */
export function topError(load, stderr = null) {
  const top = load?.errorTexts?.[0] ?? null;
  const line = topStderrLine(stderr?.lines ?? []);
  if (!top) return null;
  const text = top.texts?.find((t) => t.text !== '') ?? null;
  return { status: top.status, kind: top.kind, count: top.count, text: text?.text ?? null, textCount: text?.count ?? 0, stderr: line };
}

/**
 * The server closed new connections with no answer while it answered on others: it holds fewer connections at once than
 * it was sent (server.maxConnections, a proxy's limit). "Why requests failed: reset ×8,001 'closed before the response
 * ended'" was all a server with maxConnections 5 under -c 10 was told, beside "the limit is the cores".
 * @param {ReturnType<typeof topError>} top the most frequent error
 * @param {number} succeeded requests that succeeded
 * @param {number|null} connections the connections the load used
 * @returns {{ connections: number|null }|null}
 */
export function connectionsTurnedAway(top, succeeded, connections) {
  if (top?.kind !== 'reset' || top.text !== NEW_CONNECTION_CLOSE_TEXT || !(succeeded > 0)) return null;
  return { connections: connections ?? null };
}

/** An error's own line: "Error: boom", "TypeError [ERR_X]: …". */
const ERROR_LINE = /^\s*(Uncaught )?[\w.]*(Error|Exception)\b[^:]*: /;
/** The line Node prints under an uncaught exception's stack. */
const NODE_TRAILER = /^Node\.js v\d+\.\d+\.\d+$/;
/** A stack frame: "at fn (file:1:2)", "at file:1:2". */
const STACK_FRAME = /^at (.+ \(.*\)|\S+:\d+:\d+)$/;
/** The rest of a crash's tail: frames left out, the error's fields (`{`, `code: 'ERR_X'`, `}`), the caret under a line. */
const CRASH_TRAILER = /^(… \d+ more frames?|\.\.\. \d+ more|[{}]|\w+: .*,|\w+: '[^']*'|\^+)$/;

/**
 * The line of a crashed server's stderr tail that says why: its last error line ("Error: boom"), else its last line
 * that is neither a stack frame nor Node's version under the stack. A Node crash's last line is "Node.js v20.20.2",
 * and that was what the crash reason quoted.
 * @param {string[]} lines
 * @returns {string|null}
 */
export function crashLine(lines) {
  const kept = lines.map((line) => line.trim()).filter((line) => line && !NODE_TRAILER.test(line) && !STACK_FRAME.test(line) && !CRASH_TRAILER.test(line));
  return kept.findLast((line) => ERROR_LINE.test(line)) ?? kept.at(-1) ?? null;
}

/**
 * The most frequent stderr line; among lines as frequent, an error's own line. A Node crash prints each of its
 * lines once, its location first: "its stderr said 'node:internal/fs/utils:351'" stood where "Error: EFBIG: file too
 * large, write" was two lines below.
 * @param {Array<{ text: string, count: number }>} lines most frequent first
 * @returns {{ text: string, count: number }|null}
 */
function topStderrLine(lines) {
  const first = lines[0] ?? null;
  if (!first) return null;
  return lines.find((l) => l.count === first.count && ERROR_LINE.test(l.text)) ?? first;
}

/**
 * The kinds of error that are the load generator's own socket to the server under test
 * (its connect refused, reset, timed out, its TLS handshake failed): whatever their
 * text, they are the target's, never a downstream's. Only an error that came back in a
 * response, or the server's stderr beside such errors or beside its own outbound
 * connections, tells of a downstream.
 */
const OWN_SOCKET_KINDS = new Set(['connect', 'reset', 'timeout', 'tls']);

/**
 * Whether an error-texts entry is a failed request of the generator's own (no response came).
 * @param {ErrorTexts} entry
 */
const ownSocket = (entry) => entry.status == null && OWN_SOCKET_KINDS.has(entry.kind);

/**
 * The texts of a run's errors that read as a downstream turning the server away, with
 * the downstream they name or, failing that, the one with the most connections.
 * The generator's own refused connects (ECONNREFUSED from the server under test) are
 * not: see targetRefusal().
 * @param {WithErrorTexts} load
 * @param {{ lines: Array<{ text: string, count: number }> }|null|undefined} stderr
 * @param {DownstreamPeer[]|null|undefined} downstreams
 * @returns {{ text: string, source: 'body'|'stderr', status: number|null, kind: string, count: number,
 *   downstream: { peer: string, name: string|null, connections: number }|null }|null}
 */
export function downstreamRefusal(load, stderr, downstreams) {
  const peers = downstreams ?? [];
  /** @param {string} text */
  const named = (text) => peers.find((d) => d.name && text.toLowerCase().includes(d.name.toLowerCase()));
  /** @param {string} text */
  const refuses = (text) => REFUSALS.some((re) => re.test(text)) || Boolean(named(text));
  const answered = (load?.errorTexts ?? []).filter((entry) => !ownSocket(entry));
  for (const entry of answered) {
    const hit = entry.texts?.find((t) => refuses(t.text));
    if (hit) return refusal(hit.text, 'body', entry, peers, named);
  }
  // The server's stderr speaks of a downstream when requests got error responses, or when it held outbound connections.
  const top = answered[0] ?? (peers.length > 0 ? load?.errorTexts?.[0] : null);
  const line = (stderr?.lines ?? []).find((l) => refuses(l.text));
  if (top && line) return refusal(line.text, 'stderr', top, peers, named);
  return null;
}

/**
 * The generator's own connects that the server under test refused (ECONNREFUSED):
 * nothing listened on its port at those moments (it restarted, crashed, or never
 * listened there).
 * @param {WithErrorTexts} load
 * @returns {{ count: number, text: string }|null} `count`: the connects refused
 */
export function targetRefusal(load) {
  const entry = (load?.errorTexts ?? []).find((e) => e.status == null && e.kind === 'connect');
  const refused = (entry?.texts ?? []).filter((t) => /ECONNREFUSED/.test(t.text));
  if (refused.length === 0) return null;
  return { count: refused.reduce((sum, t) => sum + t.count, 0), text: refused[0].text };
}

/**
 * @param {string} text
 * @param {'body'|'stderr'} source
 * @param {ErrorTexts} entry
 * @param {DownstreamPeer[]} peers
 * @param {(text: string) => DownstreamPeer|undefined} named
 */
function refusal(text, source, entry, peers, named) {
  const downstream = named(text) ?? peers[0] ?? null;
  return {
    text,
    source,
    status: entry.status,
    kind: entry.kind,
    count: entry.count,
    downstream: downstream ? { peer: downstream.peer, name: downstream.name, connections: downstream.connections } : null,
  };
}

/**
 * The other CPU users worth naming: each that used at least OTHER_USER_SHARE of the
 * cores, marked when it is one of the server's downstreams (the same process name
 * listens on a peer the server is connected to).
 * @param {Array<{ name: string, count: number, cores: number }>|null} users
 * @param {number|null} cores the machine's cores (the budget)
 * @param {Array<{ peer: string, name: string|null }>|null} downstreams
 * @returns {Array<{ name: string, count: number, cores: number, downstream: string|null }>}
 *   `downstream`: the peer it listens on, when the server talks to it
 */
export function bigOtherUsers(users, cores, downstreams) {
  if (!users || !cores) return [];
  return users
    .filter((u) => u.cores >= OTHER_USER_SHARE * cores)
    .map((u) => ({ ...u, downstream: downstreamOf(u, downstreams)?.peer ?? null }));
}

/**
 * The downstream an other CPU user is: one whose listening process is among its
 * processes or their parents (postgres's backends are children of the postmaster
 * that listens); by name only where the figures have no pids (an older result).
 * @param {{ name: string, pids?: number[], parents?: number[] }} user
 * @param {Array<{ peer: string, name: string|null, pid?: number|null }>|null} downstreams
 */
export function downstreamOf(user, downstreams) {
  const list = downstreams ?? [];
  const pids = user.pids;
  if (!Array.isArray(pids)) return list.find((d) => d.name && d.name === user.name) ?? null;
  return list.find((d) => d.pid != null && (pids.includes(d.pid) || (user.parents ?? []).includes(d.pid))) ?? null;
}

/**
 * What tune keeps of a run's error texts and stderr (a few hundred bytes): the three
 * most frequent statuses or kinds with their two most frequent texts, and the three
 * most frequent stderr lines.
 * @param {WithErrorTexts} load a LoadResult
 * @param {{ lines: Array<{ text: string, count: number }> }|null} stderr
 */
export function compactErrorTexts(load, stderr) {
  return {
    errorTexts: (load?.errorTexts ?? []).slice(0, 3).map((e) => ({ ...e, texts: e.texts.slice(0, 2) })),
    stderr: (stderr?.lines ?? []).slice(0, 3),
  };
}

/**
 * The server's open-files limit, where it explains the run's failed requests: connections that
 * were reset or failed to connect (≥ ERROR_RATE of the attempts) while the lowest soft limit of
 * the server's processes (ulimit -n) leaves fewer files than the run's connections plus what
 * Node holds itself. libuv accepts and closes a connection it has no descriptor for, so the
 * client sees a reset and nothing in a response or the server's stderr says why (under
 * `ulimit -n 40`, -c 100: 70% reset, and "check --path, --method").
 * @param {{ connections?: number|null, requests?: number, errors?: Record<string, number>|null }|null|undefined} load a LoadResult
 * @param {{ openFiles: number|null }|null|undefined} limits the lowest soft limits of the server's processes
 * @returns {{ openFiles: number, connections: number, failed: number, needed: number }|null} `needed`: the connections and what Node holds
 */
export function openFilesShort(load, limits) {
  const openFiles = limits?.openFiles;
  const connections = load?.connections ?? 0;
  if (typeof openFiles !== 'number' || !Number.isFinite(openFiles) || !(connections > 0)) return null;
  if (openFiles >= connections + SERVER_OWN_FILES) return null;
  const failed = (load?.errors?.reset ?? 0) + (load?.errors?.connect ?? 0);
  const attempts = (load?.requests ?? 0) + failed;
  if (failed === 0 || failed / attempts < ERROR_RATE) return null;
  return { openFiles, connections, failed, needed: connections + SERVER_OWN_FILES };
}
