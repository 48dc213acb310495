/**
 * CLI options → the plan of a sweep: one run plan per step, pool size and policy
 * filled in per step. Every check on tune's own options lives here.
 */
import { buildRunPlan, BALANCE_POLICIES, defaultPoolSize } from '../plan.js';
import { listStrategies, defaultStrategyName, getStrategy } from '../strategies/registry.js';
import { UsageError } from '../errors.js';
import { parseInteger, parseIntegerList, parseChoiceList, parseChoice } from '../units.js';
import { MAX_REPEAT, MAX_POOL_SIZE, TUNE_DEFAULTS, TUNE_MAX_SIZE_FACTOR } from '../thresholds.js';

export { MAX_REPEAT, TUNE_DEFAULTS };

export const SEARCH_MODES = ['exhaustive', 'adaptive'];



/**
 * Default sizes: the 1-2-3-4-6-8-12-16-… series (each ~1.5× the last) up to
 * twice availableParallelism(), plus that count itself, so the curve has points
 * at "one per core" and beyond.
 * @param {number} parallelism
 * @returns {number[]}
 */
export function defaultSizes(parallelism = defaultPoolSize()) {
  const max = Math.max(2, TUNE_MAX_SIZE_FACTOR * parallelism);
  const sizes = new Set([parallelism, max]);
  for (let base = 1; base <= max; base *= 2) {
    sizes.add(base);
    if (base >= 2 && base * 1.5 <= max) sizes.add(base * 1.5);
  }
  return [...sizes].filter((n) => n >= 1 && n <= max).sort((a, b) => a - b);
}

/**
 * @param {object} o commander options of `spawnbench tune`
 * @returns {{ command: 'tune', base: object, sizes: number[], policies: string[], repeat: number,
 *   search: 'exhaustive'|'adaptive', output: object }}
 */
export function buildTunePlan(o) {
  const strategy = o.strategy ?? defaultStrategyName();
  const pools = listStrategies().filter((s) => s.pool).map((s) => s.name);
  if (!pools.includes(strategy)) {
    throw new UsageError(`tune sweeps pool sizes, and '${strategy}' has no pool; use --strategy with one of: ${pools.join(', ')}`);
  }
  const base = buildRunPlan({
    ...o,
    duration: o.requests === undefined ? (o.duration ?? TUNE_DEFAULTS.duration) : undefined,
    warmup: o.warmup ?? TUNE_DEFAULTS.warmup,
  });
  const applicable = policiesOf(getStrategy(strategy));
  const policies = o.balancePolicies !== undefined ? parseChoiceList(o.balancePolicies, '--balance-policies', BALANCE_POLICIES) : applicable;
  const inapplicable = policies.filter((p) => !applicable.includes(p));
  if (inapplicable.length > 0) {
    throw new UsageError(`--balance-policies: strategy '${strategy}' balances with ${applicable.join(', ')} only, not ${inapplicable.join(', ')}; drop ${inapplicable.length > 1 ? 'them' : 'it'}`);
  }
  const sizes = o.sizes !== undefined ? parseIntegerList(o.sizes, '--sizes') : defaultSizes();
  for (const size of sizes) parseInteger(size, '--sizes', { max: MAX_POOL_SIZE });
  return {
    command: 'tune',
    base: { ...base, command: 'tune' },
    sizes,
    policies,
    repeat: parseInteger(o.repeat ?? TUNE_DEFAULTS.repeat, '--repeat', { max: MAX_REPEAT }),
    search: parseChoice(o.search ?? TUNE_DEFAULTS.search, '--search', SEARCH_MODES),
    output: base.output,
  };
}

/**
 * The policies a pool strategy can use: the `balancers` its strategy.json
 * declares (node:cluster's primary only deals connections round-robin), else all.
 * @param {{ entry: string, balancers?: string[] }} info from the registry
 * @returns {string[]}
 */
export function policiesOf(info) {
  return info.balancers ? BALANCE_POLICIES.filter((p) => info.balancers.includes(p)) : [...BALANCE_POLICIES];
}

/**
 * The run plan of one step: the base plan with this pool size and policy.
 * @param {{ base: object }} tunePlan
 * @param {{ size: number, policy: string }} step
 */
export function stepPlan(tunePlan, { size, policy }) {
  return { ...tunePlan.base, target: { ...tunePlan.base.target, poolSize: size, balance: policy } };
}

/** The tune plan as plain JSON (for the result file): the base plan as the run engine writes it. */
export function tunePlanForJson(tunePlan, planForJson) {
  const { base, ...rest } = tunePlan;
  return { ...rest, base: planForJson(base) };
}
