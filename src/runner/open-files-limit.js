/**
 * The open-files limit, checked before anything else loads. Node raises its soft limit to
 * the hard limit when it starts, so what is left to check is the hard limit: below what
 * spawnbench needs, a raw EMFILE stack would end any command (module loading alone opens
 * ~350 files). Imports nothing heavy: it runs before the CLI's modules load.
 */
import { readFileSync } from 'node:fs';
import { MIN_OPEN_FILES } from '../base/thresholds.js';

// It parses its row itself rather than with base/proc-limits.js's limitRow: one module more before the
// check, and Node 20 under `ulimit -n 18` died loading it (an EMFILE stack, the thing this check prevents).
/**
 * The soft and hard open-files limits of this process, from /proc/self/limits
 * (null where there is no /proc). `unlimited` reads as Infinity.
 * @param {string} [text] the file's content (tests)
 * @returns {{ soft: number, hard: number } | null}
 */
export function readOpenFilesLimit(text) {
  try {
    text ??= readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  const line = text.split('\n').find((l) => l.startsWith('Max open files'));
  const [soft, hard] = line?.slice('Max open files'.length).trim().split(/\s+/) ?? [];
  if (soft === undefined) return null;
  const value = (v) => (v === 'unlimited' ? Infinity : Number(v));
  return { soft: value(soft), hard: value(hard) };
}

/**
 * One line saying what to do when the limit is below what spawnbench needs, else null.
 * @param {{ soft: number, hard: number } | null} [limit]
 * @param {number} [needed]
 * @returns {string|null}
 */
export function openFilesRefusal(limit = readOpenFilesLimit(), needed = MIN_OPEN_FILES) {
  if (!limit || limit.soft >= needed) return null;
  const raise = limit.hard >= needed ? `ulimit -Sn ${needed}` : `ulimit -n ${needed}`;
  return `spawnbench: the open-files limit is ${limit.soft} (hard limit ${limit.hard}) and spawnbench needs ${needed}; run \`${raise}\` in this shell first (raising the hard limit needs root or /etc/security/limits.conf)`;
}
