/**
 * The Recommendation block of a run's summary, for a fresh result and for a saved
 * one: a file written before runs carried a recommendation gets one computed from
 * its figures when they are there, and says so when they are not.
 */
import { adviceInput } from '../analysis/advice-input.js';
import { adviseRun } from '../analysis/run-advice.js';
import { formatAdviceBlock, adviceParagraphs } from './run-advice-text.js';
import { targetOf } from '../base/target-kinds.js';

/** @typedef {import('../base/result-types.js').RunResult} RunResult */

/**
 * @param {RunResult} result RunResult, fresh or read from a file
 * @param {{ columns?: number }} [options] at most this wide (default 80)
 * @returns {string[]} the block's lines
 */
export function formatRunAdvice(result, { columns } = {}) {
  return formatAdviceBlock(runAdvice(result), currentOf(result), { columns });
}

/**
 * The run's recommendation: its own, or computed from its figures (a file from
 * before recommendations), or null when it has no sampler figures.
 * @param {RunResult} result
 * @returns {import('../analysis/run-advice.js').RunAdvice|null}
 */
export function runAdvice(result) {
  // A run's recommendation is adviseRun()'s; the result types keep its ids as the schema does, as strings.
  if (result.recommendation !== undefined) return /** @type {import('../analysis/run-advice.js').RunAdvice|null} */ (result.recommendation);
  // A server spawnbench did not start is advised from the load's figures alone. Number(): no processes reads as NaN, as `>` has always read it.
  const hasFigures = Number(result.samples?.processes?.length) > 0 || targetOf(result.plan?.target).external;
  return hasFigures ? adviseRun(adviceInput(result)) : null;
}

/**
 * The dashboard's live panel in the block's words: the headline, then the
 * reasons ("- …") and the basis. The run command passes it to the dashboard,
 * which does not import report/.
 * @param {import('../analysis/run-advice.js').RunAdvice} advice
 * @param {import('../base/result-types.js').RunPlan} plan the run's plan, as `start` gave it
 * @returns {string[]}
 */
export function formatLiveAdvice(advice, plan) {
  return adviceParagraphs(advice, currentOf({ plan }));
}

/**
 * What the run used, to say "this run: 3 workers, round-robin".
 * @param {{ plan?: import('../base/result-types.js').RunPlan, sizeKnob?: { size?: number|null }|null }} result
 * @returns {{ poolSize: number|null, balance: string|null, strategy: string|null }}
 */
export function currentOf(result) {
  const t = result.plan?.target ?? /** @type {Partial<import('../base/result-types.js').RunPlan['target']>} */ ({});
  // A user's server is sized by its own knob, as the run resolved it.
  if (targetOf(t).advice === 'own') return { poolSize: result.sizeKnob?.size ?? null, balance: null, strategy: null };
  return { poolSize: t.poolSize ?? null, balance: t.balance ?? null, strategy: t.strategy ?? null };
}
