/**
 * The after-result half of extras.js: --against and --assert added to a result,
 * their lines printed, the --html file written. Loaded with the engine or the saved
 * result, so --help and --version never load the analysis and the HTML report.
 */
import { fsReason, keptAsItWas, writeFileAtomic } from '../output/atomic-file.js';
import { RunError } from '../base/errors.js';
import { gateFigures, evaluateAssertions } from '../analysis/assert-evaluate.js';
import { againstBaseline, againstCompareBaseline } from '../analysis/against-deltas.js';
import { formatAssertions } from '../report/assert-text.js';
import { formatAgainst } from '../report/against-text.js';
import { renderHtml } from '../report/html/index.js';
import { ASSERT_FAILED_EXIT_CODE } from './extras.js';

/**
 * Adds the comparison and the assertions' outcomes to a result (a new object).
 * @param {object} result
 * @param {import('./extras.js').Extras} extras
 */
export function decorateResult(result, extras) {
  let out = result;
  if (extras.against) {
    const compared = out.kind === 'compare' ? againstCompareBaseline(out, extras.against.result) : againstBaseline(out, extras.against.result);
    out = { ...out, against: { file: extras.against.file, createdAt: extras.against.result.createdAt ?? null, ...compared } };
  }
  if (extras.asserts.length) out = { ...out, assertions: evaluateAssertions(extras.asserts, gateFigures(out)) };
  return out;
}

/**
 * After the summary: the comparison and assertion lines (on stderr when stdout
 * carries JSON), the HTML file. Returns 3 when an assertion failed, else 0.
 * @param {object} result a decorated result
 * @param {import('./extras.js').Extras} extras
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream }} io
 * @param {{ json?: boolean, outranked?: number|null }} output outranked: the exit code the command ends with
 *   instead of 3 (a failed run's 1, a signal's 130 or 143), said beside the failed gates
 */
export function finishExtras(result, extras, io, { json = false, outranked = null } = {}) {
  // The HTML first: a file that cannot be written ends the command with 1, and the gates' count said "(exit 3)".
  let unwritten = null;
  if (extras.html) {
    try {
      writeHtml(extras.html, result, extras);
    } catch (error) {
      if (!(error instanceof RunError)) throw error;
      unwritten = error;
    }
  }
  const exit = printExtras(result, extras, io, { json, outranked: outranked ?? (unwritten ? 1 : null), unwritten: Boolean(unwritten) && !outranked });
  if (unwritten) throw unwritten;
  return exit;
}

/**
 * The comparison with the baseline and one line per assertion, after the summary; the exit code the gates give.
 * @param {object} result a decorated result
 * @param {import('./extras.js').Extras} extras
 * @param {{ stdout: NodeJS.WritableStream, stderr: NodeJS.WritableStream }} io
 * @param {{ json?: boolean, outranked?: number|null, unwritten?: boolean }} [options] outranked: the exit code the command ends
 *   with instead of 3; unwritten: that 1 is an output file that could not be written
 * @returns {number}
 */
export function printExtras(result, extras, io, { json = false, outranked = null, unwritten = false } = {}) {
  const stream = json ? io.stderr : io.stdout;
  // Only the gates checked now: a saved result's own (report of a run that failed one) decided
  // nothing here, and `report f.json --html r.html` exited 3 where `report f.json` exited 0.
  const assertions = extras.asserts.length ? result.assertions ?? [] : [];
  if (result.against) stream.write(`\n${formatAgainst(result.against, result.against)}\n`);
  if (assertions.length) stream.write(`\n${formatAssertions(assertions, { outranked, unwritten })}\n`);
  return assertions.some((o) => !o.pass) ? ASSERT_FAILED_EXIT_CODE : 0;
}

/**
 * Writes the HTML report of a result, whole or not at all (a failed write leaves the previous
 * file as it was); a failure to write is a runtime error naming --html.
 */
export function writeHtml(path, result, extras = null) {
  try {
    writeFileAtomic(path, renderHtml(result, { baseline: extras?.against?.result }));
  } catch (error) {
    throw new RunError(`--html ${path}: cannot write the report (${fsReason(error)})${keptAsItWas(path)}`);
  }
}
