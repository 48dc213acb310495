import React from 'react';
import { Box, Text } from 'ink';
import { formatCount } from '../format.js';
import { useTone } from '../theme.js';

const h = React.createElement;

/** Error kinds of a LoadTick, in the order shown, with the word the user reads. */
const KINDS = [
  ['timeout', 'timeout'],
  ['reset', 'reset'],
  ['connect', 'connect failed'],
  ['parse', 'bad response'],
  ['mismatch', 'body mismatch'],
  ['tls', 'TLS handshake'],
];

/**
 * Non-2xx statuses and their counts, most frequent first.
 * @param {Record<string, number>|undefined} statuses
 * @returns {[string, number][]}
 */
export function non2xxStatuses(statuses) {
  return Object.entries(statuses ?? {})
    .filter(([status, count]) => !status.startsWith('2') && count > 0)
    .sort((a, b) => b[1] - a[1]);
}

/**
 * Errors by kind and non-2xx responses by status; red and marked "!" when any.
 * @param {{ tick: object|null }} props
 */
export function Errors({ tick }) {
  const tone = useTone();
  const errors = tick?.errors ?? { total: 0 };
  const kinds = KINDS.filter(([key]) => errors[key] > 0).map(([key, word]) => `${word} ${formatCount(errors[key])}`);
  const statuses = non2xxStatuses(tick?.statuses).map(([status, count]) => `${status} ×${formatCount(count)}`);
  if (!errors.total && kinds.length === 0 && statuses.length === 0) {
    return h(Text, { wrap: 'truncate-end' }, h(Text, { bold: true }, 'errors '), h(Text, { color: tone('ok') }, tick ? '0' : '–'));
  }
  return h(
    Box,
    { flexDirection: 'column' },
    h(
      Text,
      { wrap: 'truncate-end', color: tone('bad') },
      h(Text, { bold: true }, `! errors ${formatCount(errors.total)}`),
      kinds.length ? `: ${kinds.join(' · ')}` : '',
    ),
    statuses.length
      ? h(Text, { wrap: 'truncate-end', color: tone('bad') }, `! non-2xx ${formatCount(errors.non2xx)}: ${statuses.join(' · ')}`)
      : null,
  );
}
