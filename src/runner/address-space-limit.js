/**
 * The address-space limit (ulimit -v, RLIMIT_AS) and the stack limit (ulimit -s, RLIMIT_STACK),
 * checked before anything else loads, as the
 * open-files limit is (open-files-limit.js): below what Node's threads reserve, spawnbench died
 * with a V8 "Fatal process OOM" trap or a segmentation fault, and no word of why; below the stack
 * V8 assumes, with a segmentation fault (`spawnbench --help` under `ulimit -s 64`). Imports
 * nothing heavy: it runs before the CLI's modules load.
 */
import { MIN_ADDRESS_SPACE_BYTES, MIN_STACK_BYTES } from '../base/thresholds.js';
import { ownLimit } from '../base/proc-limits.js';

/**
 * The soft address-space limit of this process in bytes, from /proc/self/limits (null where
 * there is no /proc; Infinity when unlimited).
 * @param {string} [text] the file's content (tests)
 * @returns {number|null}
 */
export function readAddressSpaceLimit(text) {
  return ownLimit('Max address space', text);
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

/**
 * The soft stack limit of this process in bytes, from /proc/self/limits (null where there is
 * no /proc; Infinity when unlimited).
 * @param {string} [text] the file's content (tests)
 * @returns {number|null}
 */
export function readStackLimit(text) {
  return ownLimit('Max stack size', text);
}

/**
 * One line saying what to do when the stack limit is below what V8 assumes, else null.
 * @param {number|null} [limit] bytes
 * @param {number} [needed] bytes
 * @returns {string|null}
 */
export function stackRefusal(limit = readStackLimit(), needed = MIN_STACK_BYTES) {
  if (limit === null || !Number.isFinite(limit) || limit >= needed) return null;
  const kb = (/** @type {number} */ bytes) => Math.floor(bytes / 1024);
  return `spawnbench: the stack limit is ${kb(limit)} kB (ulimit -s) and Node needs at least ${kb(needed)} kB; run \`ulimit -s 8192\` in this shell first`;
}
