/**
 * A process count for any Node server, even one without a knob: the unchanged
 * server run in N node:cluster workers, as PM2's cluster mode runs it
 * (`spawnbench tune --processes 1,2 -- node api.js`). This part reads the command:
 * it works on `node [node-flags] <script> [args]`, whose script the cluster's
 * workers can run as their main module. Pure.
 */
import { scriptIndex } from './size-knob.js';
import { isFiniteNumber } from './stats.js';

/** Executables that are Node itself. */
const NODE_NAMES = ['node', 'nodejs'];

/** Node flags after which there is no script to run in workers: code given inline, the REPL, a check, the test runner. */
const NOT_A_SERVER = ['-e', '--eval', '-p', '--print', '-i', '--interactive', '-c', '--check', '--test', '--run', '-v', '--version', '-h', '--help'];

/** What works, for the one-line refusals. */
export const PROCESSES_SHAPE = 'node [node-flags] <script> [args], e.g. --processes 1,2 -- node api.js';

/**
 * @typedef {object} NodeScriptCommand
 * @property {string} node     the executable as written
 * @property {string[]} flags  node's own flags, before the script
 * @property {string} script   the entry file as written
 * @property {string[]} args   the script's arguments
 */

/**
 * @param {string[]} command the server's argv
 * @returns {{ ok: boolean, parts?: NodeScriptCommand, why?: 'not-node'|'no-script'|'inline', word?: string }}
 *   `parts` when ok; else `why` it is not that shape and the `word` that says so
 */
export function nodeScriptCommand(command) {
  const exe = String(command[0] ?? '');
  if (!NODE_NAMES.includes(exe.split('/').at(-1) ?? '')) return { ok: false, why: 'not-node', word: exe };
  const at = scriptIndex(command);
  const flags = command.slice(1, at);
  const inline = flags.find((flag) => NOT_A_SERVER.includes(flag.split('=')[0]));
  if (inline) return { ok: false, why: 'inline', word: inline };
  const script = command[at];
  if (script === undefined || script === '-') return { ok: false, why: 'no-script', word: script ?? '' };
  return { ok: true, parts: { node: exe, flags, script, args: command.slice(at + 1) } };
}

/**
 * The ways to deploy N processes of a server that ran as `node <script>`, for
 * the recommendation's words: PM2's cluster mode, node:cluster in its own code,
 * or N replicas behind a balancer.
 * @param {string[]} command
 * @param {number} size
 * @returns {{ pm2: string[]|null, size: number }}
 */
export function deployProcesses(command, size) {
  const shape = nodeScriptCommand(command);
  if (!shape.ok || !shape.parts) return { pm2: null, size }; // parts is there whenever ok
  const { flags, script, args } = shape.parts;
  const pm2 = ['pm2', 'start', script, '-i', String(size)];
  if (flags.length > 0) pm2.push(`--node-args=${flags.join(' ')}`);
  if (args.length > 0) pm2.push('--', ...args);
  return { pm2, size };
}

/**
 * What a `--processes` sweep measured for its recommendation: the chosen count's
 * throughput against one process's (or the smallest count measured), the gain.
 * @param {{ size: number|null, sizes?: Array<{ size: number, rps: { median: number }|number|null }> }} recommendation
 * @returns {{ size: number, rps: number, baseSize: number, baseRps: number, gain: number|null }|null}
 */
export function processGain(recommendation) {
  // A size's rps is the median over its repeats (cells.js SizeFigures).
  const sizes = (recommendation?.sizes ?? []).flatMap((s) => {
    const rps = typeof s.rps === 'number' ? s.rps : s.rps?.median;
    return isFiniteNumber(rps) ? [{ size: s.size, rps }] : [];
  });
  const chosen = sizes.find((s) => s.size === recommendation.size);
  if (!chosen || sizes.length === 0) return null;
  const base = sizes.reduce((a, b) => (b.size < a.size ? b : a));
  return { size: chosen.size, rps: chosen.rps, baseSize: base.size, baseRps: base.rps, gain: base.rps > 0 ? chosen.rps / base.rps : null };
}
