/**
 * What the end-to-end verdict tests read from a DiagnoseResult. On a machine so
 * short of CPU that the server waited for a core half of the time, the verdict
 * is "the machine is short of CPU" (every wall-clock figure is then mostly the
 * machine's), and the server's own fault is listed after it: that is the one a
 * fixture test checks. Anything else is a failure, with the figures.
 */

/**
 * The fault a diagnose found in the server: the verdict, or after a cpu-starved
 * verdict the first problem found, or the cpu-starved verdict itself when there is none.
 * @param {object} result DiagnoseResult (--json)
 */
export function faultOf(result) {
  const { verdict, findings } = result.diagnosis;
  if (verdict.id !== 'cpu-starved') return verdict;
  return findings.find((f) => f.kind === 'problem') ?? verdict;
}

/** The verdict, findings and run-queue shares in one line, for assertion messages and t.diagnostic(). */
export function figuresOf(result) {
  const { verdict, findings } = result.diagnosis;
  const wait = result.mainThread ? ` · main thread waited for a CPU ${Math.round(result.mainThread.waitingForCpu * 100)}% (runnable ${Math.round(result.mainThread.runnable * 100)}%)` : ' · no main-thread run-queue figures';
  // The threads a verdict reads beside the loop, and the machine: a run that found no threads verdict says what it saw.
  const pool = (result.samples?.processes ?? []).filter((p) => p.role !== 'thread').map((p) => p.summary?.otherThreads?.kinds?.threadpool).filter(Boolean);
  const threads = pool.length ? ` · threadpool ${JSON.stringify(pool)}` : '';
  const c = result.diagnosis.capacity;
  const machine = c ? ` · cores busy ${Math.round(c.coresBusyPct ?? NaN)}%, server ${c.serverCores?.toFixed(2)}, others ${c.otherCores?.toFixed(2)}` : '';
  return [verdict, ...findings].map((f) => `${f.id} ${JSON.stringify(f.figures)}`).join(' · ') + wait + threads + machine;
}
