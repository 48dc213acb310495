import { describeLoad, describeTarget, phaseWord } from './describe-plan.js';
import { planView } from './plan-view.js';
import { formatCount, formatElapsed, formatMs } from './cell-format.js';
import { PROGRESS_INTERVAL_MS } from '../base/thresholds.js';
import { policyLabel } from '../base/labels.js';

/**
 * Where there is no dashboard (pipes, CI, --json, --no-dashboard): one plain line
 * per phase change and at most one per PROGRESS_INTERVAL_MS while loading. No
 * colour and no cursor movement, so logs and CI output stay readable.
 */

export { PROGRESS_INTERVAL_MS };

/**
 * One progress line for a LoadTick:
 * "measure 4s/10s  680 rps  p99 45 ms  errors 0".
 * @param {object} tick LoadTick
 * @returns {string}
 */
export function formatProgressLine(tick) {
  const amount = `${formatElapsed(tick.elapsedMs)}/${formatElapsed(tick.plannedMs)}`;
  const requests = tick.phase === 'measure' ? `  ${formatCount(tick.requests)} requests` : '';
  const p99 = formatMs(tick.interval?.p99Ms);
  return `${tick.phase} ${amount}  ${formatCount(tick.rps)} rps  p99 ${p99}  errors ${formatCount(tick.errors?.total ?? 0)}${requests}`;
}

/**
 * One line for a measured tune step.
 * @param {{ size: number, policy: string, rps: number, p99Ms: number, errors: number, failed?: string }} step
 * @returns {string}
 */
export function formatTuneStepLine(step) {
  if (step.failed) return `tune pool ${step.size} ${policyLabel(step.policy)}: failed (${step.failed})`;
  return `tune pool ${step.size} ${policyLabel(step.policy)}: ${formatCount(step.rps)} rps  p99 ${formatMs(step.p99Ms)}  errors ${formatCount(step.errors ?? 0)}`;
}

/**
 * Writes progress lines for a run engine to a stream (stderr).
 * @param {import('node:events').EventEmitter} run
 * @param {{ write: (text: string) => unknown }} stream
 * @param {{ intervalMs?: number, now?: () => number }} [options] now: clock, for tests
 * @returns {() => void} detach: stops listening
 */
export function attachProgressLines(run, stream, { intervalMs = PROGRESS_INTERVAL_MS, now = Date.now } = {}) {
  let lastLine = -Infinity;
  let view = null;
  const write = (line) => stream.write(`${line}\n`);
  const handlers = {
    start: (/** @type {{ plan?: object }} */ { plan } = {}) => {
      view = planView(plan);
      write(`spawnbench ${[...describeTarget(view), ...describeLoad(view)].join(' · ')}`);
    },
    phase: (/** @type {{ phase?: string }} */ { phase } = {}) => {
      if (phase === 'booting' || phase === 'stopping') write(`${phaseWord(phase, view)}…`);
      lastLine = -Infinity; // the first tick of a new phase is always shown
    },
    tick: (tick) => {
      if (now() - lastLine < intervalMs) return;
      lastLine = now();
      write(formatProgressLine(tick));
    },
    'tune-step': (step) => write(formatTuneStepLine(step)),
  };
  for (const [name, handler] of Object.entries(handlers)) run.on(name, handler);
  return () => {
    for (const [name, handler] of Object.entries(handlers)) run.off(name, handler);
  };
}
