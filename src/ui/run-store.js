import { applyRunEvent, initialRunState, RUN_EVENTS } from './run-state.js';
import { DASHBOARD_REFRESH_MS } from '../base/thresholds.js';

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
export function createRunStore(run, { refreshMs = DASHBOARD_REFRESH_MS } = {}) {
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
    return /** @type {const} */ ([name, handler]);
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
