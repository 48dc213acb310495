/** spawnbench compare: the same load on several strategies and workloads, as the experiment's table. */
import { buildComparePlan, COMPARE_DEFAULTS } from '../compare/plan.js';
import { createCompare } from '../compare/engine.js';
import { createLogger } from '../logger.js';
import { formatCompare, formatCompareMarkdown } from '../report/compare.js';
import { presentEngine } from './present.js';

export default {
  name: 'compare',
  summary: 'run several strategies (and workloads) under the same load and print the table, with ratios',
  groups: ['pool', 'runtime', 'load', 'output', 'compare'],
  loadDefaults: { duration: COMPARE_DEFAULTS.duration, warmup: COMPARE_DEFAULTS.warmup, perStep: true },
  async action(options, io) {
    const plan = buildComparePlan(options);
    const logger = createLogger(plan.output.logFile);
    const compare = createCompare(plan, { logger });
    const format = options.markdown ? formatCompareMarkdown : formatCompare;
    const { exitCode } = await presentEngine(compare, plan.output, io, format);
    logger.flush?.();
    return exitCode;
  },
};
