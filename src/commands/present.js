/**
 * Shows an engine while it runs (live dashboard on a TTY, progress lines on stderr
 * otherwise) and prints its result: the text summary, or one JSON document.
 */
import { mountDashboard, attachProgressLines, shouldUseDashboard } from '../ui/index.js';
import { writeResultFile } from '../report/result-file.js';
import { withWords } from '../report/words.js';
import { createLogger, closeLogger } from '../output/logger.js';
import { handleSignals } from './signals.js';
import { hasExtras } from './extras.js';
import { decorateResult, printExtras, writeHtml } from './extras-result.js';
import { checkHostResolves } from '../load/host-check.js';
import { targetOf } from '../base/target-kinds.js';
import { RunError } from '../base/errors.js';

/** The shell's code for a process ended by Ctrl-C (128 + SIGINT). */
const SIGINT_EXIT_CODE = 130;

/**
 * Runs an engine (anything with start(), stop() and the run events) under the
 * chosen presentation and the signal handlers.
 * @param {object} engine
 * @param {{ json: boolean, dashboard: boolean, out: string|null }} output
 * @param {object} io { stdout, stderr, stdin, env }
 * @param {(result: object) => string} format text summary
 * @param {import('./extras.js').Extras} [extras] --against, --assert, --html (checked already)
 * @param {{ formatAdvice?: import('../ui/components/advice.js').FormatAdvice }} [views] words the dashboard shows while it
 *   runs (a run's live recommendation)
 * @param {() => string|null} [commitLog] puts the --log-file in place; why it could not be written, or null
 * @returns {Promise<{ result: object|null, exitCode: number }>}
 */
export async function presentEngine(engine, output, io, format, extras = null, views = {}, commitLog = () => null) {
  const signals = handleSignals(() => engine.stop());
  const live = shouldUseDashboard({ stdout: io.stdout, env: io.env, json: output.json, dashboard: output.dashboard });
  const ui = live ? await mountDashboard(engine, { stdout: io.stdout, stdin: io.stdin, stderr: io.stderr, formatSummary: format, formatAdvice: views.formatAdvice }) : null;
  const detach = live ? () => {} : attachProgressLines(engine, io.stderr);
  let result;
  try {
    result = withWords(await engine.start());
  } catch (error) {
    // Ctrl-C while the server was still starting: nothing was measured, nothing is left running.
    if (!error.stoppedEarly) throw error;
    io.stderr.write('spawnbench: stopped before the load started; nothing was measured\n');
    return { result: null, exitCode: signals.exitCode() ?? SIGINT_EXIT_CODE };
  } finally {
    detach();
    if (ui) {
      if (!result) ui.unmount?.();
      await ui.done.catch(() => {});
    }
    signals.release();
  }
  if (hasExtras(extras)) result = decorateResult(result, extras);
  if (output.json) io.stdout.write(`${JSON.stringify(result)}\n`);
  else if (!live) io.stdout.write(`${format(result)}\n`);
  // After the summary: the files (--html, --out, the log), then the comparison and one line per assertion, whose
  // count says the exit code: a file that could not be written ends the command with 1, where it said "(exit 3)".
  /** @type {RunError[]} */
  const unwritten = [];
  const interruptedByKey = ui?.interrupted?.() ? SIGINT_EXIT_CODE : null;
  // A crash or a signal outranks a failed assertion: 3 only when the run itself went through.
  const outranked = signals.exitCode() ?? interruptedByKey ?? (result.exitCode || null);
  // An --html that cannot be written still lets --out be written: it used to be skipped, unsaid.
  if (extras?.html) {
    try {
      writeHtml(extras.html, result, extras);
    } catch (error) {
      if (!(error instanceof RunError)) throw error;
      unwritten.push(error);
    }
  }
  // A file that cannot be written (checked at start, yet a disk fills up) loses nothing shown.
  if (output.out) {
    try {
      writeResultFile(output.out, result);
    } catch (error) {
      unwritten.push(error);
    }
  }
  const logError = commitLog();
  if (logError) unwritten.push(new RunError(logError));
  const failedWrite = unwritten.length > 0;
  const gateExit = hasExtras(extras) ? printExtras(result, /** @type {import('./extras.js').Extras} */ (extras), io, { json: output.json, outranked: outranked ?? (failedWrite ? 1 : null), unwritten: failedWrite && !outranked }) : 0;
  if (failedWrite) {
    for (const error of unwritten) io.stderr.write(`spawnbench: ${error.message}\n`);
    return { result, exitCode: 1 };
  }
  return { result, exitCode: outranked ?? gateExit };
}

/**
 * What every measuring command does with its plan: a logger for --log-file, the
 * engine, the presentation; returns the exit code.
 * @param {{ output: object, target?: { kind: string, url?: string } }} plan
 * @param {(plan: object, deps: { logger: object }) => object} createEngine
 * @param {(result: object) => string} format
 * @param {object} io
 * @param {import('./extras.js').Extras} [extras]
 * @param {{ formatAdvice?: import('../ui/components/advice.js').FormatAdvice }} [views] see presentEngine()
 */
export async function runEngineCommand(plan, createEngine, format, io, extras = null, views = {}) {
  const { url } = targetOf(plan.target);
  if (url !== null) await checkHostResolves(url);
  const logger = createLogger(plan.output.logFile);
  let exitCode = 1;
  try {
    const commitLog = () => {
      /** @type {string|null} */
      let why = null;
      closeLogger(logger, (line) => { why = line; });
      return why;
    };
    ({ exitCode } = await presentEngine(createEngine(plan, { logger }), plan.output, io, format, extras, views, commitLog));
  } finally {
    // On every path, a failed run's log most of all: the log replaces --log-file now (once: presentEngine puts it in
    // place before the gates' lines), or says why it cannot.
    if (!closeLogger(logger, (line) => io.stderr.write(`spawnbench: ${line}\n`))) exitCode ||= 1;
  }
  return exitCode;
}

