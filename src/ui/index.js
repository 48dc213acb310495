/**
 * The terminal UI of a run: the live Ink dashboard on a TTY, plain progress lines
 * elsewhere, and the choice between them. Components live in components/ and
 * take plain props; the engine is read only through run-store.js.
 */
// First, before anything loads React: selects React's production build (see react-build.js).
import { restoreNodeEnv } from './react-build.js';

export { mountDashboard } from './mount-dashboard.js';
export { attachProgressLines, formatProgressLine } from './progress-lines.js';
export { shouldUseDashboard } from './should-use-dashboard.js';
export { Tune } from './components/tune.js';

restoreNodeEnv();
