/**
 * The recommendation of a run in the HTML report. Its words are the text
 * summary's own "Recommendation" block (one wording for terminal and page);
 * a result whose summary has none but carries a `recommendation` object gets
 * that object's headline figures and reasons, so nothing in it is dropped.
 */
import { esc } from './svg.js';
import { section, table } from './page.js';
import { commandLine } from '../../analysis/confirm-command.js';

/**
 * The "Recommendation" block of a text summary: its lines up to the next blank line.
 * @param {string} text
 * @returns {string[]|null}
 */
export function recommendationLines(text) {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^Recommendation\b/.test(l) || /^No recommendation\b/.test(l));
  if (start < 0) return null;
  const end = lines.findIndex((l, i) => i > start && l.trim() === '');
  return lines.slice(start, end < 0 ? undefined : end);
}

/**
 * A recommendation as a result file may hold it, from this version or another (strings for
 * reasons, `sentences`, a `confirmWith` with a command or an argv): free-form JSON, read field by field.
 * @typedef {Record<string, any>} FileRecommendation
 */

/**
 * @param {{ recommendation?: object|null }} result RunResult
 * @param {string} summaryText the run's text summary
 */
export function recommendationSection(result, summaryText) {
  const lines = recommendationLines(summaryText);
  if (lines) {
    const body = paragraphs(lines.slice(1));
    return section('Recommendation', `<div class="verdict ok">${body.map((l) => `<p>${esc(l)}</p>`).join('')}</div>`);
  }
  const rec = /** @type {FileRecommendation|null|undefined} */ (result.recommendation);
  if (!rec || typeof rec !== 'object') return '';
  const head = ['strategy', 'size', 'policy', 'basis', 'confidence'].filter((k) => rec[k] !== undefined && rec[k] !== null);
  const parts = [];
  if (Array.isArray(rec.sentences)) parts.push(...rec.sentences.map((s) => `<p>${esc(s)}</p>`));
  if (head.length) parts.push(table(head, [head.map((k) => String(rec[k]))]));
  const reasons = (rec.reasons ?? []).map((/** @type {string|{ id: string, figures?: object }} */ r) => (typeof r === 'string' ? [r, ''] : [r.id, JSON.stringify(r.figures ?? {})]));
  if (reasons.length) parts.push(table(['reason', 'figures'], reasons, { textColumns: [1] }));
  const confirm = typeof rec.confirmWith?.command === 'string' ? rec.confirmWith.command : Array.isArray(rec.confirmWith?.argv) ? commandLine(rec.confirmWith.argv) : null;
  if (confirm) parts.push(`<p>Confirm with: <code>${esc(confirm)}</code></p>`);
  return parts.length ? section('Recommendation', `<div class="verdict ok">${parts.join('')}</div>`) : '';
}

/**
 * Lines wrapped for an 80-column terminal, joined back into paragraphs: a line
 * starts a new one after a sentence's end (. : ?), when it is a list item, or
 * when it comes back out to a list item's indent (the item's wrapped lines hang
 * further in).
 * @param {string[]} lines
 * @returns {string[]}
 */
export function paragraphs(lines) {
  /** @type {string[]} */
  const out = [];
  /** @type {number|null} */
  let item = null; // indent of the list item being continued
  for (const raw of lines) {
    const line = raw.trim();
    if (!line) continue;
    const indent = raw.length - raw.trimStart().length;
    const last = out.at(-1);
    const fresh = last === undefined || line.startsWith('- ') || /[.:?]$/.test(last) || (item !== null && indent <= item);
    if (fresh) {
      out.push(line);
      item = line.startsWith('- ') ? indent : null;
    } else {
      out[out.length - 1] = `${last} ${line}`;
    }
  }
  return out;
}
