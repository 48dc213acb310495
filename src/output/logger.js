/**
 * The run log: pino writing to --log-file only. Nothing is logged to the terminal,
 * where it would break the dashboard and the JSON on stdout. The log is written to a
 * temporary file next to --log-file and renamed over it when the command ends
 * (src/output/atomic-file.js), so a write that fails midway leaves the previous log as it
 * was; a failed write never ends the run, it is reported when the log is closed.
 */
import { createRequire } from 'node:module';
import { openAtomicFile, fsReason, keptAsItWas } from './atomic-file.js';

/** pino (CommonJS), loaded only for a --log-file: a run without one never pays for its ~30 modules. */
const loadPino = () => createRequire(import.meta.url)('pino');

const ignore = () => {};
/**
 * The logger of a run without --log-file: the pino methods spawnbench calls (its levels
 * and child), doing nothing; typed as pino's logger, whose whole surface it does not have.
 */
const SILENT = /** @type {import('pino').Logger} */ (/** @type {unknown} */ (Object.freeze({
  level: 'silent', fatal: ignore, error: ignore, warn: ignore, info: ignore, debug: ignore, trace: ignore, silent: ignore,
  child: () => SILENT, isLevelEnabled: () => false, flush: ignore,
})));

const FILE = Symbol('spawnbench log file');
/** Loggers whose file is not in place yet. */
const open = new Set();

/**
 * @param {string|null} file
 * @returns {import('pino').Logger}
 */
export function createLogger(file) {
  if (!file) return SILENT;
  const pino = loadPino();
  const out = openAtomicFile(file);
  // Writes are synchronous: the log is small (events, strategy stderr lines) and must be
  // complete on any exit path; one that ends without closeLogger() still keeps its log.
  const onExit = () => closeLogger(logger, (line) => process.stderr.write(`spawnbench: ${line}\n`));
  process.once('exit', onExit);
  const logger = pino({ level: 'debug', base: { pid: process.pid } }, { write: (line) => out.write(line) });
  logger[FILE] = { file, out, onExit };
  open.add(logger);
  return logger;
}

/**
 * Puts the log in place of --log-file (once; later calls do nothing). A write that failed
 * is said in one line through `report`, and the previous file is left as it was.
 * @param {import('pino').Logger} logger
 * @param {(line: string) => void} report
 * @returns {boolean} false when the log could not be written
 */
export function closeLogger(logger, report) {
  const log = logger?.[FILE];
  if (!log) return true;
  delete logger[FILE];
  open.delete(logger);
  process.off('exit', log.onExit);
  try {
    log.out.commit();
    return true;
  } catch (error) {
    report(`--log-file ${log.file}: cannot write the log (${fsReason(error)})${keptAsItWas(log.file)}`);
    return false;
  }
}

/**
 * Puts every open log in place now: for an exit that runs no 'exit' handler (a second
 * hangup ends spawnbench by SIGHUP's default action, src/commands/signals.js).
 * @param {(line: string) => void} report
 */
export function closeAllLoggers(report) {
  for (const logger of [...open]) closeLogger(logger, report);
}
