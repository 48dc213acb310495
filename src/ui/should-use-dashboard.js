/**
 * Whether the live dashboard should run: only on an interactive terminal, never
 * in CI, with --json (stdout carries one JSON document) or with --no-dashboard.
 * Everywhere else the command uses attachProgressLines on stderr. A terminal that says it has
 * no size (a 0×0 pty) gets the lines too: Ink, drawing a frame at least as tall as 0 rows,
 * clears the screen and the scrollback (ESC[3J) on every refresh.
 * @param {{ stdout: { isTTY?: boolean, rows?: number, columns?: number }, env: Record<string, string|undefined>, json?: boolean, dashboard?: boolean }} options
 *   dashboard: commander's value of --no-dashboard (false when given)
 * @returns {boolean}
 */
export function shouldUseDashboard({ stdout, env, json = false, dashboard = true }) {
  if (!stdout?.isTTY || json || dashboard === false) return false;
  if (stdout.rows === 0 || stdout.columns === 0) return false;
  if (env.CI !== undefined && env.CI !== '' && env.CI !== 'false' && env.CI !== '0') return false;
  return env.TERM !== 'dumb';
}
