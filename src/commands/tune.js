/** spawnbench tune: sweep pool sizes and balancing policies of a pool strategy, recommend one with the evidence. */
import { buildTunePlan, TUNE_DEFAULTS } from '../tune/plan.js';
import { createTune } from '../tune/engine.js';
import { formatTune } from '../report/tune.js';
import { runEngineCommand } from './present.js';

export default {
  name: 'tune',
  summary: 'sweep pool sizes and balancing policies of a pool strategy, recommend one with the evidence',
  groups: ['strategy', 'workload', 'runtime', 'load', 'output', 'tune'],
  loadDefaults: { duration: TUNE_DEFAULTS.duration, warmup: TUNE_DEFAULTS.warmup, perStep: true },
  async action(options, io) {
    return runEngineCommand(buildTunePlan(options), createTune, formatTune, io);
  },
};
