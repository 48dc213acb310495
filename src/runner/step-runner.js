/**
 * What tune and compare share: each step is one run engine, its events forwarded
 * through the sweep's own engine (so the dashboard shows the step being
 * measured), reachable by stop() while it runs, and kept as a few figures.
 */
import { runFigures } from '../analysis/run-figures.js';
import { runProcesses } from '../analysis/worker-balance.js';
import { targetOf } from '../base/target-kinds.js';

/** Run events passed through from each step; `done` is the sweep's own, and a step's `phase: done` is not the end. */
export const FORWARDED = ['start', 'phase', 'tick', 'sample', 'workers', 'log'];

/**
 * Runs one step's engine with its events forwarded through `parent` and returns its figures.
 * Throws what the run throws (the caller decides whether a failed step ends the sweep).
 * @param {import('./engine-shell.js').Engine} parent the sweep's engine: stopping it stops the run
 * @param {{ start: () => Promise<object>, stop: () => void, on: Function, off: Function }} run a run engine
 * @param {{ processes?: boolean }} [options] `processes`: on a user's server command, also keep what each of
 *   its processes did (`processes`, ProcessRow[]), so tune can show how its own code balanced the work
 * @returns {Promise<import('../analysis/run-figures.js').RunFigures>}
 */
export async function measureRun(parent, run, { processes = false } = {}) {
  const result = await parent.runStep(run, FORWARDED);
  return { ...runFigures(result), ...(processes && targetOf(result.target).processes === 'tree' ? { processes: runProcesses(result) } : {}) };
}

/**
 * The figures of a step whose server could not start: nothing measured, the reason kept.
 * @param {string} message
 */
export function failedStepFigures(message) {
  return { rps: 0, p50Ms: null, p99Ms: null, errors: 0, requests: 0, durationMs: 0, partial: false, failures: [], signals: null, failed: message };
}
