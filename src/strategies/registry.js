/**
 * The strategy registry: every folder under strategies/ with a strategy.json is a
 * strategy (found by file, like pastel's commands/). A malformed one is named in
 * a one-line error rather than skipped silently.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { UsageError, RunError } from '../errors.js';

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
 * @property {string[]} platforms platforms it runs on (process.platform values)
 */

/**
 * Lists every strategy, sorted with baseline first (the yardstick), then by name.
 * @param {string} [dir]
 * @returns {StrategyInfo[]}
 */
export function listStrategies(dir = STRATEGIES_DIR) {
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'strategy.json')))
    .map((d) => loadStrategy(dir, d.name))
    .sort((a, b) => (a.name === 'baseline' ? -1 : b.name === 'baseline' ? 1 : a.name.localeCompare(b.name)));
}

function loadStrategy(dir, name) {
  const file = join(dir, name, 'strategy.json');
  let meta;
  try {
    meta = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new RunError(`strategy '${name}': ${file} is not valid JSON (${error.message})`);
  }
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
  };
}

/**
 * Finds a strategy by name, or says which ones exist.
 * @param {string} name
 * @param {string} [dir]
 * @returns {StrategyInfo}
 */
export function getStrategy(name, dir = STRATEGIES_DIR) {
  const all = listStrategies(dir);
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
export function defaultStrategyName(dir = STRATEGIES_DIR) {
  const names = listStrategies(dir).map((s) => s.name);
  return names.includes(DEFAULT_STRATEGY) ? DEFAULT_STRATEGY : FALLBACK_STRATEGY;
}
