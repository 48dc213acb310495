/**
 * What tune and compare share: each step is one run engine, its events forwarded
 * through the sweep's own engine (so the dashboard shows the step being
 * measured), reachable by stop() while it runs, and kept as a few figures.
 */
import { runFigures } from '../analysis/run-figures.js';
import { runProcesses } from '../analysis/worker-balance.js';
import { targetOf } from '../base/target-kinds.js';
import { pausedMidRun } from '../load/stall.js';
import { swallowedSpawns } from '../analysis/spawn-failures.js';
import { ERROR_RATE } from '../base/thresholds.js';

/** Run events passed through from each step; `done` is the sweep's own, and a step's `phase: done` is not the end. */
export const FORWARDED = ['start', 'phase', 'tick', 'sample', 'workers', 'log'];

/**
 * Runs one step's engine with its events forwarded through `parent` and returns its figures.
 * Throws what the run throws (the caller decides whether a failed step ends the sweep).
 * @param {import('./engine-shell.js').Engine} parent the sweep's engine: stopping it stops the run
 * @param {{ start: () => Promise<object>, stop: () => void, on: Function, off: Function }} run a run engine
 * @param {{ processes?: boolean }} [options] `processes`: on a user's server command, also keep what each of
 *   its processes did (`processes`, ProcessRow[]), so tune can show how its own code balanced the work
 * @returns {Promise<import('../analysis/run-figures.js').RunFigures>}
 */
export async function measureRun(parent, run, { processes = false } = {}) {
  const result = await parent.runStep(run, FORWARDED);
  const figures = runFigures(result);
  const failed = [...figures.failures, ...pauseFailure(result.load, figures.failures)];
  return { ...figures, failures: [...failed, ...swallowedFailure(result.spawnFailures, figures.attempts, failed)], ...(processes && targetOf(result.target).processes === 'tree' ? { processes: runProcesses(result) } : {}) };
}

/**
 * A step whose server answered nothing for whole seconds between seconds it answered (SIGSTOP, a debugger, a VM
 * pause: load/stall.js) failed its measurement, as `run` is not sized on one: its throughput holds the pause. A
 * server frozen 2 s of a 4 s step was ranked on it, and tune recommended the size the pause made win.
 * @param {import('../base/result-types.js').LoadResult|undefined} load
 * @param {string[]} failures what failed already (a crash, a stall: said first)
 * @returns {string[]}
 */
function pauseFailure(load, failures) {
  // spawnbench itself stopped (Ctrl-Z, SIGSTOP of tune or compare): the step's load stopped with it, whatever the server did.
  const stopped = failures.length === 0 ? load?.generatorStopped : null;
  if (stopped) {
    const when = stopped.inWarmup ? 'in the warm-up, and its open loop sent the requests due then late, into the measured time' : `of the ${((load?.durationMs ?? 0) / 1000).toFixed(1)} s measured`;
    return [`spawnbench itself did not run for ${(stopped.ms / 1000).toFixed(1)} s ${when} (Ctrl-Z, SIGSTOP): its throughput holds that gap`];
  }
  const pause = failures.length === 0 ? pausedMidRun(load) : null;
  if (!pause) return [];
  if (pause.atStart) return [`the server answered nothing in the first ${pause.seconds} s of the ${pause.measuredSeconds} measured, where its other seconds answered ~${Math.round(pause.medianRps).toLocaleString('en-US')} each: it was still getting ready when the warm-up ended; give a longer --warmup (-w)`];
  const seconds = pause.from === pause.to ? `second ${pause.from}` : `seconds ${pause.from}–${pause.to}`;
  return [`the server answered nothing for ${pause.seconds} s of the ${pause.measuredSeconds} measured (${seconds}), where its other seconds answered ~${Math.round(pause.medianRps).toLocaleString('en-US')} each: a pause (SIGSTOP, a debugger, a VM pause) is in its figures`];
}

/**
 * A step whose server's commands failed to start while their requests were answered as though they ran (the probe
 * counted the failed spawns, no error response did: analysis/spawn-failures.js) failed its measurement, as `run` gives
 * no recommendation on one: its throughput is requests answered without their work.
 * @param {{ total: number, failures: Array<{ command: string, code: string, count: number }>, swallowed?: number }|null|undefined} spawnFailures
 *   the step's RunResult's
 * @param {number} attempts the step's requests that ended (RunFigures.attempts)
 * @param {string[]} failures what failed already (said first)
 * @returns {string[]}
 */
function swallowedFailure(spawnFailures, attempts, failures) {
  if (failures.length > 0) return [];
  const swallowed = swallowedSpawns(spawnFailures, attempts, ERROR_RATE);
  if (!swallowed) return [];
  const top = spawnFailures?.failures?.[0];
  const what = top ? ` (spawn ${top.command}: ${top.code} ×${top.count.toLocaleString('en-US')})` : '';
  return [`its commands failed to start${what} while ${swallowed.swallowed.toLocaleString('en-US')} of its ${swallowed.attempts.toLocaleString('en-US')} requests were answered as though they ran: its throughput is not its work`];
}

/**
 * The figures of a step whose server could not start: nothing measured, the reason kept.
 * @param {string} message
 */
export function failedStepFigures(message) {
  return { rps: 0, p50Ms: null, p99Ms: null, errors: 0, requests: 0, durationMs: 0, partial: false, failures: [], signals: null, failed: message };
}
