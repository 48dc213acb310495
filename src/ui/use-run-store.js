import { useSyncExternalStore } from 'react';

/**
 * The latest published snapshot of a run store (see run-store.js); re-renders at
 * most at the store's refresh rate.
 * @param {ReturnType<import('./run-store.js').createRunStore>} store
 * @returns {import('./run-state.js').RunState}
 */
export function useRunStore(store) {
  return useSyncExternalStore(store.subscribe, store.getSnapshot);
}
