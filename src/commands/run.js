/** spawnbench run (the default command): boot a strategy or take a URL, drive it, report. */
import { buildRunPlan } from '../plan.js';
import { createRun } from '../runner/run.js';
import { createLogger } from '../logger.js';
import { formatSummary } from '../report/summary.js';
import { presentEngine } from './present.js';

export default {
  name: 'run',
  summary: 'boot a strategy (or take --url), drive it with load, report (the default command)',
  isDefault: true,
  groups: ['strategy', 'pool', 'workload', 'runtime', 'url', 'load', 'output'],
  async action(options, io) {
    const plan = buildRunPlan(options);
    const logger = createLogger(plan.output.logFile);
    const run = createRun(plan, { logger });
    const { exitCode } = await presentEngine(run, plan.output, io, formatSummary);
    logger.flush?.();
    return exitCode;
  },
};
