import React from 'react';
import { Box, Text } from 'ink';
import { formatCount } from '../cell-format.js';
import { useTone } from '../theme.js';
import { workerDeathLabel } from '../../base/labels.js';
import { requestOutcome, mostlyFailed } from '../../analysis/request-outcome.js';
import { cleanText } from '../../base/untrusted-text.js';
import { tickFigure } from '../tick-figures.js';

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
 * The words that open the errors line when most measured requests failed (so far),
 * shown inverse so they cannot be missed: "! 85% FAILED" or "! ALL FAILED"; null otherwise
 * (the warm-up's errors are not counted: its tick has no measured requests).
 * @param {object|null} tick
 * @returns {string|null}
 */
export function failureAlarm(tick) {
  if (tick?.phase !== 'measure') return null;
  const outcome = requestOutcome(tick);
  if (!mostlyFailed(outcome)) return null;
  return outcome.id === 'none-succeeded' ? '! ALL FAILED' : `! ${Math.round(outcome.failedShare * 100)}% FAILED`;
}

/**
 * The lines Errors draws for these props: the errors line, the non-2xx line when a
 * status other than 2xx came back, a worker's death.
 * @param {{ tick: object|null, deaths?: object[] }} props
 */
export function errorsLines({ tick, deaths = [] }) {
  const errors = tick?.errors ?? { total: 0 };
  const statuses = non2xxStatuses(tick?.statuses).length > 0;
  const anyKind = KINDS.some(([key]) => errors[key] > 0);
  const death = deaths.length ? 1 : 0;
  if (!errors.total && !anyKind && !statuses) return 1 + death;
  return 1 + (statuses ? 1 : 0) + death;
}

/**
 * Errors by kind and non-2xx responses by status; red and marked "!" when any. A pool
 * worker's death gets a line of its own under them.
 * @param {{ tick: object|null, deaths?: import('../../analysis/worker-deaths.js').WorkerDeath[] }} props
 */
export function Errors({ tick, deaths = [] }) {
  const tone = useTone();
  const death = deaths.length ? deathLine(deaths) : null;
  const errors = tick?.errors ?? { total: 0 };
  const kinds = KINDS.filter(([key]) => errors[key] > 0).map(([key, word]) => `${word} ${formatCount(errors[key])}`);
  // The most frequent status with its most frequent first line, on the same line (the server's words, cleaned).
  const top = non2xxStatuses(tick?.statuses)[0]?.[0];
  const topText = (tick?.errorTexts ?? []).find((e) => String(e.status) === top)?.texts?.[0]?.text;
  const statuses = non2xxStatuses(tick?.statuses).map(([status, count]) => `${status} ×${formatCount(count)}${status === top && topText ? ` '${cleanText(topText, 120)}'` : ''}`);
  const alarm = failureAlarm(tick);
  // The count is the metric table's errors, live (src/ui/tick-figures.js); the kinds and statuses the tick's own.
  const total = tickFigure(tick, 'errors')?.value ?? errors.total;
  if (!total && kinds.length === 0 && statuses.length === 0) {
    const none = h(Text, { wrap: 'truncate-end' }, h(Text, { bold: true }, 'errors '), h(Text, { color: tone('ok') }, tick ? '0' : '–'));
    return death ? h(Box, { flexDirection: 'column' }, none, h(Text, { wrap: 'truncate-end', color: tone('bad') }, death)) : none;
  }
  return h(
    Box,
    { flexDirection: 'column' },
    h(
      Text,
      { wrap: 'truncate-end', color: tone('bad') },
      h(Text, { bold: true, inverse: Boolean(alarm) }, alarm ? `${alarm} · errors ${formatCount(total)}` : `! errors ${formatCount(total)}`),
      kinds.length ? `: ${kinds.join(' · ')}` : '',
    ),
    statuses.length
      ? h(Text, { wrap: 'truncate-end', color: tone('bad') }, `! non-2xx ${formatCount(errors.non2xx)}: ${statuses.join(' · ')}`)
      : null,
    death ? h(Text, { wrap: 'truncate-end', color: tone('bad') }, death) : null,
  );
}

/** "! worker 0 (pid 4242) died (SIGKILL) at 2.5 s; replaced by pid 4250", the latest, with how many more. */
function deathLine(deaths) {
  const more = deaths.length > 1 ? ` (${deaths.length} worker deaths)` : '';
  return `! ${workerDeathLabel(deaths.at(-1))}${more}`;
}
