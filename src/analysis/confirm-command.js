/**
 * The `spawnbench tune …` command that confirms a run's recommendation with a
 * sweep, and how long that sweep takes: the run's own strategy, workload,
 * connections, rate, runtimes and generator threads, the sizes around the one
 * recommended (and the run's own), the policies in question. Pure.
 */
import { TUNE_STEP_OVERHEAD_MS, TUNE_DEFAULTS } from '../base/thresholds.js';
import { formatDuration } from '../base/units.js';

/**
 * @typedef {object} ConfirmWith
 * @property {string} command   one line to paste into a shell
 * @property {string[]} argv    the same, as arguments after `spawnbench`
 * @property {number} steps     sizes × policies × repeats
 * @property {number} expectedMs steps × (warm-up + measured + boot and stop of a step)
 */

/**
 * @param {{ strategy: string, sizes: number[], policies: string[]|null,
 *   target: import('../base/result-types.js').RunPlan['target']|null,
 *   workload: { name: string, command: string, args?: string[] }|null,
 *   load: { connections: number|null, rate: number|null, threads: number, stepMs?: number|null } }} what
 *   policies null: every policy the strategy honours (the target's `balancers`)
 * @returns {ConfirmWith}
 */
export function confirmCommand({ strategy, sizes, policies, target, workload, load }) {
  const argv = ['tune', '--strategy', strategy];
  argv.push('--sizes', sizes.join(','));
  if (policies) argv.push('--balance-policies', policies.join(','));
  if (workload?.name === 'custom') argv.push('--workload-cmd', [workload.command, ...(workload.args ?? [])].join(' '));
  else if (workload?.name && workload.name !== 'echo') argv.push('--workload', workload.name);
  if (load.rate) argv.push('--rate', String(load.rate));
  if (load.connections) argv.push('-c', String(load.connections));
  if (load.threads > 1) argv.push('--generator-threads', String(load.threads));
  argv.push(...durationArgs(load));
  const runtime = target?.runtime?.name ?? 'node';
  if (runtime !== 'node') argv.push('--runtime', runtime);
  const workerRuntime = target?.workerRuntime?.name ?? runtime;
  if (workerRuntime !== runtime) argv.push('--worker-runtime', workerRuntime);

  const policyCount = policies?.length ?? target?.balancers?.length ?? 1;
  return { command: commandLine(argv), argv, ...sweepCost(sizes.length * policyCount, load.stepMs) };
}

/**
 * `-d` for the confirming tune where the latency seen needs longer steps than tune's
 * default (src/analysis/step-enough.js stepMsFor: 200 responses, 5 × p99); none otherwise.
 * @param {{ stepMs?: number|null }} load
 * @returns {string[]}
 */
export function durationArgs(load) {
  return load.stepMs != null && load.stepMs > TUNE_DEFAULTS.durationMs ? ['-d', formatDuration(load.stepMs)] : [];
}

/**
 * A tune's steps and expected duration at its per-step defaults (or the step length given), and the line to paste.
 * @param {number} cells sizes × policies
 * @param {number|null} [stepMs] the measured time per step, where it is longer than the default
 * @returns {{ steps: number, expectedMs: number }}
 */
export function sweepCost(cells, stepMs = null) {
  const steps = cells * TUNE_DEFAULTS.repeat;
  const perStep = Math.max(TUNE_DEFAULTS.durationMs, stepMs ?? 0) + TUNE_DEFAULTS.warmupMs + TUNE_STEP_OVERHEAD_MS;
  return { steps, expectedMs: steps * perStep };
}

/**
 * The line to paste into a shell for a tune's argv.
 * @param {string[]} argv
 */
export function commandLine(argv) {
  return ['spawnbench', ...argv].map(shellQuote).join(' ');
}

/**
 * Single quotes where a shell would split or expand the argument.
 * @param {string} arg
 */
export function shellQuote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replaceAll("'", "'\\''")}'`;
}
