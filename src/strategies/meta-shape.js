/**
 * The shape of a strategy.json, checked when it is read: a list given as a string
 * ("runtimes": "deno") used to surface later as "join is not a function".
 */
import { RunError } from '../base/errors.js';

const LISTS = ['runtimes', 'workerRuntimes', 'platforms', 'balancers'];
/**
 * How a strategy runs each request's command: 'spawn-command' through strategies/lib/spawn-command.js
 * (a Node where node:ffi or koffi loads spawns with posix_spawn there), 'child_process' through Node's own (the default).
 */
export const SPAWNS_WITH = ['spawn-command', 'child_process'];

/**
 * @param {string} name the strategy
 * @param {string} file its strategy.json
 * @param {object} meta the parsed JSON
 * @throws {RunError} naming the strategy, the file and the field
 */
export function checkStrategyMeta(name, file, meta) {
  if (!meta || typeof meta !== 'object' || Array.isArray(meta)) {
    throw new RunError(`strategy '${name}': ${file} must hold one JSON object`);
  }
  for (const field of LISTS) {
    const value = meta[field];
    if (value !== undefined && value !== null && !(Array.isArray(value) && value.every((v) => typeof v === 'string'))) {
      throw new RunError(`strategy '${name}': ${file}: "${field}" must be a list of strings, like ["node"], not ${JSON.stringify(value)}`);
    }
  }
  if (meta.entry !== undefined && typeof meta.entry !== 'string') {
    throw new RunError(`strategy '${name}': ${file}: "entry" must be a file name, like "index.js"`);
  }
  if (meta.spawnsWith !== undefined && !SPAWNS_WITH.includes(meta.spawnsWith)) {
    throw new RunError(`strategy '${name}': ${file}: "spawnsWith" must be one of ${SPAWNS_WITH.map((v) => `"${v}"`).join(', ')}, not ${JSON.stringify(meta.spawnsWith)}`);
  }
  if (meta.runtimeNotes !== undefined && (typeof meta.runtimeNotes !== 'object' || meta.runtimeNotes === null || Array.isArray(meta.runtimeNotes))) {
    throw new RunError(`strategy '${name}': ${file}: "runtimeNotes" must be an object, like {"bun": "why not"}`);
  }
}
