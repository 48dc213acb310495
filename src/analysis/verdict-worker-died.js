/**
 * Rule: worker processes of the server died while measured (a node:cluster worker that threw, a pool
 * process killed), each seen in its process tree and replaced or not (worker-deaths.js). Their
 * requests failed or were reset, and below the error threshold the rest read healthy: a cluster whose
 * worker threw every 2 s was 'healthy: no stall found … nothing to fix at this load'.
 */

/**
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function workersDied(evidence) {
  const deaths = evidence.workerDeaths ?? [];
  if (deaths.length === 0) return null;
  // The server's stderr, grouped by line: the error a worker threw, where one says so.
  const lines = (evidence.stderr?.lines ?? []).map((l) => l.text.trim()).filter(Boolean);
  const thrown = lines.find((l) => /\b\w*Error\b|\bthrow\b/.test(l)) ?? lines.at(-1) ?? null;
  return {
    id: 'worker-died',
    kind: 'problem',
    where: null,
    figures: {
      deaths: deaths.length,
      first: deaths[0],
      replaced: deaths.filter((d) => d.replacedBy !== null).length,
      errors: evidence.load.errors ?? 0,
      stderrLine: thrown,
    },
  };
}
