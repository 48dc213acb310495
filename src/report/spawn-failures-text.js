/**
 * Failed spawns in words: "spawn echo: EAGAIN ×1,395: the process limit (ulimit -u 50)
 * was reached", and those a server answered as though the command ran. Plain figures
 * in (src/analysis/spawn-failures.js), lines out.
 */
import { int } from './text-format.js';
import { swallowedSpawns } from '../analysis/spawn-failures.js';
import { ERROR_RATE } from '../base/thresholds.js';

/**
 * Where each limit a failed spawn points at is raised (src/analysis/spawn-failures.js `limit`).
 * @type {Record<string, string>}
 */
export const LIMIT_FIX = {
  processes: 'raise the process limit the server runs under (ulimit -u)',
  openFiles: 'raise the open-files limit of the process that spawns (ulimit -n)',
  systemFiles: 'raise the system\'s open-files table (fs.file-max)',
  memory: 'give the server more memory',
};

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
 * The summary's lines: "Spawns     spawn echo: EAGAIN ×1,395: …", one per command and errno; then, where the
 * server answered some as though the command ran (the probe saw them fail, no error response said so), that.
 * @param {{ total: number, failures: import('../base/result-types.js').SpawnFailureCount[], swallowed?: number }|null|undefined} spawnFailures
 * @param {{ attempts?: number|null, rps?: number|null }} [load] the requests sent and the run's req/s
 * @returns {string[]}
 */
export function formatSpawnFailures(spawnFailures, load = {}) {
  const lines = (spawnFailures?.failures ?? []).map((f, i) => `${i === 0 ? 'Spawns     ' : '           '}${spawnFailureText(f)}`);
  const swallowed = spawnFailures?.swallowed ?? 0;
  const none = (spawnFailures?.failures ?? []).every((f) => !(f.answered ?? 0));
  if (swallowed > 0) lines.push(...swallowedLines(swallowed, none, load).map((line) => `           ${line}`));
  return lines;
}

/**
 * "none of them came back as an error: …": failed spawns whose requests were answered as though the command ran.
 * @param {number} swallowed
 * @param {boolean} none no error response named a failed spawn
 * @param {{ attempts?: number|null, rps?: number|null }} load
 * @returns {string[]}
 */
function swallowedLines(swallowed, none, { attempts = null, rps = null }) {
  const many = attempts !== null && swallowedSpawns({ total: swallowed, swallowed }, attempts, ERROR_RATE) !== null;
  return [
    `${none ? 'none of them came back as an error' : `${int(swallowed)} of them came back without an error`}: ` +
      'the server answered those requests as though the command had run,',
    `so they "succeeded" without their commands running${many && rps !== null ? `, and ${int(rps)} req/s is not the server's real throughput` : ''}`,
  ];
}
