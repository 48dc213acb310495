/**
 * How a run boots, follows and stops each kind of target, as one table keyed by
 * the plan's kind: a strategy (its pool, booted by the protocol), a user's server
 * command (its process tree, booted as diagnose boots it) or a server at `--url`
 * (nothing to boot or stop). The run engine asks the row, never the kind; the
 * wordless answers of a target are in src/base/target-kinds.js.
 */
import { bootStrategy } from './boot-strategy.js';
import { bootCommand, commandTarget } from './boot-command.js';
import { listeningServer } from './server-tree.js';
import { workerDeaths, treeWorkerDeaths } from '../analysis/worker-deaths.js';

/**
 * @typedef {object} TargetRunner
 * @property {string} what  the server, in the engine's log ('strategy', 'server')
 * @property {(...args: any[]) => Promise<object|null>|null} boot  `(plan, logger, run, stops, onStderr)`: starts it, each
 *   step's cleanup on `stops` (the engine's), each stderr line to `onStderr`; null when there is nothing to start
 * @property {(server: object) => (() => object|null)|null} findServer  how the sampler follows the process that
 *   listens (a launcher that restarts it, nodemon), or null
 * @property {(plan: object, server: object|null, workers: object[]) => object} resultFields  what a RunResult says of it:
 *   `strategy` (null but for a strategy) and, for a command, `target`
 * @property {(workers: object[], samples: object|null, at: number|null) => object[]} workerDeaths  the workers that died
 *   while measured: a strategy's say so in its control lines, a server's are seen in its process tree
 */

/** @type {Record<string, TargetRunner>} */
const RUNNERS = {
  strategy: {
    what: 'strategy',
    boot: bootStrategy,
    findServer: () => null,
    resultFields: (plan, server, workers) => ({
      strategy: server ? { name: plan.target.strategy, pid: server.proc.pid, port: server.proc.port, workers, containment: server.containment ?? null } : null,
    }),
    workerDeaths: (workers, samples, at) => workerDeaths(workers, at),
  },
  command: {
    what: 'server',
    boot: (plan, logger, run, stops, onStderr) => bootCommand({ target: plan.target, probe: plan.probe, logger, stops, signal: run.signal, onStderr }),
    findServer: (server) => () => listeningServer(server.treePid ?? server.proc.pid, server.port),
    resultFields: (plan, server) => ({ strategy: null, target: commandTarget(plan, server) }),
    workerDeaths: (workers, samples, at) => treeWorkerDeaths(samples?.processes, at),
  },
  url: {
    what: 'strategy',
    boot: () => null,
    findServer: () => null,
    resultFields: () => ({ strategy: null }),
    workerDeaths: (workers, samples, at) => workerDeaths(workers, at),
  },
};

/**
 * @param {{ kind: string }} planTarget `plan.target`
 * @returns {TargetRunner}
 */
export function targetRunner(planTarget) {
  // A plan made by hand without a known kind: nothing to boot, as for --url.
  return Object.hasOwn(RUNNERS, planTarget.kind) ? RUNNERS[planTarget.kind] : RUNNERS.url;
}
