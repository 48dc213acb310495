import React from 'react';
import { Box, Text } from 'ink';
import { useTone } from '../theme.js';
import { LIVE_ADVICE_MIN_MS } from '../../thresholds.js';

const h = React.createElement;

/** Reasons shown under the headline: the limit and the size (or the policy), the first two found. */
const LIVE_REASONS = 2;

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
 * Lines the panel takes: none without advice (not a run) or without its words,
 * one while it waits for enough data, the headline and LIVE_REASONS reasons after.
 * @param {import('../live-advice.js').LiveAdvice|null} advice
 * @param {FormatAdvice|null} formatAdvice
 */
export function adviceLines(advice, formatAdvice) {
  if (!advice || !formatAdvice) return 0;
  return advice.current ? 1 + Math.min(LIVE_REASONS, reasonLines(advice, formatAdvice).length) : 1;
}

/**
 * The recommendation so far, in the words of the summary's block, one line
 * each (cut at the terminal's edge: the whole block follows the run), at most
 * `maxLines` lines (a short terminal keeps the headline).
 * @param {{ advice: import('../live-advice.js').LiveAdvice|null, formatAdvice: FormatAdvice|null, maxLines?: number }} props
 */
export function Advice({ advice, formatAdvice, maxLines = Infinity }) {
  const tone = useTone();
  if (!advice || !formatAdvice) return null;
  const label = h(Text, { bold: true }, 'advice ');
  if (!advice.current) {
    return h(Text, { wrap: 'truncate-end' }, label, h(Text, { color: tone('dim') }, `after ${LIVE_ADVICE_MIN_MS / 1000} s of measurement`));
  }
  const [headline] = formatAdvice(advice.current, advice.plan);
  // Confidence first: a narrow terminal cuts the end of the headline ("(this run: …)"), not how sure it is.
  const confidence = advice.current.confidence ? `[${advice.current.confidence} confidence${advice.final ? '' : ', so far'}] ` : '';
  return h(
    Box,
    { flexDirection: 'column' },
    h(Text, { wrap: 'truncate-end' }, label, h(Text, { color: tone('dim') }, confidence), h(Text, { color: tone('accent') }, headline)),
    ...reasonLines(advice, formatAdvice).slice(0, Math.min(LIVE_REASONS, maxLines - 1)).map((line, i) => h(Text, { key: i, wrap: 'truncate-end' }, `       ${line}`)),
  );
}

function reasonLines(advice, formatAdvice) {
  return formatAdvice(advice.current, advice.plan).filter((line) => line.startsWith('- '));
}
