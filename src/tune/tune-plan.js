/**
 * CLI options → the plan of a sweep: one run plan per step, pool size and policy
 * filled in per step. Every check on tune's own options lives here.
 */
import { buildRunPlan, BALANCE_POLICIES, defaultPoolSize, kebab } from '../run-plan.js';
import { listStrategies, defaultStrategyName, getStrategy } from '../strategies/registry.js';
import { UsageError } from '../errors.js';
import { parseInteger, parseIntegerList, parseChoiceList, parseChoice } from '../units.js';
import { buildCommandSweep, commandStepTarget } from './server-command-sweep.js';
import { MAX_REPEAT, MAX_POOL_SIZE, TUNE_DEFAULTS, TUNE_MAX_SIZE_FACTOR } from '../thresholds.js';

export { MAX_REPEAT, TUNE_DEFAULTS };

export const SEARCH_MODES = ['exhaustive', 'adaptive'];



/**
 * Default sizes: the 1-2-3-4-6-8-12-16-… series (each ~1.5× the last) up to
 * twice the CPU budget's workers (defaultPoolSize()), plus that count itself, so
 * the curve has points at "one per CPU" and beyond.
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
export function buildTunePlan(o, command = null) {
  if (command !== null) return buildCommandTunePlan(o, command);
  for (const flag of ['sizeEnv', 'policyEnv', 'port', 'path']) {
    if (o[flag] !== undefined) throw new UsageError(`--${kebab(flag)} applies to your own server: give the command that starts it after --, e.g. spawnbench tune --size-env WORKERS -- node server.js`);
  }
  const strategy = o.strategy ?? defaultStrategyName();
  const pools = listStrategies().filter((s) => s.pool).map((s) => s.name);
  if (!pools.includes(strategy)) {
    throw new UsageError(`tune sweeps pool sizes, and '${strategy}' has no pool; use --strategy with one of: ${pools.join(', ')}`);
  }
  const base = buildRunPlan(withStepDefaults(o));
  const applicable = policiesOf(getStrategy(strategy));
  const policies = o.balancePolicies !== undefined ? parseChoiceList(o.balancePolicies, '--balance-policies', BALANCE_POLICIES) : applicable;
  const inapplicable = policies.filter((p) => !applicable.includes(p));
  if (inapplicable.length > 0) {
    throw new UsageError(`--balance-policies: strategy '${strategy}' balances with ${applicable.join(', ')} only, not ${inapplicable.join(', ')}; drop ${inapplicable.length > 1 ? 'them' : 'it'}`);
  }
  return { command: 'tune', base: { ...base, command: 'tune' }, policies, ...parseSweep(o), output: base.output };
}

/**
 * The sweep of a user's server command: the same sizes, repeats and search, its
 * own knobs (src/tune/server-command-sweep.js).
 */
function buildCommandTunePlan(o, command) {
  const { base, policies, knobs } = buildCommandSweep(withStepDefaults(o), command);
  return { command: 'tune', base: { ...base, command: 'tune' }, policies, ...parseSweep(o), knobs, output: base.output };
}

/** Tune's shorter per-step duration and warm-up where the options leave them out. */
function withStepDefaults(o) {
  return { ...o, duration: o.requests === undefined ? (o.duration ?? TUNE_DEFAULTS.duration) : undefined, warmup: o.warmup ?? TUNE_DEFAULTS.warmup };
}

/** --sizes, --repeat and --search, the same for strategies and commands. */
function parseSweep(o) {
  const sizes = o.sizes !== undefined ? parseIntegerList(o.sizes, '--sizes') : defaultSizes();
  for (const size of sizes) parseInteger(size, '--sizes', { max: MAX_POOL_SIZE });
  return {
    sizes,
    repeat: parseInteger(o.repeat ?? TUNE_DEFAULTS.repeat, '--repeat', { max: MAX_REPEAT }),
    search: parseChoice(o.search ?? TUNE_DEFAULTS.search, '--search', SEARCH_MODES),
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
  if (tunePlan.base.target.kind === 'command') return { ...tunePlan.base, target: commandStepTarget(tunePlan.base.target, tunePlan.knobs, { size, policy }) };
  return { ...tunePlan.base, target: { ...tunePlan.base.target, poolSize: size, balance: policy } };
}

/** The tune plan as plain JSON (for the result file): the base plan as the run engine writes it. */
export function tunePlanForJson(tunePlan, planForJson) {
  const { base, ...rest } = tunePlan;
  return { ...rest, base: planForJson(base) };
}
