/**
 * CLI options → the plan of a comparison: one run plan per (workload, strategy),
 * all with the same load and warm-up, every one checked before anything starts.
 */
import { buildRunPlan } from '../run-plan.js';
import { listStrategies, getStrategy } from '../strategies/registry.js';
import { WORKLOAD_NAMES } from '../workloads.js';
import { parseChoiceList, parseInteger } from '../units.js';
import { MAX_REPEAT, COMPARE_DEFAULTS } from '../thresholds.js';
import { UsageError } from '../errors.js';
import { buildCommandRunPlan, SERVER_WORKLOAD } from '../server-command-plan.js';
import { parseCommandEntries } from './commands.js';

export { COMPARE_DEFAULTS };


/**
 * @param {object} o commander options of `spawnbench compare`
 * @returns {{ command: 'compare', strategies: string[], workloads: string[], repeat: number,
 *   plans: Record<string, Record<string, object>>, commands?: Record<string, string[]>, output: object }}
 *   plans[workload][strategy]; `strategies` names every row, the built-in strategies first, then
 *   the --command servers (whose argv `commands` holds), and `workloads` is ['server'] when only those are compared
 */
export function buildComparePlan(o) {
  const names = listStrategies().map((s) => s.name);
  const given = o.command ?? [];
  // With --command alone, only the user's servers are compared; --strategies adds built-in ones.
  const strategies = o.strategies !== undefined ? parseChoiceList(o.strategies, '--strategies', names) : given.length > 0 ? [] : names;
  const commands = parseCommandEntries(given, strategies);
  checkCommandOptions(o, strategies, commands);
  const workloads = strategies.length > 0 ? parseChoiceList(o.workloads ?? COMPARE_DEFAULTS.workloads, '--workloads', WORKLOAD_NAMES) : [SERVER_WORKLOAD.name];
  const repeat = parseInteger(o.repeat ?? COMPARE_DEFAULTS.repeat, '--repeat', { max: MAX_REPEAT });
  const plans = {};
  for (const workload of workloads) {
    plans[workload] = {};
    for (const strategy of strategies) {
      const pool = getStrategy(strategy).pool;
      plans[workload][strategy] = {
        ...buildRunPlan({
          ...withRunDefaults(o),
          strategy,
          workload,
          // --pool-size and --balance set the pools; strategies without one ignore them.
          poolSize: pool ? o.poolSize : undefined,
          balance: pool ? o.balance : undefined,
        }),
        command: 'compare',
      };
    }
    for (const { name, argv } of commands) plans[workload][name] = { ...buildCommandRunPlan(withRunDefaults(o), argv), command: 'compare' };
  }
  const rows = [...strategies, ...commands.map((c) => c.name)];
  const first = plans[workloads[0]][rows[0]];
  return {
    command: 'compare',
    strategies: rows,
    workloads,
    repeat,
    plans,
    ...(commands.length > 0 ? { commands: Object.fromEntries(commands.map((c) => [c.name, c.argv])) } : {}),
    output: first.output,
  };
}

/** Compare's shorter duration and warm-up per run where the options leave them out. */
function withRunDefaults(o) {
  return { ...o, duration: o.requests === undefined ? (o.duration ?? COMPARE_DEFAULTS.duration) : undefined, warmup: o.warmup ?? COMPARE_DEFAULTS.warmup };
}

/** Options for the user's servers need one; --workloads, which they ignore, must not pretend to reach them. */
function checkCommandOptions(o, strategies, commands) {
  if (commands.length === 0) {
    for (const flag of ['port', 'path']) {
      if (o[flag] !== undefined) throw new UsageError(`--${flag} applies to your own servers: add them with --command name=<command line>`);
    }
    return;
  }
  if (o.workloads === undefined) return;
  if (strategies.length === 0) throw new UsageError('--workloads sets what built-in strategies run; your --command servers run their own code: drop --workloads, or add --strategies');
  if (String(o.workloads).split(',').filter((w) => w.trim()).length > 1) {
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
