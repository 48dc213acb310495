/**
 * CLI options → the plan of a comparison: one run plan per (workload, strategy),
 * all with the same load and warm-up, every one checked before anything starts.
 */
import { buildRunPlan } from '../plan/run-plan.js';
import { listStrategies, getStrategy } from '../strategies/registry.js';
import { UsageError } from '../base/errors.js';
import { buildCommandRunPlan, SERVER_WORKLOAD } from '../plan/server-command-plan.js';
import { readOptions, withOptions } from '../plan/option-declarations.js';
import { parseCommandEntries } from './commands.js';

/**
 * @param {Record<string, any>} options the API's options (typed or the CLI's text), or options read already;
 *   compare's own per-run defaults apply (option-declarations.js COMMAND_DEFAULTS)
 * @returns {{ command: 'compare', strategies: string[], workloads: string[], repeat: number,
 *   plans: Record<string, Record<string, object>>, commands?: Record<string, string[]>, output: object }}
 *   plans[workload][strategy]; `strategies` names every row, the built-in strategies first, then
 *   the --command servers (whose argv `commands` holds), and `workloads` is ['server'] when only those are compared
 */
export function buildComparePlan(options) {
  const o = readOptions(options, 'compare');
  const given = o.command ?? [];
  // With --command alone, only the user's servers are compared; --strategies adds built-in ones.
  const strategies = o.given.has('strategies') ? o.strategies : given.length > 0 ? [] : listStrategies().map((s) => s.name);
  const commands = parseCommandEntries(given, strategies);
  checkCommandOptions(o, strategies, commands);
  const workloads = strategies.length > 0 ? o.workloads : [SERVER_WORKLOAD.name];
  /** @type {Record<string, Record<string, object>>} */
  const plans = {};
  for (const workload of workloads) {
    plans[workload] = {};
    for (const strategy of strategies) {
      // --pool-size and --balance set the pools; strategies without one ignore them.
      const unset = getStrategy(strategy).pool ? [] : ['poolSize', 'balance'];
      plans[workload][strategy] = { ...buildRunPlan(withOptions(o, { strategy, workload }, unset)), command: 'compare' };
    }
    for (const { name, argv } of commands) plans[workload][name] = { ...buildCommandRunPlan(o, argv), command: 'compare' };
  }
  const rows = [...strategies, ...commands.map((c) => c.name)];
  const first = plans[workloads[0]][rows[0]];
  return {
    command: 'compare',
    strategies: rows,
    workloads,
    repeat: o.repeat,
    plans,
    ...(commands.length > 0 ? { commands: Object.fromEntries(commands.map((c) => [c.name, c.argv])) } : {}),
    output: first.output,
  };
}

/** Options for the user's servers need one; --workloads, which they ignore, must not pretend to reach them. */
function checkCommandOptions(o, strategies, commands) {
  if (commands.length === 0) {
    for (const flag of ['port', 'path']) {
      if (o.given.has(flag)) throw new UsageError(`--${flag} applies to your own servers: add them with --command name=<command line>`);
    }
    return;
  }
  if (!o.given.has('workloads')) return;
  if (strategies.length === 0) throw new UsageError('--workloads sets what built-in strategies run; your --command servers run their own code: drop --workloads, or add --strategies');
  if (o.workloads.length > 1) {
    throw new UsageError('with --command, give one workload: your servers run their own code whatever the workload, so a second one would only measure them again');
  }
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
