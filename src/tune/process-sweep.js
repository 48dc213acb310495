/**
 * The sweep of `spawnbench tune --processes 1,2,3 -- node [node-flags] <script> [args]`:
 * the unchanged server run in N node:cluster workers at each step, as PM2's cluster
 * mode runs it. Each step's command puts spawnbench's cluster primary
 * (src/runner/cluster-primary.js) before the script, with the node flags kept, and
 * says N through SPAWNBENCH_PROCESSES; the server's own listen(PORT or a fixed port)
 * is shared by node:cluster, and the probe (NODE_OPTIONS) sees every worker.
 */
import { fileURLToPath } from 'node:url';
import { UsageError } from '../base/errors.js';
import { nodeScriptCommand, PROCESSES_SHAPE } from '../analysis/process-count.js';
import { SIZE_PLACEHOLDER } from '../plan/server-command-plan.js';

/** The cluster primary the steps run (a file run by node, never imported). */
export const CLUSTER_PRIMARY = fileURLToPath(new URL('../runner/cluster-primary.js', import.meta.url));
/** The variable cluster-primary.js reads its worker count from. */
export const PROCESSES_ENV = 'SPAWNBENCH_PROCESSES';

/**
 * Every check on `--processes`: the command's shape and the options it cannot go with.
 * @param {import('../plan/option-declarations.js').PlanOptions} o
 * @param {string[]} command
 */
export function checkProcessSweep(o, command) {
  for (const [name, flag] of [['sizes', '--sizes'], ['sizeEnv', '--size-env'], ['policyEnv', '--policy-env'], ['balancePolicies', '--balance-policies']]) {
    if (o.given.has(name)) throw new UsageError(`--processes is the sweep's sizes and node:cluster balances them: drop ${flag}`);
  }
  if (command.some((a) => a.includes(SIZE_PLACEHOLDER))) throw new UsageError('--processes runs your server unchanged: drop {size} from its arguments, or drop --processes and use --sizes');
  const shape = nodeScriptCommand(command);
  if (!shape.ok) {
    const what = shape.why === 'not-node' ? `'${shape.word}' is not node` : shape.why === 'inline' ? `node ${shape.word} runs no script` : 'no script was given';
    throw new UsageError(`--processes runs a script in node:cluster workers and ${what}; it works on ${PROCESSES_SHAPE} (for npm start, give the node command it runs)`);
  }
}

/**
 * The command of one step: node, its flags, the cluster primary, the script and its arguments.
 * @param {string[]} command the user's
 * @returns {string[]}
 */
export function clusterCommand(command) {
  const shape = nodeScriptCommand(command);
  if (!shape.ok) throw new UsageError(`--processes works on ${PROCESSES_SHAPE}`);
  const { node, flags, script, args } = shape.parts;
  return [node, ...flags, CLUSTER_PRIMARY, script, ...args];
}
