/**
 * The address-space limit (ulimit -v, RLIMIT_AS), checked before anything else loads, as the
 * open-files limit is (open-files-limit.js): below what Node's threads reserve, spawnbench died
 * with a V8 "Fatal process OOM" trap or a segmentation fault, and no word of why. Imports
 * nothing heavy: it runs before the CLI's modules load.
 */
import { readFileSync } from 'node:fs';
import { MIN_ADDRESS_SPACE_BYTES } from '../base/thresholds.js';
import { limitRow } from '../base/proc-limits.js';

/**
 * The soft address-space limit of this process in bytes, from /proc/self/limits (null where
 * there is no /proc; Infinity when unlimited).
 * @param {string} [text] the file's content (tests)
 * @returns {number|null}
 */
export function readAddressSpaceLimit(text) {
  try {
    text ??= readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return null;
  }
  return limitRow(text, 'Max address space')?.soft ?? null;
}

/**
 * One line saying what to do when the limit is below what spawnbench needs, else null.
 * @param {number|null} [limit] bytes
 * @param {number} [needed] bytes
 * @returns {string|null}
 */
export function addressSpaceRefusal(limit = readAddressSpaceLimit(), needed = MIN_ADDRESS_SPACE_BYTES) {
  if (limit === null || !Number.isFinite(limit) || limit >= needed) return null;
  const kb = (/** @type {number} */ bytes) => Math.floor(bytes / 1024);
  return `spawnbench: the address-space limit is ${kb(limit)} kB (ulimit -v) and spawnbench and the server it starts need at least ${kb(needed)} kB; run \`ulimit -v unlimited\` (or \`ulimit -v ${kb(needed)}\`) in this shell first`;
}
