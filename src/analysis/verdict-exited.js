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

/**
 * Rule: the server stopped answering (frozen, a lock, a downstream that never answers): requests it held at the
 * end, longer than any it answered, are in no figure, so the figures cannot call it healthy.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function serverStoppedAnswering(evidence) {
  const stall = evidence.stall;
  if (!stall) return null;
  return {
    id: 'stopped-answering',
    kind: 'problem',
    where: null,
    figures: {
      count: stall.count,
      oldestMs: stall.oldestMs,
      // It stopped in the warm-up: nothing measured was answered, the warm-up's answers are the comparison.
      answeredMaxMs: stall.answeredMaxMs ?? evidence.load.maxMs ?? null,
      inWarmup: Boolean(stall.inWarmup),
      // A server process on a CPU while its probe was silent: JavaScript held its loop, not a lock or a downstream.
      spinning: stall.spinning ?? null,
    },
  };
}
