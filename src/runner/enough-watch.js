/**
 * A tune step's -d is a minimum: with `load.extendToMs` in its plan, the load runs up to
 * that cap and is ended on the first measured tick past -d at which the step has enough
 * responses to rank (src/analysis/step-enough.js), or has errors (a step with errors is not
 * ranked, so it is not extended). Without it, nothing is watched.
 */
import { hasEnoughResponses } from '../analysis/step-enough.js';
import { STEP_TICK_SLACK_MS } from '../base/thresholds.js';

/**
 * @param {import('./engine-shell.js').Engine} engine emits the load's ticks; endLoad() ends its measured phase
 * @param {{ durationMs: number|null, extendToMs?: number|null, rate?: number|null }} load the plan's load
 * @returns {() => void} stops watching
 */
export function endLoadWhenEnough(engine, load) {
  if (!load.extendToMs || !Number.isFinite(load.durationMs)) return () => {};
  let ended = false;
  const onTick = (tick) => {
    if (ended || tick.phase !== 'measure' || tick.elapsedMs + STEP_TICK_SLACK_MS < load.durationMs) return;
    // A step with errors is not ranked whatever its length: no reason to extend it.
    const failing = (tick.errors?.total ?? 0) > 0;
    if (!failing && !hasEnoughResponses({ requests: tick.requests, durationMs: tick.elapsedMs, p99Ms: tick.overall?.p99Ms ?? null, rate: load.rate ?? null })) return;
    ended = true;
    engine.endLoad();
  };
  engine.on('tick', onTick);
  return () => engine.off('tick', onTick);
}
