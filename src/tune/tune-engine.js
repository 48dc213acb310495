/**
 * The tune engine: one run per step (each boots the strategy fresh and warms it
 * up), in the order the search gives, then the recommendation. It forwards each
 * step's run events (so the dashboard and progress lines show the step being
 * measured) and adds `tune-progress` and `tune-step` (shapes in src/README.md,
 * "Tune engine"). It never prints.
 */
import { createRun as createRunEngine, planForJson } from '../runner/run-engine.js';
import { readMachine } from '../machine/machine.js';
import { describeTargetRuntimes } from '../strategies/runtime-versions.js';
import { createLogger } from '../output/logger.js';
import { recommend } from '../analysis/recommend.js';
import { fitUsl, uslDisagreement } from '../analysis/usl.js';
import { isClean, groupCells, stepsOfCell } from '../analysis/cells.js';
import { measureCellMetrics } from '../analysis/metrics.js';
import { stepPlan, tunePlanForJson } from './tune-plan.js';
import { createExhaustiveSearch } from './exhaustive.js';
import { createAdaptiveSearch } from './adaptive.js';
import { createEngine, resultEnvelope, finishEngine } from '../runner/engine-shell.js';
import { measureRun, failedStepFigures } from '../runner/step-runner.js';
import { chosenProcesses, cellBalances, cellWorkers, ignoredSizeKnob } from '../analysis/worker-balance.js';
import { RunError } from '../base/errors.js';
import { hasEnoughResponses } from '../analysis/step-enough.js';
import { STEP_TICK_SLACK_MS, TUNE_MIN_RESPONSES } from '../base/thresholds.js';
import { targetOf } from '../base/target-kinds.js';
import { THREADPOOL_ENV, VIPS_ENV } from '../analysis/size-knob.js';

/**
 * @param {object} plan from buildTunePlan()
 * @param {{ createRun?: typeof createRunEngine, logger?: object, readMachine?: () => Promise<object> }} [deps]
 *   createRun and readMachine are replaceable for tests
 * @returns {import('node:events').EventEmitter & { start: () => Promise<object>, stop: () => void }}
 */
export function createTune(plan, { createRun = createRunEngine, logger = createLogger(null), readMachine: machineOf = readMachine } = {}) {
  return createEngine((tune) => execute(tune, plan, { createRun, logger, machineOf }), logger, 'tune');
}

async function execute(tune, plan, { createRun, logger, machineOf }) {
  const machine = await machineOf();
  const runtimes = await describeTargetRuntimes(plan.base?.target);
  const search = plan.search === 'adaptive' ? createAdaptiveSearch(plan) : createExhaustiveSearch(plan);
  const steps = [];
  let index = 0;
  for (let batch = search.nextBatch(steps); batch.length > 0 && !tune.stopRequested; batch = search.nextBatch(steps)) {
    for (const item of batch) {
      if (tune.stopRequested) break;
      index += 1;
      tune.emit('tune-progress', { ...item, index, total: search.mode === 'exhaustive' ? search.exhaustiveSteps : null });
      const step = await measureStep(tune, createRun(stepPlan(plan, item), { logger }), item, steps, targetOf(plan.base.target).processes === 'tree');
      if (!step) break;
      steps.push({ index, ...step, ...enoughMarks(step, plan.base.load) });
      logger.info({ step: steps.at(-1) }, 'tune step');
      tune.emit('tune-step', steps.at(-1));
    }
  }
  tune.emit('tune-progress', null);
  // A user's server that fails at every size: nothing to recommend, and the first reason is the one to fix.
  if (!tune.stopRequested && steps.length > 0 && steps.every((s) => s.failed)) throw new RunError(steps[0].failed);
  const result = tuneResult(plan, { machine, runtimes, steps, search, stoppedEarly: tune.stopRequested });
  return finishEngine(tune, result);
}

/**
 * Runs one step and returns its figures. A step whose strategy fails to start is
 * recorded as failed once some step has worked (a large pool may not fit the
 * machine); if the very first steps fail, the sweep fails with that error. On a
 * user's server (`ownServer`) every failed step is recorded and the sweep goes on.
 * Returns null when the sweep was stopped before the step measured anything.
 */
async function measureStep(tune, run, item, steps, ownServer) {
  try {
    // A user's server: what each of its processes did, so its own balancing shows.
    return { ...item, ...(await measureRun(tune, run, { processes: ownServer })) };
  } catch (error) {
    if (tune.stopRequested) return null; // stopped while booting: nothing measured
    // A user's server that will not start at one size (exits, never listens) may at the next: the sweep goes on.
    if (!steps.some((s) => !s.failed) && !ownServer) throw error;
    return { ...item, ...failedStepFigures(error.message) };
  }
}

/**
 * A measured step's length against its -d: `extended` when it ran past -d to get enough
 * responses (up to the plan's cap), `tooFew` when it ended without them (it is not ranked).
 * A failed or stopped step is neither: it is not ranked for its own reason. A step whose
 * measurement failed (`failures`: the server crashed or stopped answering) is a failed one
 * too: marked too short, a server that died in the warm-up read "Measure longer steps (-d)".
 * @returns {{ tooFew: boolean, extended: boolean }}
 */
