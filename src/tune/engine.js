/**
 * The tune engine: one run per step (each boots the strategy fresh and warms it
 * up), in the order the search gives, then the recommendation. It forwards each
 * step's run events (so the dashboard and progress lines show the step being
 * measured) and adds `tune-progress` and `tune-step` (shapes in src/README.md,
 * "Tune engine"). It never prints.
 */
import { createRun as createRunEngine, planForJson } from '../runner/run.js';
import { readMachine } from '../machine.js';
import { describeTargetRuntimes } from '../strategies/runtime-versions.js';
import { createLogger } from '../logger.js';
import { RESULT_FORMAT } from '../report/result-file.js';
import { runFigures } from '../analysis/run-figures.js';
import { recommend } from '../analysis/recommend.js';
import { fitUsl } from '../analysis/usl.js';
import { isClean, groupCells } from '../analysis/cells.js';
import { stepPlan, tunePlanForJson } from './plan.js';
import { createExhaustiveSearch } from './exhaustive.js';
import { createAdaptiveSearch } from './adaptive.js';
import { createEngine } from '../runner/engine-parts.js';

/** Run events passed through from each step; `done` is the sweep's own, and a step's `phase: done` is not the end. */
const FORWARDED = ['start', 'phase', 'tick', 'sample', 'workers', 'log'];

/**
 * @param {object} plan from buildTunePlan()
 * @param {{ createRun?: typeof createRunEngine, logger?: object, readMachine?: () => Promise<object> }} [deps]
 *   createRun and readMachine are replaceable for tests
 * @returns {import('node:events').EventEmitter & { start: () => Promise<object>, stop: () => void }}
 */
export function createTune(plan, { createRun = createRunEngine, logger = createLogger(null), readMachine: machineOf = readMachine } = {}) {
  return createEngine((tune, state) => execute(tune, plan, { createRun, logger, machineOf }, state), logger, 'tune');
}

async function execute(tune, plan, { createRun, logger, machineOf }, state) {
  const machine = await machineOf();
  const runtimes = await describeTargetRuntimes(plan.base?.target);
  const search = plan.search === 'adaptive' ? createAdaptiveSearch(plan) : createExhaustiveSearch(plan);
  const steps = [];
  let index = 0;
  for (let batch = search.nextBatch(steps); batch.length > 0 && !state.stopRequested; batch = search.nextBatch(steps)) {
    for (const item of batch) {
      if (state.stopRequested) break;
      index += 1;
      tune.emit('tune-progress', { ...item, index, total: search.mode === 'exhaustive' ? search.exhaustiveSteps : null });
      const step = await measureStep(tune, createRun(stepPlan(plan, item), { logger }), item, state, steps);
      if (!step) break;
      steps.push({ index, ...step });
      logger.info({ step: steps.at(-1) }, 'tune step');
      tune.emit('tune-step', steps.at(-1));
    }
  }
  tune.emit('tune-progress', null);
  const result = tuneResult(plan, { machine, runtimes, steps, search, stoppedEarly: state.stopRequested });
  tune.emit('phase', { phase: 'done' });
  tune.emit('done', result);
  return result;
}

/**
 * Runs one step and returns its figures. A step whose strategy fails to start is
 * recorded as failed once some step has worked (a large pool may not fit the
 * machine); if the very first steps fail, the sweep fails with that error.
 * Returns null when the sweep was stopped before the step measured anything.
 */
async function measureStep(tune, run, item, state, steps) {
  const forward = FORWARDED.map((name) => [name, (payload) => (name === 'phase' && payload?.phase === 'done' ? null : tune.emit(name, payload))]);
  for (const [name, handler] of forward) run.on(name, handler);
  state.current = run;
  try {
    const result = await run.start();
    return { ...item, ...runFigures(result) };
  } catch (error) {
    if (state.stopRequested) return null; // stopped while booting: nothing measured
    if (!steps.some((s) => !s.failed)) throw error;
    return { ...item, rps: 0, p50Ms: null, p99Ms: null, errors: 0, requests: 0, durationMs: 0, partial: false, failures: [], signals: null, failed: error.message };
  } finally {
    state.current = null;
    for (const [name, handler] of forward) run.off(name, handler);
  }
}

/**
 * The TuneResult: plain JSON, written by --out and read back by `report`.
 * @returns {object}
 */
export function tuneResult(plan, { machine, runtimes = [], steps, search, stoppedEarly }) {
  const recommendation = recommend(steps);
  const notes = [];
  if (stoppedEarly) notes.push(`stopped early after ${steps.length} step${steps.length === 1 ? '' : 's'}: the recommendation covers what was measured until then`);
  return {
    tool: 'spawnbench',
    format: RESULT_FORMAT,
    kind: 'tune',
    createdAt: new Date().toISOString(),
    plan: tunePlanForJson(plan, planForJson),
    machine,
    runtimes,
    steps,
    search: {
      mode: search.mode,
      measuredSteps: steps.length,
      exhaustiveSteps: search.exhaustiveSteps,
      savedSteps: search.exhaustiveSteps - steps.length,
    },
    usl: uslOf(steps),
    recommendation,
    notes,
    stoppedEarly,
    exitCode: recommendation.size === null ? 1 : 0,
  };
}

/** The USL fit of the policy measured at the most sizes, on its clean cells' medians. */
function uslOf(steps) {
  const cells = groupCells(steps).filter(isClean);
  const counts = new Map();
  for (const c of cells) counts.set(c.policy, (counts.get(c.policy) ?? 0) + 1);
  const policy = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!policy) return null;
  const fit = fitUsl(cells.filter((c) => c.policy === policy).map((c) => ({ n: c.size, x: c.rps.median })));
  return fit ? { policy, ...fit } : null;
}
