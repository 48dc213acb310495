/**
 * The sweep of a user's own server (`spawnbench tune … -- <command>`): the size
 * reaches it through an environment variable (--size-env) and/or a `{size}`
 * placeholder in its arguments, a policy the same way (--policy-env, `{policy}`)
 * with --balance-policies naming the values its own code understands. Each step
 * is the command with the step's values filled in, started afresh.
 */
import { UsageError } from '../base/errors.js';
import { buildCommandRunPlan, parseEnvName, checkStrategyOnly, SIZE_PLACEHOLDER } from '../plan/server-command-plan.js';
import { checkProcessSweep, clusterCommand, PROCESSES_ENV } from './process-sweep.js';

export { SIZE_PLACEHOLDER };
export const POLICY_PLACEHOLDER = '{policy}';
const EXAMPLE = 'spawnbench tune --size-env WEB_CONCURRENCY -- node server.js';


/**
 * @param {import('../plan/option-declarations.js').PlanOptions} o the options of `spawnbench tune` (its per-step load defaults)
 * @param {string[]} command operands after `--`
 * @returns {{ base: object, policies: Array<string|null>, knobs: { sizeEnv: string|null, sizeArg: boolean,
 *   policyEnv: string|null, policyArg: boolean, processes?: boolean } }} `policies` is [null] when the server has no policy knob;
 *   `processes`: --processes, each step the command in that many node:cluster workers (src/tune/process-sweep.js)
 */
export function buildCommandSweep(o, command) {
  if (command.length === 0) throw new UsageError(`the command after -- is empty; give the one that starts your server, e.g. ${EXAMPLE}`);
  const sizeArg = command.some((a) => a.includes(SIZE_PLACEHOLDER));
  const policyArg = command.some((a) => a.includes(POLICY_PLACEHOLDER));
  if (o.given.has('strategy')) {
    throw new UsageError(sizeArg
      ? `{size} sizes your own server, --strategy boots a built-in one: tune one of them, drop --strategy or the command after --`
      : `--strategy boots a built-in strategy and the command after -- is your own server: tune one of them, drop --strategy or the command`);
  }
  checkStrategyOnly(o);
  if (o.given.has('processes')) {
    checkProcessSweep(o, command);
    return { base: buildCommandRunPlan(o, command), policies: [null], knobs: { sizeEnv: null, sizeArg: false, policyEnv: null, policyArg: false, processes: true } };
  }
  const sizeEnv = o.sizeEnv !== undefined ? parseEnvName(o.sizeEnv, '--size-env') : null;
  if (!sizeEnv && !sizeArg) {
    throw new UsageError('say how your server gets its size: --size-env NAME (e.g. --size-env WEB_CONCURRENCY), {size} in its arguments (-- node server.js --workers {size}), or --processes 1,2 to run it in node:cluster workers');
  }
  const policyEnv = o.policyEnv !== undefined ? parseEnvName(o.policyEnv, '--policy-env') : null;
  if (policyEnv !== null && policyEnv === sizeEnv) throw new UsageError(`--size-env and --policy-env both name ${sizeEnv}; give each its own variable`);
  const policyKnob = policyEnv !== null || policyArg;
  if (policyKnob && !o.given.has('balancePolicies')) {
    throw new UsageError(`${policyEnv ? `--policy-env ${policyEnv}` : '{policy}'} needs --balance-policies with the values your server understands, e.g. --balance-policies rr,none`);
  }
  if (!policyKnob && o.given.has('balancePolicies')) {
    throw new UsageError('--balance-policies needs a way to reach your server: --policy-env NAME or {policy} in its arguments');
  }
  return {
    base: buildCommandRunPlan(o, command),
    policies: policyKnob ? parseValueList(o.balancePolicies, '--balance-policies') : [null],
    knobs: { sizeEnv, sizeArg, policyEnv, policyArg },
  };
}

/**
 * The command target of one step: placeholders replaced, knobs set in its environment.
 * @param {object} target the base plan's command target
 * @param {{ sizeEnv: string|null, policyEnv: string|null, processes?: boolean }} knobs
 * @param {{ size: number, policy: string|null }} step
 */
export function commandStepTarget(target, knobs, { size, policy }) {
  if (knobs.processes) {
    const label = `'${target.command.join(' ')}' in ${size} node:cluster ${size === 1 ? 'worker' : 'workers'}`;
    return { ...target, command: clusterCommand(target.command), env: { ...target.env, [PROCESSES_ENV]: String(size) }, label, poolSize: size, balance: null };
  }
  const fill = (arg) => arg.replaceAll(SIZE_PLACEHOLDER, String(size)).replaceAll(POLICY_PLACEHOLDER, policy ?? '');
  const env = { ...target.env };
  if (knobs.sizeEnv) env[knobs.sizeEnv] = String(size);
  if (knobs.policyEnv && policy !== null) env[knobs.policyEnv] = policy;
  return { ...target, command: target.command.map(fill), env, poolSize: size, balance: policy };
}

/** 'rr, none' → ['rr', 'none']: free values (the server interprets them), no repeats. */
function parseValueList(value, flag) {
  const parts = (Array.isArray(value) ? value : String(value).split(',')).map(String).map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new UsageError(`${flag} needs a comma-separated list of the values your server understands, e.g. rr,none`);
  return [...new Set(parts)];
}
