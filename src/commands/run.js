/** spawnbench run (the default command): boot a strategy or take a URL, drive it, report. */
import { buildRunPlan } from '../plan.js';
import { createRun } from '../runner/run.js';
import { formatSummary } from '../report/summary.js';
import { formatLiveAdvice } from '../report/run-advice-summary.js';
import { runEngineCommand } from './present.js';
import { prepareExtras } from './extras.js';

export default {
  name: 'run',
  summary: 'boot a strategy (or take --url), drive it with load, report (the default command)',
  isDefault: true,
  groups: ['strategy', 'pool', 'workload', 'runtime', 'url', 'load', 'output', 'against', 'assert', 'html'],
  async action(options, io) {
    const plan = buildRunPlan(options);
    return runEngineCommand(plan, createRun, formatSummary, io, prepareExtras(options, 'run'), { formatAdvice: formatLiveAdvice });
  },
};
