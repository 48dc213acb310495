/**
 * CLI options → the plan of a comparison: one run plan per (workload, strategy),
 * all with the same load and warm-up, every one checked before anything starts.
 */
import { buildRunPlan } from '../plan.js';
import { listStrategies, getStrategy } from '../strategies/registry.js';
import { WORKLOAD_NAMES } from '../workloads.js';
import { parseChoiceList, parseInteger } from '../units.js';
import { MAX_REPEAT, COMPARE_DEFAULTS } from '../thresholds.js';

export { COMPARE_DEFAULTS };


/**
 * @param {object} o commander options of `spawnbench compare`
 * @returns {{ command: 'compare', strategies: string[], workloads: string[], repeat: number,
 *   plans: Record<string, Record<string, object>>, output: object }} plans[workload][strategy]
 */
export function buildComparePlan(o) {
  const names = listStrategies().map((s) => s.name);
  const strategies = o.strategies !== undefined ? parseChoiceList(o.strategies, '--strategies', names) : names;
  const workloads = parseChoiceList(o.workloads ?? COMPARE_DEFAULTS.workloads, '--workloads', WORKLOAD_NAMES);
  const repeat = parseInteger(o.repeat ?? COMPARE_DEFAULTS.repeat, '--repeat', { max: MAX_REPEAT });
  const plans = {};
  for (const workload of workloads) {
    plans[workload] = {};
    for (const strategy of strategies) {
      const pool = getStrategy(strategy).pool;
      plans[workload][strategy] = {
        ...buildRunPlan({
          ...o,
          strategy,
          workload,
          // --pool-size and --balance set the pools; strategies without one ignore them.
          poolSize: pool ? o.poolSize : undefined,
          balance: pool ? o.balance : undefined,
          duration: o.requests === undefined ? (o.duration ?? COMPARE_DEFAULTS.duration) : undefined,
          warmup: o.warmup ?? COMPARE_DEFAULTS.warmup,
        }),
        command: 'compare',
      };
    }
  }
  const first = plans[workloads[0]][strategies[0]];
  return { command: 'compare', strategies, workloads, repeat, plans, output: first.output };
}

/**
 * The order of the runs: every workload and strategy once, then again, so that
 * drift during the comparison spreads over all strategies.
 * @returns {{ workload: string, strategy: string, repeat: number }[]}
 */
export function compareOrder({ strategies, workloads, repeat }) {
  const order = [];
  for (let r = 1; r <= repeat; r++) {
    for (const workload of workloads) for (const strategy of strategies) order.push({ workload, strategy, repeat: r });
  }
  return order;
}
