/**
 * CLI options → the plan of a sweep: one run plan per step, pool size and policy
 * filled in per step. Every check on tune's own options lives here.
 */
import { buildRunPlan } from '../plan/run-plan.js';
import { listStrategies, getStrategy } from '../strategies/registry.js';
import { UsageError } from '../base/errors.js';
import { parseChoiceList } from '../base/units.js';
import { buildCommandSweep, commandStepTarget } from './server-command-sweep.js';
import { BALANCE_POLICIES, readOptions, flagOf } from '../plan/option-declarations.js';
import { TUNE_STEP_MAX_MS } from '../base/thresholds.js';

/**
 * @param {Record<string, any>} options the API's options (typed or the CLI's text), or options read already;
 *   tune's own per-step defaults apply (option-declarations.js COMMAND_DEFAULTS)
 * @param {string[]|null} [command] the user's server command (after --), or null for a strategy
 * @returns {{ command: 'tune', base: object, sizes: number[], policies: Array<string|null>, repeat: number,
 *   search: 'exhaustive'|'adaptive', output: object, knobs?: { sizeEnv: string|null, sizeArg: boolean, policyEnv: string|null,
 *   policyArg: boolean } }} `knobs`: a user's server's (src/tune/server-command-sweep.js)
 */
export function buildTunePlan(options, command = null) {
  const o = readOptions(options, 'tune');
  if (command !== null) return buildCommandTunePlan(o, command);
  for (const name of ['sizeEnv', 'policyEnv', 'processes', 'port', 'path']) {
    if (o.given.has(name)) throw new UsageError(`${flagOf(name)} applies to your own server: give the command that starts it after --, e.g. spawnbench tune --size-env WORKERS -- node server.js`);
  }
  const strategy = o.strategy;
  const pools = listStrategies().filter((s) => s.pool).map((s) => s.name);
  if (!pools.includes(strategy)) {
    throw new UsageError(`tune sweeps pool sizes, and '${strategy}' has no pool; use --strategy with one of: ${pools.join(', ')}`);
  }
  const base = buildRunPlan(o);
  const applicable = policiesOf(getStrategy(strategy));
  const policies = o.given.has('balancePolicies') ? parseChoiceList(o.balancePolicies, '--balance-policies', BALANCE_POLICIES) : applicable;
  const inapplicable = policies.filter((p) => !applicable.includes(p));
  if (inapplicable.length > 0) {
    throw new UsageError(`--balance-policies: strategy '${strategy}' balances with ${applicable.join(', ')} only, not ${inapplicable.join(', ')}; drop ${inapplicable.length > 1 ? 'them' : 'it'}`);
  }
  return { command: 'tune', base: { ...extendable(base), command: 'tune' }, policies, ...sweep(o), output: base.output };
}

/**
 * The sweep of a user's server command: the same sizes, repeats and search, its
 * own knobs (src/tune/server-command-sweep.js).
 * @returns {ReturnType<typeof buildTunePlan>}
 */
function buildCommandTunePlan(o, command) {
  const { base, policies, knobs } = buildCommandSweep(o, command);
  // --processes is the list of sizes, each one the server in that many node:cluster workers.
  const sizes = knobs.processes ? { sizes: o.processes } : {};
  return { command: 'tune', base: { ...extendable(base), command: 'tune' }, policies, ...sweep(o), ...sizes, knobs, output: base.output };
}

/**
 * A step's -d is a minimum: its load may run up to TUNE_STEP_MAX_MS (a longer -d is kept)
 * until it has enough responses to rank (src/runner/enough-watch.js); not with --requests.
 */
function extendable(base) {
  if (base.load.requests != null || !Number.isFinite(base.load.durationMs)) return base;
  return { ...base, load: { ...base.load, extendToMs: Math.max(base.load.durationMs, TUNE_STEP_MAX_MS) } };
}

/** --sizes, --repeat and --search, the same for strategies and commands. */
function sweep(o) {
  return { sizes: o.sizes, repeat: o.repeat, search: o.search };
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
 * @param {{ base: object, knobs?: { sizeEnv: string|null, policyEnv: string|null } }} tunePlan
 * @param {{ size: number, policy: string }} step
 */
export function stepPlan(tunePlan, step) {
  const target = tunePlan.base.target;
  const sized = Object.hasOwn(STEP_TARGETS, target.kind) ? STEP_TARGETS[target.kind] : STEP_TARGETS.strategy;
  return { ...tunePlan.base, target: sized(target, tunePlan.knobs, step) };
}

/** How each kind of target takes a step's size and policy: a strategy's pool in its plan, a server's knobs in its command or environment. */
const STEP_TARGETS = {
  strategy: (target, knobs, { size, policy }) => ({ ...target, poolSize: size, balance: policy }),
  command: commandStepTarget,
};

/** The tune plan as plain JSON (for the result file): the base plan as the run engine writes it. */
export function tunePlanForJson(tunePlan, planForJson) {
  const { base, ...rest } = tunePlan;
  return { ...rest, base: planForJson(base) };
}
