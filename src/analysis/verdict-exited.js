/** Rule: the server exited while it was being measured: every other figure is cut short. */

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function serverExited(evidence) {
  const exit = evidence.serverExit;
  if (!exit) return null;
  const lastLine = exit.stderr ? exit.stderr.split('\n').filter(Boolean).at(-1) ?? null : null;
  return {
    id: 'server-exited',
    kind: 'problem',
    where: null,
    figures: { code: exit.code ?? null, signal: exit.signal ?? null, stderrLastLine: lastLine },
  };
}
