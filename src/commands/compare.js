/** spawnbench compare: the same load on several strategies and workloads, as the experiment's table. */
import { buildComparePlan, COMPARE_DEFAULTS } from '../compare/plan.js';
import { createCompare } from '../compare/engine.js';
import { formatCompare, formatCompareMarkdown } from '../report/compare.js';
import { runEngineCommand } from './present.js';
import { prepareExtras } from './extras.js';

export default {
  name: 'compare',
  summary: 'run several strategies (and workloads, and your own servers with --command) under the same load and print the table, with ratios',
  groups: ['pool', 'runtime', 'load', 'output', 'compare', 'server', 'against', 'assert', 'html'],
  loadDefaults: { duration: COMPARE_DEFAULTS.duration, warmup: COMPARE_DEFAULTS.warmup, perStep: true },
  async action(options, io) {
    const plan = buildComparePlan(options);
    return runEngineCommand(plan, createCompare, options.markdown ? formatCompareMarkdown : formatCompare, io, prepareExtras(options, 'compare'));
  },
};
