/**
 * One row of a /proc/<pid>/limits text: its soft and hard values, `unlimited` as Infinity.
 * Imports nothing but node:fs: bin/ reads the address-space and stack limits with it before
 * the CLI's modules load.
 */
import { readFileSync } from 'node:fs';

/**
 * @param {string} text the file's content
 * @param {string} row the row's name, e.g. 'Max open files'
 * @returns {{ soft: number, hard: number } | null} null when the row is not there
 */
export function limitRow(text, row) {
  const line = text.split('\n').find((l) => l.startsWith(row));
  if (line === undefined) return null;
  const [soft, hard] = line.slice(row.length).trim().split(/\s+/);
  if (soft === undefined || soft === '') return null;
  const value = (/** @type {string|undefined} */ v) => (v === 'unlimited' ? Infinity : Number(v));
  return { soft: value(soft), hard: value(hard) };
}

/**
 * This process's soft limit of one row of /proc/self/limits, e.g. 'Max address space' (null where
 * there is no /proc or no such row; Infinity when unlimited).
 * @param {string} row
 * @param {string} [text] the file's content (tests)
 * @returns {number|null}
 */
export function ownLimit(row, text) {
  try {
    text ??= readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  return limitRow(text, row)?.soft ?? null;
}
