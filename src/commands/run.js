/** spawnbench run (the default command): boot a strategy or take a URL, drive it, report. */
import { buildRunPlan } from '../plan.js';
import { createRun } from '../runner/run.js';
import { formatSummary } from '../report/summary.js';
import { formatLiveAdvice } from '../report/run-advice-summary.js';
import { runEngineCommand } from './present.js';

export default {
  name: 'run',
  summary: 'boot a strategy (or take --url), drive it with load, report (the default command)',
  isDefault: true,
  groups: ['strategy', 'pool', 'workload', 'runtime', 'url', 'load', 'output'],
  async action(options, io) {
    return runEngineCommand(buildRunPlan(options), createRun, formatSummary, io, { formatAdvice: formatLiveAdvice });
  },
};
