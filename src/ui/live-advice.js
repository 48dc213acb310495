/**
 * The dashboard's live recommendation: sampler intervals of the measured phase
 * are folded in as they come (a few additions each), and the advice is worked
 * out again on each load tick, once a second, from LIVE_ADVICE_MIN_MS of
 * measured data on. Runs only: a tune or compare step is one point of a sweep,
 * and diagnose gives a verdict instead. Pure functions of the run state.
 */
import { emptyAdviceWindow, foldSample, windowInput } from '../analysis/advice-window.js';
import { adviseRun } from '../analysis/run-advice.js';
import { LIVE_ADVICE_MIN_MS } from '../base/thresholds.js';
import { targetOf } from '../base/target-kinds.js';

/**
 * @typedef {object} LiveAdvice
 * @property {object} plan     the run's plan, as `start` gave it
 * @property {object|null} machine
 * @property {import('../analysis/advice-window.js').AdviceWindow} window
 * @property {import('../analysis/run-advice.js').RunAdvice|null} current  null until there is enough data
 * @property {boolean} final   the run's own recommendation (from `done`)
 */

/**
 * @param {{ plan?: object, machine?: object }|null} start payload of `start`
 * @returns {LiveAdvice|null} null when this is not a run of a strategy or of the user's server (`run -- <command>`)
 */
export function startAdvice(start) {
  const plan = start?.plan;
  // A target with nothing to size (--url, a command whose knob was not looked for) has no live advice.
  if (plan?.command !== 'run' || !targetOf(plan.target).sizeKnob) return null;
  return { plan, machine: start.machine ?? null, window: emptyAdviceWindow(), current: null, final: false };
}

/** Folds a sampler interval in, measured phase only (the warm-up's figures are not the run's). */
export function adviseOnSample(advice, sample, phase) {
  if (!advice || advice.final || phase !== 'measure' || !sample) return advice;
  return { ...advice, window: foldSample(advice.window, sample) };
}

/**
 * Works the advice out again from the window, once a second, when enough was measured.
 * @param {LiveAdvice|null} advice
 * @param {object} tick
 * @param {import('../analysis/worker-deaths.js').WorkerDeath[]} [deaths] pool workers that died while measured
 */
export function adviseOnTick(advice, tick, deaths = []) {
  if (!advice || advice.final || tick?.phase !== 'measure' || !(tick.elapsedMs >= LIVE_ADVICE_MIN_MS) || advice.window.samples === 0) return advice;
  return { ...advice, current: adviseRun(windowInput(advice.window, { plan: advice.plan, machine: advice.machine, tick, deaths })) };
}

/** The run's own recommendation replaces the live one at the end. */
export function adviseOnDone(advice, result) {
  if (!advice || !result?.recommendation) return advice;
  return { ...advice, current: result.recommendation, final: true };
}
