/**
 * A test reporter (node --test-reporter) that writes one JSON line with a file's
 * totals, counted from the runner's events rather than read back from the spec
 * reporter's text: test/matrix.js runs each file with the spec reporter on stdout and
 * this one into a file of its own, and adds the lines up.
 *
 * The counters and their rules are node's own (the spec summary's `ℹ tests …` lines):
 * a suite counts only as a suite; a test counts once in `tests` and once in exactly one
 * of todo, skipped, cancelled (stopped by its parent, or timed out), fail, pass.
 */

/** The counters, in the order node's summary prints them. */
export const COUNTERS = ['tests', 'suites', 'pass', 'fail', 'cancelled', 'skipped', 'todo'];

/** Failure types node counts as cancelled rather than failed. */
const CANCELLED = new Set(['cancelledByParent', 'testTimeoutFailure']);

/**
 * Adds one `test:pass` / `test:fail` event to the totals (other events are ignored).
 * @param {Record<string, number>} totals
 * @param {{ type: string, data?: any }} event
 */
export function countEvent(totals, { type, data }) {
  if (type !== 'test:pass' && type !== 'test:fail') return totals;
  if (data?.details?.type === 'suite') {
    totals.suites += 1;
    return totals;
  }
  totals.tests += 1;
  if (data?.todo) totals.todo += 1;
  else if (data?.skip) totals.skipped += 1;
  else if (type === 'test:pass') totals.pass += 1;
  else if (CANCELLED.has(data?.details?.error?.failureType)) totals.cancelled += 1;
  else totals.fail += 1;
  return totals;
}

/** Zeroed totals. */
export const emptyTotals = () => Object.fromEntries(COUNTERS.map((key) => [key, 0]));

/**
 * The reporter: the totals of everything the file ran, as one JSON line when it ends.
 * @param {AsyncIterable<{ type: string, data?: any }>} source
 */
export default async function * totalsReporter(source) {
  const totals = emptyTotals();
  for await (const event of source) countEvent(totals, event);
  // duration_ms: the file's process so far, as node's summary times its run from the start.
  yield `${JSON.stringify({ ...totals, duration_ms: Math.round(process.uptime() * 1000) })}\n`;
}
