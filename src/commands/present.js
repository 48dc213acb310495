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
import { decorateResult, finishExtras } from './extras-result.js';
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
 * @returns {Promise<{ result: object|null, exitCode: number }>}
 */
export async function presentEngine(engine, output, io, format, extras = null, views = {}) {
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
  // After the summary: the comparison, one line per assertion, the HTML file.
  let gateExit = 0;
  /** @type {RunError[]} */
  const unwritten = [];
  const interruptedByKey = ui?.interrupted?.() ? SIGINT_EXIT_CODE : null;
  // A crash or a signal outranks a failed assertion: 3 only when the run itself went through.
  const outranked = signals.exitCode() ?? interruptedByKey ?? (result.exitCode || null);
  try {
    gateExit = hasExtras(extras) ? finishExtras(result, extras, io, { json: output.json, outranked }) : 0;
  } catch (error) {
    // An --html that cannot be written still lets --out be written: it used to be skipped, unsaid.
    if (!(error instanceof RunError)) throw error;
    unwritten.push(error);
  }
  // After the summary: a file that cannot be written (checked at start, yet a disk fills up) loses nothing shown.
  if (output.out) {
    try {
      writeResultFile(output.out, result);
    } catch (error) {
      unwritten.push(error);
    }
  }
  if (unwritten.length) {
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
    ({ exitCode } = await presentEngine(createEngine(plan, { logger }), plan.output, io, format, extras, views));
  } finally {
    // On every path, a failed run's log most of all: the log replaces --log-file now, or says why it cannot.
    if (!closeLogger(logger, (line) => io.stderr.write(`spawnbench: ${line}\n`))) exitCode ||= 1;
  }
  return exitCode;
}

