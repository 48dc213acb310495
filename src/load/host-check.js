/**
 * The host of --url, checked before a run starts: an unresolvable name used to give a run
 * of 0 requests, "Errors none" and exit 0.
 */
import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { UsageError } from '../base/errors.js';
import { formatDuration } from '../base/units.js';
import { stalledAtEnd } from './stall.js';

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
 * early is not a failure of this kind. The hint follows what went wrong: only connect
 * errors ask whether the server listens there. With no error at all the requests were
 * sent and none finished in the measured time (responses longer than the run, or a run
 * of a few milliseconds); with bad responses something that is not an HTTP/1.1 server
 * answered; and so on, by the most frequent kind.
 * @param {{ requests: number, errors: Record<string, number>, bytes?: number, durationMs?: number, mode?: string, rate?: number|null, missed?: number, unanswered?: object }} load
 * @param {boolean} stoppedEarly
 * @param {{ durationMs?: number|null, timeoutMs?: number|null }} [planned] the plan's --duration and --timeout
 * @returns {string|null}
 */
export function noResponseFailure(load, stoppedEarly, planned = {}) {
  if (stoppedEarly || load.requests > 0) return null;
  const { what, hint } = noResponseReason(load, planned);
  return `${what}; ${hint}`;
}

/**
 * The two halves of that failure: what happened ("no request got a response: 9 bad
 * responses") and what to do, by the most frequent error kind; diagnose's verdict
 * shows the second as its next step.
 * @param {{ errors: Record<string, number>|number, bytes?: number, mode?: string, rate?: number|null, missed?: number, unanswered?: object, speaksTls?: boolean, errorTexts?: Array<{ kind: string, texts?: Array<{ text: string, count: number }> }>, spinning?: { pid: number|null, cpuPct: number, silentMs: number, fromStart?: boolean }|null }} load
 *   speaksTls: a TLS handshake succeeded where plain HTTP was sent (src/runner/engine-shell.js); spinning: a server process
 *   on a CPU while its probe was silent (analysis/busy-silence.js), set by the engine where nothing was answered
 * @param {{ durationMs?: number|null, timeoutMs?: number|null }} [planned]
 * @returns {{ what: string, hint: string }}
 */
