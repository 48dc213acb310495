/**
 * One row of a /proc/<pid>/limits text: its soft and hard values, `unlimited` as Infinity.
 * Imports nothing: bin/ reads the open-files and address-space limits with it before the
 * CLI's modules load.
 */

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
