/**
 * The few facts the dashboard shows from a plan (src/plan/run-plan.js buildRunPlan, as sent
 * in the `start` event: `{ target, workload, load, probe }`), flattened once so
 * the panels do not each know the plan's nesting.
 */
import { targetOf } from '../base/target-kinds.js';

const runtimeName = (runtime) => (typeof runtime === 'object' ? runtime?.kind ?? runtime?.name : runtime) ?? null;

/**
 * @typedef {object} PlanView
 * @property {string|null} strategy
 * @property {string|null} url
 * @property {string|null} command        the user's server command line (diagnose, or tune/compare on a command)
 * @property {string|null} verb           the spawnbench command measuring it: 'run', 'tune', 'compare', 'diagnose'
 * @property {string|null} runtime        'node' | 'bun' | 'deno' (kind of the main process)
 * @property {string|null} workerRuntime  kind of forked workers, pool strategies only
 * @property {number|null} poolSize
 * @property {string|null} balance
 * @property {number|null} connections
 * @property {number|null} rate
 * @property {number|null} durationMs
 * @property {number|null} requests
 * @property {number|null} warmupMs
 * @property {number} threads             load generator threads
 * @property {string|null} workload
 */

/**
 * @param {object|null} plan
 * @returns {PlanView|null}
 */
export function planView(plan) {
  if (!plan) return null;
  const target = plan.target ?? {};
  const load = plan.load ?? {};
  const pool = Boolean(target.pool ?? target.poolSize);
  const asked = targetOf(plan.target);
  return {
    strategy: target.strategy ?? null,
    url: asked.url,
    command: asked.command ? (target.label ?? asked.name) : null,
    verb: plan.command ?? null,
    runtime: runtimeName(target.runtime),
    workerRuntime: pool ? runtimeName(target.workerRuntime) : null,
    poolSize: target.poolSize ?? null,
    balance: target.balance ?? null,
    connections: load.connections ?? null,
    rate: load.rate ?? null,
    durationMs: load.durationMs ?? null,
    requests: load.requests ?? null,
    warmupMs: load.warmupMs ?? null,
    threads: load.threads ?? 1,
    // A user's server (a command, or one at --url) runs its own work per request: there is no workload to name.
    workload: asked.runsWorkload ? plan.workload?.name ?? null : null,
  };
}