export function noResponseReason(load, planned = {}) {
  const kinds = Object.entries(typeof load.errors === 'object' ? load.errors ?? {} : {})
    .filter(([kind, n]) => kind !== 'total' && n > 0)
    .sort((a, b) => b[1] - a[1]);
  const counted = kinds.map(([kind, n]) => `${n} ${ERROR_WORDS[kind] ?? `${kind} errors`}`).join(', ');
  const window = planned.durationMs ? ` within the measured ${formatDuration(planned.durationMs)}` : '';
  const longer = 'give a longer --duration, or measure with -n <requests>';
  if (kinds.length === 0) {
    // Nothing answered while a server process kept a CPU busy and its probe was silent: its loop was held, and "the
    // measured phase was too short for them; give a longer --duration" sent its user after a longer run.
    const spinning = load.spinning;
    if (spinning) {
      const who = spinning.pid !== null ? `pid ${spinning.pid}` : 'a server process';
      return {
        what: `no response arrived${window}: ${who} kept a CPU ${Math.round(spinning.cpuPct)}% busy ${spinning.fromStart ? 'all along' : `for the last ${(spinning.silentMs / 1000).toFixed(1)} s`}, its event loop silent: JavaScript or a synchronous call held it`,
        hint: 'find the loop that never ends or the synchronous call (fs.*Sync, a regex on a large input); node --inspect shows where',
      };
    }
    // Answered in the warm-up, then not: its requests held the connections, and nothing measured was sent.
    const stall = stalledAtEnd(load);
    if (stall?.inWarmup) {
      return {
        what: `no response arrived${window}: the server stopped answering in the warm-up: it answered ${stall.warmupAnswered} ${stall.warmupAnswered === 1 ? 'request' : 'requests'} (the slowest in ${Math.round(stall.answeredMaxMs * 10) / 10} ms), then left ${stall.count} unanswered, the oldest after ${(stall.oldestMs / 1000).toFixed(1)} s`,
        hint: 'find what held it: its own output, a stopped process, a lock, a downstream that never answers',
      };
    }
    if (load.mode === 'open' && load.missed > 0) {
      return { what: `no response finished${window}: an open loop at ${load.rate} req/s is far beyond what the server answers`, hint: 'lower --rate' };
    }
    // Responses begun (their heads arrived) and none ended: a stream (server-sent events, a long poll) has no end to
    // time, and "give a longer --duration" was said of one.
    const begun = /** @type {{ begun?: number }|undefined} */ (load.unanswered)?.begun ?? 0;
    if (begun > 0) {
      return {
        what: `no response finished${window}: ${begun} ${begun === 1 ? 'response had' : 'responses had'} begun (the status and headers arrived) and none ended`,
        hint: 'a stream (server-sent events, a long poll) never ends: give --path a route whose response ends; a body slower than the run needs a longer --duration, or -n <requests>',
      };
    }
    // The bytes are the counted requests' own (a warm-up request answered in the measured phase is not one).
    return load.bytes > 0
      ? { what: `no response finished${window}: responses were still arriving when it ended (each takes longer than the measured phase)`, hint: longer }
      : { what: `no response arrived${window}: requests were sent and none finished in it (the measured phase was too short for them)`, hint: longer };
  }
  if (kinds[0][0] === 'reset' && load.speaksTls) {
    return {
      what: `no request got a response: ${counted}`,
      hint: 'the server speaks https (TLS) there and spawnbench sent plain HTTP: give --url https://… (--insecure for a self-signed certificate); a server started after -- is driven over http only, so start it yourself for --url',
    };
  }
  // Bytes that start as HTTP/1.x and then break it (two Content-Lengths, a head over 64 KB) come from an HTTP server on
  // the right port: "is it the right port?" sent its user after the address.
  const broken = kinds[0][0] === 'parse' ? brokenHttp(load.errorTexts) : null;
  if (broken) {
    return { what: `no request got a response: ${counted}`, hint: `the server answers HTTP/1.1 but breaks it (${broken}); spawnbench reads responses as strictly as a proxy: fix what the server sends` };
  }
  const hint = HINTS[kinds[0][0]] ?? (() => 'is the server at that address answering HTTP?');
  return { what: `no request got a response: ${counted}`, hint: hint(planned) };
}

/** Each error kind as a count's noun, as the summary's error table names them. */
const ERROR_WORDS = { connect: 'connect errors', reset: 'resets', timeout: 'timeouts', parse: 'bad responses (not HTTP/1.1)', tls: 'TLS handshake errors' };

/** What to check, by the most frequent error kind. */
const HINTS = {
  connect: () => 'is the server listening at that address?',
  parse: () => 'what answers at that address does not speak HTTP/1.1: is it the right port (an https server needs https://)?',
  timeout: (p) => `the server accepted connections but answered none within --timeout${p.timeoutMs ? ` ${formatDuration(p.timeoutMs)}` : ''}; is it stuck, or does it need a longer --timeout?`,
  reset: () => 'the server closed or reset every connection before answering; its own log says why',
  tls: () => 'the TLS handshake failed; the notes below say why',
};


/** What the parser said of responses that began as HTTP/1.x, the most frequent; null when they did not begin so. */
function brokenHttp(errorTexts) {
  const texts = (Array.isArray(errorTexts) ? errorTexts : []).filter((e) => e?.kind === 'parse').flatMap((e) => e.texts ?? []);
  const top = texts.filter((t) => typeof t?.text === 'string').sort((a, b) => (b.count ?? 0) - (a.count ?? 0))[0];
  if (!top || /does not start with HTTP|bad HTTP version/.test(top.text)) return null;
  return top.text;
}
