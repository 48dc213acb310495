/**
 * A run of -n requests ends when they are all settled, and a server that stopped answering
 * settles them one --timeout at a time: -n 100000 on 4 connections would run for days. When no
 * response came for SILENT_END_TIMEOUTS × --timeout (at least SILENT_END_MIN_MS) of the measured
 * phase, the load is ended: what was still unanswered is the run's failure (src/load/stall.js).
 * A -d run ends on its own: nothing is watched.
 */
import { SILENT_END_TIMEOUTS, SILENT_END_MIN_MS } from '../base/thresholds.js';

/**
 * @param {import('./engine-shell.js').Engine} engine emits the load's ticks; endLoad() ends its measured phase
 * @param {{ requests?: number|null, timeoutMs: number }} load the plan's load
 * @param {() => number} [now] the clock (tests)
 * @returns {() => void} stops watching
 */
export function endLoadWhenSilent(engine, load, now = Date.now) {
  if (load.requests == null) return () => {};
  const quietMs = Math.max(SILENT_END_MIN_MS, SILENT_END_TIMEOUTS * load.timeoutMs);
  let answered = -1;
  let since = now();
  let ended = false;
  /** @param {{ phase: string, requests: number }} tick */
  const onTick = (tick) => {
    if (ended || tick.phase !== 'measure') return;
    if (tick.requests !== answered) {
      answered = tick.requests;
      since = now();
    } else if (now() - since >= quietMs) {
      ended = true;
      engine.endLoad();
    }
  };
  engine.on('tick', onTick);
  return () => engine.off('tick', onTick);
}
