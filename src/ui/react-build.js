/**
 * React, its reconciler and scheduler pick their development or production build
 * when first loaded, from NODE_ENV. The development build checks and times every
 * render; on the dashboard it cost 4.8% of a core against 3.1% for the production
 * build (32 workers, 4 frames/s, measured like bench/dashboard.js "rendering alone").
 * spawnbench is not a React app under development, so this module, imported before
 * anything that loads React (src/ui/index.js imports it first), chooses the production
 * build unless NODE_ENV is set; restoreNodeEnv() then removes it again so the servers
 * spawnbench starts do not inherit a NODE_ENV the user never set.
 */
const wasUnset = process.env.NODE_ENV === undefined;
if (wasUnset) process.env.NODE_ENV = 'production';

/** Puts NODE_ENV back as it was, once React and Ink are loaded. */
export function restoreNodeEnv() {
  if (wasUnset) delete process.env.NODE_ENV;
}
