/** Rule: the server exited while it was being measured: every other figure is cut short. */

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function serverExited(evidence) {
  const exit = evidence.serverExit;
  if (!exit) return null;
  const how = exit.signal ? `was killed by ${exit.signal}` : `exited with code ${exit.code}`;
  const lastLine = exit.stderr ? exit.stderr.split('\n').filter(Boolean).at(-1) : null;
  return {
    id: 'server-exited',
    kind: 'problem',
    title: `the server ${how} during the run`,
    where: null,
    evidence: [lastLine ? `its stderr ends: ${lastLine}` : 'it wrote nothing to stderr', 'the figures cover the time until then'],
    next: [
      exit.signal === 'SIGKILL'
        ? 'a SIGKILL under load is often the out-of-memory killer: check dmesg and the server\'s memory (RSS above)'
        : 'read its full output (--log-file) and fix the crash before diagnosing its speed',
    ],
    figures: { code: exit.code ?? null },
  };
}
