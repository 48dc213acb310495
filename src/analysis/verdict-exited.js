/** Rule: the server exited while it was being measured: every other figure is cut short. */
import { crashLine } from './error-reasons.js';

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
    // Why, where its stderr says (a Node crash's last line is its version): "Error: boom".
    figures: { code: exit.code ?? null, signal: exit.signal ?? null, stderrLastLine: lastLine, stderrErrorLine: exit.stderr ? crashLine(exit.stderr.split('\n')) : null },
  };
}

/**
 * Rule: the server answered nothing for whole seconds between seconds it answered (SIGSTOP, a debugger, a VM
 * pause: load/stall.js): its figures hold the pause. Frozen 2.2 s of a 4 s diagnose, a server read "healthy: no
 * stall found at this load" beside a max latency of 2,220 ms, where run says it is not sized on such a run.
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function serverPaused(evidence) {
  const pause = evidence.pause;
  if (!pause) return null;
  return { id: 'paused', kind: 'problem', where: null, figures: { ...pause } };
}

/**
 * Rule: spawnbench itself did not run for a second or more while measuring (Ctrl-Z, SIGSTOP, a suspended machine): no
 * request was sent then, so the throughput and latency hold the gap, not the server. Stopped 1.2 s of a 3 s diagnose,
 * a server that served ~30,000 req/s read "healthy … served 10,661 req/s … capacity seen: at least 10,661 req/s".
 * @param {import('./verdict-common.js').Evidence} evidence
 * @returns {import('./verdict-common.js').Finding|null}
 */
export function generatorStopped(evidence) {
  const stopped = evidence.generatorStopped;
  if (!stopped) return null;
  return { id: 'generator-stopped', kind: 'problem', where: null, figures: { stoppedMs: stopped.ms, inWarmup: Boolean(stopped.inWarmup) } };
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
