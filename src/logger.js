/**
 * The run log: pino writing to --log-file only. Nothing is logged to the terminal,
 * where it would break the dashboard and the JSON on stdout.
 */
import pino from 'pino';

/**
 * @param {string|null} file
 * @returns {import('pino').Logger}
 */
export function createLogger(file) {
  if (!file) return pino({ enabled: false });
  // sync: the log is small (events, strategy stderr lines) and must be complete when spawnbench exits on any path.
  return pino({ level: 'debug', base: { pid: process.pid } }, pino.destination({ dest: file, sync: true, mkdir: true }));
}
