/**
 * The compare engine: each (workload, strategy) in turn, repeats interleaved, one
 * fresh run each with the same load and warm-up. Forwards each run's events (the
 * dashboard and progress lines show the run in progress) plus `compare-progress`
 * and `compare-step`; ends with `done` and the CompareResult. It never prints.
 */
import { createRun as createRunEngine, planForJson } from '../runner/run-engine.js';
import { readMachine } from '../machine/machine.js';
import { describeTargetRuntimes } from '../strategies/runtime-versions.js';
import { createLogger } from '../output/logger.js';
import { compareOrder } from './compare-plan.js';
import { compareTable } from '../analysis/compare-table.js';
import { measureRowMetrics } from '../analysis/metrics.js';
import { createEngine, resultEnvelope, finishEngine } from '../runner/engine-shell.js';
import { measureRun, failedStepFigures } from '../runner/step-runner.js';
import { isFiniteNumber } from '../analysis/stats.js';
import { OTHER_PROCESSES_CORES } from '../base/thresholds.js';

/**
 * @param {object} plan from buildComparePlan()
 * @param {{ createRun?: Function, logger?: object, readMachine?: () => Promise<object> }} [deps]
 * @returns {import('node:events').EventEmitter & { start: () => Promise<object>, stop: () => void }}
 */
export function createCompare(plan, { createRun = createRunEngine, logger = createLogger(null), readMachine: machineOf = readMachine } = {}) {
  return createEngine((compare) => execute(compare, plan, { createRun, logger, machineOf }), logger, 'compare');
}

async function execute(compare, plan, { createRun, logger, machineOf }) {
  const machine = await machineOf();
  const runtimes = await compareRuntimes(plan);
  const order = compareOrder(plan);
  const runs = [];
  for (const [i, item] of order.entries()) {
    if (compare.stopRequested) break;
    compare.emit('compare-progress', { ...item, index: i + 1, total: order.length });
    const run = createRun(plan.plans[item.workload][item.strategy], { logger });
    let entry;
    try {
      entry = { index: i + 1, ...item, ...(await measureRun(compare, run)) };
    } catch (error) {
      if (compare.stopRequested) break;
      // One strategy that cannot start (a runtime it does not support, a crash) does not end the comparison.
      entry = { index: i + 1, ...item, ...failedStepFigures(error.message) };
    }
    runs.push(entry);
    logger.info({ run: entry }, 'compare run');
    compare.emit('compare-step', entry);
  }
  const result = compareResult(plan, { machine, runtimes, runs, stoppedEarly: compare.stopRequested });
  return finishEngine(compare, result);
}

/**
 * The runtimes of every strategy compared, `[{ strategy, role, ...versions }]`. A
 * strategy whose runtime cannot be resolved is left out here and fails in its run.
 */
async function compareRuntimes(plan) {
  const list = [];
  for (const strategy of plan.strategies) {
    const target = plan.plans[plan.workloads[0]]?.[strategy]?.target;
    for (const runtime of await describeTargetRuntimes(target)) list.push({ strategy, ...runtime });
  }
  return list;
}

/**
 * The CompareResult: plain JSON, written by --out and read back by `report`.
 */
export function compareResult(plan, { machine, runtimes = [], runs, stoppedEarly }) {
  const { strategies, workloads, repeat } = plan;
  // Each row with the metrics of the table it has a figure of (src/analysis/metrics.js), as --json shows them.
  const rows = compareTable(runs, plan).map((row) => ({ ...row, metrics: measureRowMetrics(row, runs.filter((r) => r.workload === row.workload && r.strategy === row.strategy)) }));
  const firstPlan = planForJson(plan.plans[workloads[0]][strategies[0]]);
  const workloadInfo = Object.fromEntries(workloads.map((w) => [w, planForJson(plan.plans[w][strategies[0]]).workload]));
  const failed = runs.filter((r) => r.failed || r.failures.length > 0);
  const notes = [];
  if (stoppedEarly) notes.push(`stopped early after ${runs.length} of ${strategies.length * workloads.length * repeat} runs: the table covers what was measured until then`);
  // Other programs on the cores move every figure, and a pool's processes win more of the cores from them than one process:
  // the table said nothing of them where run and tune name them (other processes at 1.0–1.6 of 2 cores, load 15).
  const others = runs.map((r) => r.signals?.otherCores).filter(isFiniteNumber);
  if (others.length > 0 && Math.max(...others) >= OTHER_PROCESSES_CORES) {
    const [low, high] = [Math.min(...others), Math.max(...others)].map((n) => n.toFixed(1));
    notes.push(`other processes used ${low === high ? low : `${low}–${high}`} cores during the runs${Number.isFinite(machine?.cores) ? ` (of ${machine.cores})` : ''}: the figures are of a machine shared with them and move with what else runs; compare on a quiet machine for figures of their own`);
  }
  return resultEnvelope('compare', {
    plan: { command: 'compare', strategies, workloads, repeat, load: firstPlan.load, workloadInfo, poolSize: firstPoolPlan(plan)?.poolSize ?? null, balance: firstPoolPlan(plan)?.balance ?? null, ...(plan.commands ? { commands: plan.commands } : {}) },
    machine,
    runtimes,
    runs,
    rows,
    notes,
    stoppedEarly,
    exitCode: failed.length > 0 ? 1 : 0,
  });
}

function firstPoolPlan(plan) {
  for (const strategy of plan.strategies) {
    const target = plan.plans[plan.workloads[0]][strategy].target;
    if (target.pool) return target;
  }
  return null;
}
