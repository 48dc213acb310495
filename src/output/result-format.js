/**
 * The version and kinds of a result document (run, tune, compare, diagnose):
 * what every engine stamps on its result and what `spawnbench report` checks
 * when it reads one back. A base module, so engines do not import report/.
 */

/** Bumped whenever a result's shape changes in a way formatters depend on. */
export const RESULT_FORMAT = 1;

/** The kinds of result spawnbench writes. */
export const RESULT_KINDS = ['run', 'tune', 'compare', 'diagnose'];
