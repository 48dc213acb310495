/**
 * What tune and compare share: each step is one run engine, its events forwarded
 * through the sweep's own engine (so the dashboard shows the step being
 * measured), reachable by stop() while it runs, and kept as a few figures.
 */
import { runFigures } from '../analysis/run-figures.js';

/** Run events passed through from each step; `done` is the sweep's own, and a step's `phase: done` is not the end. */
export const FORWARDED = ['start', 'phase', 'tick', 'sample', 'workers', 'log'];

/**
 * Runs one step's engine with its events forwarded through `parent` and returns its figures.
 * Throws what the run throws (the caller decides whether a failed step ends the sweep).
 * @param {import('node:events').EventEmitter} parent the sweep's engine
 * @param {{ start: () => Promise<object>, on: Function, off: Function }} run a run engine
 * @param {object} state the sweep's engine state: `current` is the run, so stop() reaches it
 * @returns {Promise<import('../analysis/run-figures.js').RunFigures>}
 */
export async function measureRun(parent, run, state) {
  const forward = FORWARDED.map((name) => [name, (payload) => (name === 'phase' && payload?.phase === 'done' ? null : parent.emit(name, payload))]);
  for (const [name, handler] of forward) run.on(name, handler);
  state.current = run;
  try {
    return runFigures(await run.start());
  } finally {
    state.current = null;
    for (const [name, handler] of forward) run.off(name, handler);
  }
}

/**
 * The figures of a step whose server could not start: nothing measured, the reason kept.
 * @param {string} message
 */
export function failedStepFigures(message) {
  return { rps: 0, p50Ms: null, p99Ms: null, errors: 0, requests: 0, durationMs: 0, partial: false, failures: [], signals: null, failed: message };
}
