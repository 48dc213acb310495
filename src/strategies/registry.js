/**
 * The strategy registry: every folder under strategies/ with a strategy.json is a
 * strategy (found by file, like pastel's commands/). A malformed one is named in
 * a one-line error rather than skipped silently.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, delimiter, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, RunError } from '../base/errors.js';
import { checkStrategyMeta } from './meta-shape.js';

export const STRATEGIES_DIR = fileURLToPath(new URL('../../strategies/', import.meta.url));
export const DEFAULT_STRATEGY = 'fork-pool';
const FALLBACK_STRATEGY = 'baseline';

/**
 * @typedef {object} StrategyInfo
 * @property {string} name folder name
 * @property {string} description one line for `spawnbench list`
 * @property {string} entry absolute path of the entry file
 * @property {boolean} pool whether --pool-size and --balance apply
 * @property {string[]} runtimes runtimes its main process can run on
 * @property {string[]} workerRuntimes runtimes its forked workers can run on ([] when it forks none)
 * @property {string[]|null} platforms platforms it runs on (process.platform values; null: all)
 * @property {string[]|null} balancers the --balance policies it honours (null: all)
 * @property {Record<string,string>} runtimeNotes why a runtime is missing from `runtimes`
 * @property {'json'|'advanced'} workerIpc the IPC serialization its forked workers use
 * @property {'spawn-command'|'child_process'} spawnsWith how it runs each request's command (meta-shape.js)
 */

/**
 * Folders searched for strategies: the built-in one, then those named in
 * SPAWNBENCH_STRATEGY_PATH (':'-separated), where users keep their own.
 */
export function strategyDirs(env = process.env) {
  const extra = (env.SPAWNBENCH_STRATEGY_PATH ?? '').split(delimiter).filter(Boolean).map((d) => resolve(d));
  return [STRATEGIES_DIR, ...extra];
}

/**
 * Lists every strategy, sorted with baseline first (the yardstick), then by name.
 * A name found twice keeps its first folder (built-ins cannot be shadowed).
 * @param {string[]} [dirs]
 * @returns {StrategyInfo[]}
 */
export function listStrategies(dirs = strategyDirs()) {
  const byName = new Map();
  for (const dir of dirs) {
    if (!existsSync(dir)) throw new RunError(`SPAWNBENCH_STRATEGY_PATH names ${dir}, which does not exist`);
    for (const d of readdirSync(dir, { withFileTypes: true })) {
      if (d.isDirectory() && !byName.has(d.name) && existsSync(join(dir, d.name, 'strategy.json'))) {
        byName.set(d.name, loadStrategy(dir, d.name));
      }
    }
  }
  return [...byName.values()].sort((a, b) => (a.name === 'baseline' ? -1 : b.name === 'baseline' ? 1 : a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

function loadStrategy(dir, name) {
  const file = join(dir, name, 'strategy.json');
  let meta;
  try {
    meta = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new RunError(`strategy '${name}': ${file} is not valid JSON (${error.message})`);
  }
  checkStrategyMeta(name, file, meta);
  if (typeof meta.description !== 'string' || !meta.description) {
    throw new RunError(`strategy '${name}': ${file} needs a "description" string`);
  }
  const entry = join(dir, name, meta.entry ?? 'index.js');
  if (!existsSync(entry)) throw new RunError(`strategy '${name}': entry file ${entry} does not exist`);
  return {
    name,
    description: meta.description,
    entry,
    pool: Boolean(meta.pool),
    runtimes: meta.runtimes ?? ['node'],
    workerRuntimes: meta.workerRuntimes ?? [],
    platforms: meta.platforms ?? null,
    balancers: meta.balancers ?? null,
    runtimeNotes: meta.runtimeNotes ?? {},
    workerIpc: meta.workerIpc ?? 'json',
    spawnsWith: meta.spawnsWith ?? 'child_process',
  };
}

/**
 * Finds a strategy by name, or says which ones exist.
 * @param {string} name
 * @param {string[]} [dirs]
 * @returns {StrategyInfo}
 */
export function getStrategy(name, dirs = strategyDirs()) {
  const all = listStrategies(dirs);
  const found = all.find((s) => s.name === name);
  if (!found) {
    throw new UsageError(`unknown strategy '${name}'; available: ${all.map((s) => s.name).join(', ')}`);
  }
  if (found.platforms && !found.platforms.includes(process.platform)) {
    throw new UsageError(`strategy '${name}' is not supported on this platform (${process.platform}); it runs on ${found.platforms.join(', ')}`);
  }
  return found;
}

/** The strategy `npx spawnbench` runs with no flags. */
export function defaultStrategyName(dirs = strategyDirs()) {
  const names = listStrategies(dirs).map((s) => s.name);
  return names.includes(DEFAULT_STRATEGY) ? DEFAULT_STRATEGY : FALLBACK_STRATEGY;
}
