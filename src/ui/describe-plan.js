/**
 * The header's words for a plan, as plain strings: the dashboard's header and the
 * progress lines of a run without a TTY both show them, and the progress lines must
 * not load React or Ink (issue 28: a non-TTY run never loads them).
 */
import { formatCount, formatElapsed } from './cell-format.js';

/**
 * What is measured: "fork-pool on node · pool 4 p2c · workload echo".
 * @param {import('./plan-view.js').PlanView|null} plan
 * @returns {string[]} parts, joined by the caller
 */
export function describeTarget(plan) {
  if (!plan) return ['starting…'];
  const parts = [];
  if (plan.strategy) parts.push(plan.runtime ? `${plan.strategy} on ${plan.runtime}` : plan.strategy);
  else if (plan.url) parts.push(plan.url);
  else if (plan.command) parts.push(plan.verb && plan.verb !== 'diagnose' ? plan.command : `diagnose ${plan.command}`);
  if (plan.poolSize) parts.push(`pool ${plan.poolSize}${plan.balance ? ` ${plan.balance}` : ''}`);
  if (plan.workerRuntime && plan.workerRuntime !== plan.runtime) parts.push(`workers on ${plan.workerRuntime}`);
  if (plan.workload) parts.push(`workload ${plan.workload}`);
  return parts;
}

/**
 * How it is loaded: "30 connections · 10s + 2s warm-up".
 * @param {import('./plan-view.js').PlanView|null} plan
 * @returns {string[]}
 */
export function describeLoad(plan) {
  if (!plan) return [];
  const parts = [];
  if (plan.rate) parts.push(`${formatCount(plan.rate)} req/s open loop`);
  else if (plan.connections) parts.push(`${plan.connections} connections`);
  const amount = plan.requests ? `${formatCount(plan.requests)} requests` : formatElapsed(plan.durationMs);
  parts.push(plan.warmupMs ? `${amount} + ${formatElapsed(plan.warmupMs)} warm-up` : amount);
  if (plan.threads > 1) parts.push(`${plan.threads} generator threads`);
  return parts;
}

const PHASE_WORDS = {
  booting: 'booting',
  warmup: 'warming up',
  measure: 'measuring',
  stopping: 'stopping',
  done: 'done',
};

/**
 * The phase in words: a --url run boots nothing, it only checks the server answers.
 * @param {string} phase
 * @param {import('./plan-view.js').PlanView|null} plan
 */
export function phaseWord(phase, plan) {
  if (phase === 'booting' && plan?.url) return 'connecting';
  return PHASE_WORDS[phase] ?? phase;
}