export function enoughMarks(step, load) {
  if (step.failed || (step.failures?.length ?? 0) > 0 || step.partial) return { tooFew: false, extended: false };
  // --requests: each step is as many requests as asked, never extended; fewer than TUNE_MIN_RESPONSES do not rank
  // (tune -n 5 recommended 1 process from 5 responses a step, and 2 on the next try).
  if (load.extendToMs == null) return { tooFew: load.requests != null && !(step.requests >= TUNE_MIN_RESPONSES), extended: false };
  return {
    tooFew: !hasEnoughResponses({ ...step, rate: load.rate ?? null }),
    extended: step.durationMs > load.durationMs + STEP_TICK_SLACK_MS * 2,
  };
}

/**
 * The TuneResult: plain JSON, written by --out and read back by `report`.
 * @returns {object}
 */
export function tuneResult(plan, { machine, runtimes = [], steps, search, stoppedEarly }) {
  const recommendation = recommend(steps);
  // A server without a policy knob ran its own balancing at every step: the policy was not tuned.
  if (plan.knobs && plan.policies[0] === null) Object.assign(recommendation, { policyReason: 'no-policy-knob', reasons: [...recommendation.reasons, 'policy-not-tuned'] });
  // A size knob the server did not follow (the same workers at every size): the sizes differ by noise alone, so none is recommended.
  const workers = plan.knobs ? cellWorkers(steps) : null;
  // A thread knob (UV_THREADPOOL_SIZE, VIPS_CONCURRENCY) sizes threads, whatever the worker processes beside them.
  const threadKnob = [THREADPOOL_ENV, VIPS_ENV].includes(plan.knobs?.sizeEnv);
  const ignored = workers && !plan.knobs.processes && !threadKnob && recommendation.size !== null ? ignoredSizeKnob(workers) : null;
  if (ignored) {
    Object.assign(recommendation, {
      size: null, policy: null, chosen: null, best: null, bestCell: null, ties: { sizes: [], policies: [] }, bottleneck: null,
      reasons: ['knob-ignored'], basis: { ...recommendation.basis, knobIgnored: { ...ignored, sizeEnv: plan.knobs.sizeEnv, sizeArg: plan.knobs.sizeArg } },
    });
    delete recommendation.policyReason;
  }
  // Stopped before a second repeat: --repeat was given already (the note says why each step ran once), so no advice to pass it.
  if (stoppedEarly && plan.repeat > 1) recommendation.reasons = recommendation.reasons.filter((r) => r !== 'single-repeat');
  // Each cell with the metrics of the table it has a figure of (src/analysis/metrics.js), as --json shows them.
  for (const cell of recommendation.cells) Object.assign(cell, { metrics: measureCellMetrics(cell, stepsOfCell(steps, cell)) });
  const notes = [];
  const after = `stopped early after ${steps.length} step${steps.length === 1 ? '' : 's'}`;
  // The note agrees with the recommendation: with none, it claims no coverage.
  if (stoppedEarly) notes.push(recommendation.size === null ? `${after}: no recommendation from what was measured until then` : `${after}: the recommendation covers what was measured until then`);
  return resultEnvelope('tune', {
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
    ...neighboursBySize(steps),
    ...(plan.knobs ? { processes: chosenProcesses(steps, recommendation), balance: cellBalances(steps), workers } : {}),
    notes,
    stoppedEarly,
    exitCode: recommendation.size === null ? 1 : 0,
  });
}

/**
 * Per size, the server's downstream connections (per peer, the most seen at once over
 * its steps) and the busiest other CPU users (its last step's).
 * @returns {{ downstreamsBySize: Array<{ size: number, downstreams: object[] }>, otherUsersBySize: Array<{ size: number, users: object[] }> }}
 */
function neighboursBySize(steps) {
  const sizes = [...new Set(steps.filter((s) => !s.partial).map((s) => s.size))].sort((a, b) => a - b);
  const downstreamsBySize = [];
  const otherUsersBySize = [];
  for (const size of sizes) {
    const own = steps.filter((s) => s.size === size && !s.partial);
    const peers = new Map();
    for (const d of own.flatMap((s) => s.downstreams ?? [])) {
      const seen = peers.get(d.peer);
      if (!seen || d.connections > seen.connections) peers.set(d.peer, d);
    }
    if (peers.size > 0) downstreamsBySize.push({ size, downstreams: [...peers.values()].sort((a, b) => b.connections - a.connections) });
    const users = own.map((s) => s.signals?.otherUsers).filter((u) => u?.length).at(-1);
    if (users) otherUsersBySize.push({ size, users });
  }
  return { downstreamsBySize, otherUsersBySize };
}

/**
 * The USL fit of the policy measured at the most sizes, on its clean cells' medians;
 * `shown: false` and `notShown` (why) where it disagrees with them (usl.js uslDisagreement).
 */
function uslOf(steps) {
  const cells = groupCells(steps).filter(isClean);
  const counts = new Map();
  for (const c of cells) counts.set(c.policy, (counts.get(c.policy) ?? 0) + 1);
  const policy = [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!policy) return null;
  const points = cells.filter((c) => c.policy === policy).map((c) => ({ n: c.size, x: c.rps.median }));
  const fit = fitUsl(points);
  if (!fit) return null;
  // A fit that disagrees with the measured curve stays in the result, marked, and is not shown.
  const notShown = uslDisagreement(fit, points);
  return { policy, ...fit, shown: notShown === null, notShown };
}
