/** spawnbench tune: sweep pool sizes and balancing policies of a pool strategy, recommend one with the evidence. */
import { buildTunePlan, TUNE_DEFAULTS } from '../tune/plan.js';
import { createTune } from '../tune/engine.js';
import { formatTune } from '../report/tune.js';
import { runEngineCommand } from './present.js';
import { prepareExtras } from './extras.js';

export default {
  name: 'tune',
  summary: 'sweep pool sizes and balancing policies of a pool strategy, recommend one with the evidence',
  groups: ['strategy', 'workload', 'runtime', 'load', 'output', 'tune', 'html'],
  loadDefaults: { duration: TUNE_DEFAULTS.duration, warmup: TUNE_DEFAULTS.warmup, perStep: true },
  async action(options, io) {
    const plan = buildTunePlan(options);
    return runEngineCommand(plan, createTune, formatTune, io, prepareExtras(options, 'tune'));
  },
};
