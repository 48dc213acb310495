import { applyRunEvent, initialRunState, RUN_EVENTS } from './run-state.js';

/**
 * Default refresh: at most 4 frames a second, the low end of the 4–10/s a live
 * view needs to look live, because each frame costs ~2.5–3.6 ms of CPU (React + Ink's full-frame
 * output, measured on this project's 2-core machine under load) and the budget is
 * 2% of a core (bench/dashboard.js). Samples arrive every 250 ms, so every sample shows.
 */
export const DEFAULT_REFRESH_MS = 250;

/** Events that are shown at once rather than at the next refresh. */
const IMMEDIATE_EVENTS = new Set(['start', 'phase', 'done', 'stop-requested']);

/**
 * Subscribes to a run engine at once (so no early event is missed before React
 * mounts) and hands out snapshots at most every `refreshMs`: events only update
 * the live state; a timer publishes it when something changed. Plain JS, no React:
 * the hook `useRunStore` reads it with useSyncExternalStore.
 *
 * @param {import('node:events').EventEmitter} run
 * @param {{ refreshMs?: number }} [options]
 * @returns {{ getSnapshot: () => import('./run-state.js').RunState,
 *   subscribe: (listener: () => void) => () => void,
 *   markStopRequested: () => void, addLog: (entry: { level: string, msg: string }) => void, close: () => void }}
 */
export function createRunStore(run, { refreshMs = DEFAULT_REFRESH_MS } = {}) {
  let live = initialRunState();
  let snapshot = live;
  const listeners = new Set();

  const publish = () => {
    if (snapshot === live) return;
    snapshot = live;
    for (const listener of listeners) listener();
  };
  const timer = setInterval(publish, refreshMs);

  const handlers = RUN_EVENTS.map((name) => {
    const handler = (payload) => {
      live = applyRunEvent(live, name, payload);
      if (IMMEDIATE_EVENTS.has(name)) publish();
    };
    run.on(name, handler);
    return [name, handler];
  });

  return {
    getSnapshot: () => snapshot,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    markStopRequested() {
      live = applyRunEvent(live, 'stop-requested');
      publish();
    },
    addLog(entry) {
      live = applyRunEvent(live, 'log', entry);
      publish();
    },
    close() {
      clearInterval(timer);
      for (const [name, handler] of handlers) run.off(name, handler);
      listeners.clear();
    },
  };
}
