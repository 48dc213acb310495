/**
 * The words of error texts, stderr lines, other CPU users and downstreams, shared
 * by the summary, tune, diagnose and the run's recommendation. Every text that came
 * from the server is cleaned again here (escape sequences and control characters
 * out, cut to size): a result file read by `report` may have been edited by hand.
 * The HTML report escapes what these return.
 */
import { cleanText } from '../base/untrusted-text.js';
import { int } from './text-format.js';

/** @type {Record<string, string>} */
const KIND_LABELS = { connect: 'connect failed', reset: 'reset', timeout: 'timeout', parse: 'bad response', mismatch: 'body mismatch', tls: 'TLS handshake', non2xx: 'non-2xx' };

/**
 * A server's text, safe for a terminal: "'sorry, too many clients already'"
 * @param {string} text
 */
export function quote(text) {
  return `'${cleanText(text)}'`;
}

/**
 * "500" or "connect failed"
 * @param {{ status: number|null, kind: string|null }} error a tune size's most frequent error may have no kind
 */
export function errorLabel({ status, kind }) {
  // Without a kind, no label ('' is none, as 'null' was): cleanText() makes it ''.
  return status ? String(status) : KIND_LABELS[kind ?? ''] ?? cleanText(kind, 40);
}

/**
 * One line per status or kind with its most frequent text: "500 ×821: sorry, too many clients already".
 * @param {import('../base/result-types.js').ErrorTexts[]|undefined} errorTexts
 * @param {{ max?: number }} [options]
 * @returns {string[]}
 */
export function errorTextLines(errorTexts, { max = 3 } = {}) {
  return (errorTexts ?? []).slice(0, max).map((e) => {
    const texts = e.texts ?? [];
    const top = texts[0];
    const more = texts.length - 1 + (Number(e.other) > 0 ? 1 : 0);
    const text = top ? (top.text === '' ? '(empty body)' : cleanText(top.text)) : '';
    const share = top && top.count < e.count ? ` (×${int(top.count)})` : '';
    const others = more > 0 ? `; ${int(e.count - (top?.count ?? 0))} with other texts` : '';
    return `${errorLabel(e)} ×${int(e.count)}${text ? `: ${text}${share}${others}` : ''}`;
  });
}

/**
 * The server's most frequent stderr lines: "×821  error: sorry, too many clients already".
 * @param {import('../base/result-types.js').ServerStderr|null|undefined} stderr
 * @returns {string[]}
 */
export function stderrTextLines(stderr, { max = 3 } = {}) {
  const lines = stderr?.lines ?? [];
  const shown = lines.slice(0, max).map((l) => `×${int(l.count)}  ${cleanText(l.text)}`);
  const rest = (stderr?.total ?? 0) - lines.slice(0, max).reduce((sum, l) => sum + l.count, 0);
  if (rest > 0) shown.push(`and ${int(rest)} other line${rest === 1 ? '' : 's'}`);
  return shown;
}

/**
 * "postgres ×14: 1.2 cores"
 * @param {{ name: string, count: number, cores: number }} u
 */
export function otherUserText(u) {
  return `${cleanText(u.name, 40)} ×${int(u.count)}: ${cores(u.cores)}`;
}

/**
 * "postgres ×14: 1.2 cores, node ×2: 0.3 cores" (the busiest few), or null when none used CPU.
 * @param {import('../base/result-types.js').SamplesSummary['otherUsers']|undefined} otherUsers
 */
export function otherUsersText(otherUsers) {
  const users = otherUsers?.users ?? [];
  if (!otherUsers || users.length === 0) return null;
  // Number(): a missing count reads as NaN, as `>` has always read it.
  const rest = otherUsers.rest && Number(otherUsers.rest.names) > 0 ? `, ${int(otherUsers.rest.names)} more: ${cores(otherUsers.rest.cores)}` : '';
  return `${users.map(otherUserText).join(', ')}${rest}`;
}

/**
 * "127.0.0.1:5432 (postgres) 20 connections"
 * @param {import('../base/result-types.js').Downstream} d
 */
export function downstreamText(d) {
  const name = d.name ? ` (${cleanText(d.name, 40)})` : '';
  return `${cleanText(d.peer, 80)}${name} ${int(d.connections)} connection${d.connections === 1 ? '' : 's'}`;
}

/**
 * "postgres (127.0.0.1:5432)" or "127.0.0.1:5432"
 * @param {{ peer: string, name?: string|null }} d
 */
export function downstreamName(d) {
  return d.name ? `${cleanText(d.name, 40)} (${cleanText(d.peer, 80)})` : cleanText(d.peer, 80);
}

/**
 * 1.23 → "1.2 cores", 1 → "1.0 core"
 * @param {number} value
 */
export function cores(value) {
  return `${value.toFixed(1)} core${value.toFixed(1) === '1.0' ? '' : 's'}`;
}

/**
 * The summary's lines for a run's reasons: error texts under the Errors line, the server's
 * stderr, its downstreams, the other CPU users. Empty parts are left out.
 * @param {{ load?: { errorTexts?: import('../base/result-types.js').ErrorTexts[] }, serverStderr?: import('../base/result-types.js').ServerStderr|null, samples?: import('../base/result-types.js').SamplesSummary|null }} result
 * @returns {string[]}
 */
export function reasonLines(result) {
  const lines = errorTextLines(result.load?.errorTexts).map((l) => `           ${l}`);
  const stderr = stderrTextLines(result.serverStderr);
  if (stderr.length > 0) lines.push(`Stderr     ${stderr[0]}`, ...stderr.slice(1).map((l) => `           ${l}`));
  const downstreams = result.samples?.downstreams ?? [];
  if (downstreams.length > 0) lines.push(`Downstream ${downstreams.map(downstreamText).join(', ')}`);
  const others = otherUsersText(result.samples?.otherUsers);
  if (others) lines.push(`Other CPU  ${others}`);
  return lines;
}

/**
 * A server process that held a CPU while its probe was silent (analysis/busy-silence.js), in words.
 * @param {{ pid: number|null, label: string|null, silentMs: number, cpuPct: number, fromStart?: boolean }} s
 */
export function spinningText(s) {
  const who = s.pid !== null ? `pid ${s.pid}` : 'a server process';
  // Held from before the probe's first report: there is no ELU or loop delay to stop.
  if (s.fromStart) return `${who} kept a CPU ${Math.round(s.cpuPct)}% busy all along while its event loop reported nothing: JavaScript or a synchronous call held the loop from the start`;
  return `${who} kept a CPU ${Math.round(s.cpuPct)}% busy for the last ${(s.silentMs / 1000).toFixed(1)} s while its event loop reported nothing: JavaScript or a synchronous call held the loop (its ELU and loop delay above stop where it began)`;
}

/** What to do about a loop held by JavaScript. */
export const SPINNING_NEXT = 'find the code that never returns: a loop that does not end, a synchronous call (fs.*Sync, child_process.*Sync, a regex on a large input); node --inspect and a debugger\'s pause show where it is';

/**
 * Statuses that say a request was too large for the server, and what to do (errors-why; diagnose-words.js).
 * @type {Record<number, string>}
 */
export const TOO_LARGE = {
  431: 'its request headers are larger than the server takes (Node\'s default is 16 KB in all): send smaller ones (a HAR\'s cookies, -H), or raise its limit (--max-http-header-size, or maxHeaderSize in http.createServer)',
  413: 'its request body is larger than the server takes: send a smaller --body (or a mix entry\'s body), or raise the server\'s body limit',
};
