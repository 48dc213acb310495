/**
 * Failed spawns in words: "spawn echo: EAGAIN ×1,395: the process limit (ulimit -u 50)
 * was reached". Plain figures in (src/analysis/spawn-failures.js), lines out.
 */
import { int } from './text-format.js';

/**
 * What each errno of a failed start means, with the limit's value where it was read.
 * @type {Record<string, (limit: number|null) => string>}
 */
const MEANING = {
  EAGAIN: (v) => `the process limit${v !== null ? ` (ulimit -u ${int(v)})` : ' (ulimit -u, or the system\'s pid and thread limits)'} was reached`,
  EMFILE: (v) => `the open-files limit of the process that spawns${v !== null ? ` (ulimit -n ${int(v)})` : ' (ulimit -n)'} was reached`,
  ENFILE: () => 'the system\'s open-files table is full (fs.file-max)',
  ENOMEM: () => 'the system could not give the new process memory',
  ENOENT: () => 'the command was not found (PATH, or the path given)',
  EACCES: () => 'the command is not executable by this user',
};

/**
 * "spawn echo: EAGAIN ×1,395: the process limit (ulimit -u 50) was reached"
 * @param {import('../base/result-types.js').SpawnFailureCount} f
 */
export function spawnFailureText(f) {
  const meaning = MEANING[f.code]?.(f.limitValue ?? null);
  return `spawn ${f.command}: ${f.code} ×${int(f.count)}${meaning ? `: ${meaning}` : ''}`;
}

/**
 * The summary's lines: "Spawns     spawn echo: EAGAIN ×1,395: …", one per command and errno.
 * @param {{ total: number, failures: import('../base/result-types.js').SpawnFailureCount[] }|null|undefined} spawnFailures
 * @returns {string[]}
 */
export function formatSpawnFailures(spawnFailures) {
  return (spawnFailures?.failures ?? []).map((f, i) => `${i === 0 ? 'Spawns     ' : '           '}${spawnFailureText(f)}`);
}
