/**
 * The terminal UI of a run: the live Ink dashboard on a TTY, plain progress lines
 * elsewhere, and the choice between them. Components live in components/ and
 * take plain props; the engine is read only through run-store.js.
 *
 * Ink and React are loaded only when the dashboard is drawn: loading them costs
 * ~0.3 CPU-s (issue 28), which text output, --json and runs without a TTY never pay.
 * test/ui/lazy-ink.test.js holds every other path to a module graph without them.
 */
export { attachProgressLines, formatProgressLine } from './progress-lines.js';
export { shouldUseDashboard } from './should-use-dashboard.js';

/**
 * Loads Ink and React, then mounts the live dashboard (see mount-dashboard.js).
 * @param {Parameters<typeof import('./mount-dashboard.js').mountDashboard>} args
 * @returns {Promise<ReturnType<typeof import('./mount-dashboard.js').mountDashboard>>}
 */
export async function mountDashboard(...args) {
  // First, before anything loads React: selects React's production build (see react-build.js).
  const { restoreNodeEnv } = await import('./react-build.js');
  const { mountDashboard: mount } = await import('./mount-dashboard.js');
  restoreNodeEnv();
  return mount(...args);
}
