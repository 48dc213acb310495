/**
 * A mix's endpoints, each on its own (load.endpoints): share of the requests, req/s,
 * p50/p90/p99/max from its own histogram, errors by kind and status, and the first
 * lines of its error bodies. Names come from the user's mix file and texts from the
 * server: both are cleaned again here (untrusted-text.js), as a result file can be edited.
 */
import { cleanText } from '../base/untrusted-text.js';
import { int, msNumber, pct } from './text-format.js';

/** How many error texts an endpoint shows (the most frequent first). */
const TEXTS_SHOWN = 2;

/** Longest endpoint name shown in full in the text table (characters). */
const NAME_WIDTH = 32;

/**
 * The rows every view shows, one per endpoint: plain strings and numbers.
 * @param {import('../base/result-types.js').Endpoint[]|undefined|null} endpoints load.endpoints
 */
export function endpointRows(endpoints) {
  return (endpoints ?? []).map((e) => ({
    name: cleanText(e.name, 200),
    share: pct(e.share ?? 0, 1),
    weight: pct(e.weightShare ?? 0, 1),
    rps: int(e.rps),
    p50: msNumber(e.p50Ms),
    p90: msNumber(e.p90Ms),
    p99: msNumber(e.p99Ms),
    max: msNumber(e.maxMs),
    errors: endpointErrors(e),
    texts: (e.errorTexts ?? []).flatMap((t) => t.texts.map((x) => `${t.status ?? t.kind} ×${int(x.count)}: ${cleanText(x.text)}`)).slice(0, TEXTS_SHOWN),
  }));
}

/**
 * "none" or "12: non-2xx 12 (500 ×12)".
 * @param {import('../base/result-types.js').Endpoint} e
 */
function endpointErrors(e) {
  const total = e.errors?.total ?? 0;
  if (!total) return 'none';
  const kinds = Object.entries(e.errors).filter(([k, n]) => k !== 'total' && n > 0).map(([k, n]) => `${k} ${int(n)}`);
  const statuses = Object.entries(e.statuses ?? {}).filter(([s]) => !s.startsWith('2')).map(([s, n]) => `${s} ×${int(n)}`);
  return `${int(total)}: ${kinds.join(', ')}${statuses.length ? ` (${statuses.join(', ')})` : ''}`;
}

/**
 * The summary's Endpoints block (empty without a mix).
 * @param {{ endpoints?: import('../base/result-types.js').Endpoint[]|null }} load
 * @returns {string[]}
 */
export function formatEndpoints(load) {
  const rows = endpointRows(load?.endpoints);
  if (rows.length === 0) return [];
  const width = Math.min(NAME_WIDTH, Math.max(8, ...rows.map((r) => r.name.length)));
  /** @param {string} name */
  const fit = (name) => (name.length > width ? `${name.slice(0, width - 1)}…` : name.padEnd(width));
  const lines = [`Endpoints  ${'name'.padEnd(width)}  share (weight)    req/s     p50     p90     p99     max ms  errors`];
  for (const r of rows) {
    lines.push(`           ${fit(r.name)}  ${`${r.share} (${r.weight})`.padEnd(15)}  ${r.rps.padStart(7)} ${r.p50.padStart(7)} ${r.p90.padStart(7)} ${r.p99.padStart(7)} ${r.max.padStart(7)}     ${r.errors}`);
    for (const text of r.texts) lines.push(`             ${text}`);
  }
  return lines;
}
