import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../theme.js';
import { LIVE_ADVICE_MIN_MS } from '../../base/thresholds.js';

const h = React.createElement;

/** Reasons shown under the headline: the limit and the size (or the policy), the first two found. */
const LIVE_REASONS = 2;

/** 'advice ' before the headline, and the indent of every line under it. */
const LABEL = 'advice ';
const INDENT = ' '.repeat(LABEL.length);
/** A reason's lines after its first hang under its words, past its "- ". */
const HANG = INDENT + '  ';

/**
 * A line folded at `width` columns on spaces (a word longer than a line is cut), the
 * first line after `first`, the others after `rest`: the advice wraps rather than being
 * cut at the terminal's edge, and the panel knows how many lines it takes.
 * @param {string} text
 * @param {number} width
 * @param {string} [first] printed before the first line (counted in its width)
 * @param {string} [rest] printed before each later line
 * @returns {string[]} the lines, without `first` and `rest`
 */
export function foldLine(text, width, first = '', rest = '') {
  if (!Number.isFinite(width)) return [text];
  const lines = [];
  let room = Math.max(1, width - first.length);
  let line = '';
  for (const word of text.split(' ')) {
    let left = word;
    while (left.length > 0) {
      const sep = line ? 1 : 0;
      if (line.length + sep + left.length <= room) {
        line += (sep ? ' ' : '') + left;
        left = '';
      } else if (line) {
        lines.push(line);
        line = '';
        room = Math.max(1, width - rest.length);
      } else {
        line = left.slice(0, room);
        left = left.slice(room);
        if (left) {
          lines.push(line);
          line = '';
          room = Math.max(1, width - rest.length);
        }
      }
    }
  }
  lines.push(line);
  return lines;
}

/**
 * The words of the recommendation, passed in by the command from src/report/ (the
 * dashboard does not import report/): the headline first, then the reasons, each
 * starting "- ", then the basis.
 * @callback FormatAdvice
 * @param {import('../../analysis/run-advice.js').RunAdvice} advice
 * @param {object} plan the run's plan, as `start` gave it
 * @returns {string[]}
 */

/**
 * Lines the panel takes at `columns`: none without advice (not a run) or without its
 * words, one while it waits for enough data, the headline and LIVE_REASONS reasons
 * after, each folded at the edge.
 * @param {import('../live-advice.js').LiveAdvice|null} advice
 * @param {FormatAdvice|null} formatAdvice
 * @param {number} [columns]
 */
export function adviceLines(advice, formatAdvice, columns = Infinity) {
  if (!advice || !formatAdvice) return 0;
  if (!advice.current) return 1;
  const { headline, reasons } = foldedAdvice(advice, formatAdvice, columns);
  return headline.length + reasons.reduce((sum, lines) => sum + lines.length, 0);
}

/** The headline's lines and each shown reason's lines, folded at `columns`. */
function foldedAdvice(advice, formatAdvice, columns) {
  const [headline] = formatAdvice(advice.current, advice.plan);
  const confidence = confidenceOf(advice);
  return {
    confidence,
    headline: foldLine(`${confidence}${headline}`, columns, LABEL, INDENT),
    reasons: reasonLines(advice, formatAdvice).slice(0, LIVE_REASONS).map((line) => foldLine(line, columns, INDENT, HANG)),
  };
}

/** "[medium confidence, so far] ", first: a narrow terminal must not lose how sure the advice is. */
function confidenceOf(advice) {
  return advice.current.confidence ? `[${advice.current.confidence} confidence${advice.final ? '' : ', so far'}] ` : '';
}

/**
 * The recommendation so far, in the words of the summary's block, each line folded
 * at the terminal's edge (words wrap; nothing is cut with "…"), at most `maxLines`
 * lines: the headline first, then whole reasons while they fit (a short terminal
 * keeps the headline; the whole block follows the run).
 * @param {{ advice: import('../live-advice.js').LiveAdvice|null, formatAdvice: FormatAdvice|null, maxLines?: number,
 *   columns?: number }} props
 */
export function Advice({ advice, formatAdvice, maxLines = Infinity, columns = Infinity }) {
  const tone = useTone();
  if (!advice || !formatAdvice) return null;
  const label = h(Text, { bold: true }, LABEL);
  if (!advice.current) {
    return h(Text, { wrap: 'truncate-end' }, label, h(Text, { color: tone('dim') }, `after ${LIVE_ADVICE_MIN_MS / 1000} s of measurement`));
  }
  const { confidence, headline, reasons } = foldedAdvice(advice, formatAdvice, columns);
  const shown = headline.slice(0, Math.max(1, maxLines));
  let room = maxLines - shown.length;
  const whole = [];
  for (const lines of reasons) {
    if (lines.length > room) break;
    whole.push(lines);
    room -= lines.length;
  }
  // Each folded line is a Text of its own, cut (never re-wrapped) by Ink: the panel draws the lines it counted.
  const [first, ...more] = shown;
  const firstConfidence = first.startsWith(confidence) ? confidence : '';
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, { wrap: 'truncate-end' }, label, h(Text, { color: tone('dim') }, firstConfidence), h(Text, { color: tone('accent') }, first.slice(firstConfidence.length))),
    ...more.map((line, i) => h(Text, { key: `h${i}`, wrap: 'truncate-end' }, INDENT, h(Text, { color: tone('accent') }, line))),
    ...whole.flatMap((lines, r) => lines.map((line, i) => h(Text, { key: `r${r}.${i}`, wrap: 'truncate-end' }, `${i === 0 ? INDENT : HANG}${line}`))),
  );
}

function reasonLines(advice, formatAdvice) {
  return formatAdvice(advice.current, advice.plan).filter((line) => line.startsWith('- '));
}
