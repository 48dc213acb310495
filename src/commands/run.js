/** spawnbench run (the default command): boot a strategy or take a URL, drive it, report. */
import { prepareExtras } from './extras.js';

export default {
  name: 'run',
  summary: 'boot a strategy (or take --url), drive it with load, report (the default command)',
  isDefault: true,
  groups: ['strategy', 'pool', 'workload', 'runtime', 'url', 'load', 'output', 'against', 'assert', 'html'],
  async action(options, io) {
    // The plan and the engine load once a run starts: --help and --version never pay for them (issue 28).
    const { buildRunPlan } = await import('../plan.js');
    const plan = buildRunPlan(options);
    const extras = prepareExtras(options, 'run');
    const [{ createRun }, { formatSummary }, { formatLiveAdvice }, { runEngineCommand }] = await Promise.all([
      import('../runner/run.js'), import('../report/summary.js'), import('../report/run-advice-summary.js'), import('./present.js'),
    ]);
    return runEngineCommand(plan, createRun, formatSummary, io, extras, { formatAdvice: formatLiveAdvice });
  },
};
