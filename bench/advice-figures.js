/**
 * Figures for bench:advice's servers, as pure functions: wrk's output read, one
 * size's rounds into a median and spread, the value spawnbench's recommendation
 * advises, and whether it is MET against the sweep the bench made itself. No
 * process is started here.
 */
import { median } from './strategies-figures.js';
import { runAgainstTune } from '../src/analysis/run-vs-tune.js';
import { RPS_BAND } from '../src/base/thresholds.js';

/**
 * wrk's summary: requests per second, responses, and what it did not count as served
 * (socket errors, non-2xx/3xx answers). null when the output has no Requests/sec line.
 * @param {string} text wrk's stdout
 */
export function parseWrk(text) {
  const rps = text.match(/^Requests\/sec:\s+([\d.]+)/m);
  if (!rps) return null;
  const requests = text.match(/^\s*(\d+) requests in ([\d.]+)(ms|s|m)/m);
  const sockets = text.match(/Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/);
  const non2xx = text.match(/Non-2xx or 3xx responses: (\d+)/);
  const socketErrors = sockets ? sockets.slice(1, 5).reduce((sum, n) => sum + Number(n), 0) : 0;
  return {
    rps: Number(rps[1]),
    requests: requests ? Number(requests[1]) : null,
    errors: socketErrors + (non2xx ? Number(non2xx[1]) : 0),
  };
}

/**
 * One size's rounds: the median throughput and its spread (min–max), and the errors
 * of all rounds. A round wrk could not measure counts as missing, not as 0.
 * @param {Array<{ rps: number, errors: number }|null>} rounds
 */
export function summariseSize(rounds) {
  const measured = rounds.filter((r) => r !== null && Number.isFinite(r.rps));
  if (measured.length === 0) return { median: null, min: null, max: null, rounds: 0, errors: 0 };
  const values = measured.map((r) => r.rps);
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), rounds: measured.length, errors: measured.reduce((sum, r) => sum + r.errors, 0) };
}

/**
 * What spawnbench advised, as a value of the size the truth swept:
 * - `thread-knob`: the value to try of the knob named (its reason `thread-knob`); the
 *   kind of limit is that reason's `limit` (threadpool, cores or neither);
 * - `processes`: the processes of a single server: the recommended size, or 1 where
 *   it says one process is enough; the kind is the reason that says so;
 * - `workers`: the workers of a server with a knob: the recommended size, else the
 *   knob's value kept;
 * and no value where the run was too short to advise (its reason `too-short`).
 * @param {'thread-knob'|'processes'|'workers'} kind
 * @param {{ size: number|null, confidence: string|null, reasons: Array<{ id: string, figures: object }>, knob?: { name?: string, value?: number }|null }} rec
 * @param {string|null} knobName the variable the truth swept (thread-knob)
 * @returns {{ value: number|null, limit: string|null, reason: string|null, knob: string|null }}
 */
export function advisedValue(kind, rec, knobName = null) {
  const ids = rec.reasons.map((r) => r.id);
  // A run too short to advise proposes only a sweep: nothing to judge.
  if (ids.includes('too-short')) return { value: null, limit: null, reason: 'too-short', knob: null };
  if (kind === 'thread-knob') {
    const reason = rec.reasons.find((r) => r.id === 'thread-knob');
    if (!reason) return { value: null, limit: null, reason: null, knob: null };
    const f = /** @type {{ name: string, trySize: number, limit: string }} */ (reason.figures);
    return { value: f.name === knobName ? f.trySize : null, limit: f.limit, reason: 'thread-knob', knob: f.name };
  }
  if (kind === 'processes') {
    const reason = ['more-processes', 'own-pool-would-help', 'processes-no-gain', 'one-process-enough', 'no-gain-expected', 'main-has-room'].find((id) => ids.includes(id)) ?? null;
    const value = rec.size ?? (reason === null ? null : 1);
    return { value, limit: null, reason, knob: null };
  }
  const reason = ['size-up', 'size-down', 'size-keep'].find((id) => ids.includes(id)) ?? null;
  return { value: rec.size ?? rec.knob?.value ?? null, limit: null, reason, knob: rec.knob?.name ?? null };
}

/**
 * MET when the throughput the truth measured at the advised value is within RPS_BAND
 * of the truth's best (src/analysis/run-vs-tune.js's rule, the one bench:advice applies
 * to tune), and the advice names the kind of limit the server has where one is expected:
 * `expect.reason` (e.g. more-processes: "run more processes") or `expect.limit` (the
 * thread knob's, e.g. cores).
 * @param {{ value: number|null, limit: string|null, reason: string|null, knob: string|null }} advised
 * @param {Array<{ size: number, rps: { median: number|null } }>} truth
 * @param {{ reason?: string, limit?: string }} [expect]
 * @returns {{ met: boolean, why: string, check: import('../src/analysis/run-vs-tune.js').RunAgainstTune|null }}
 */
export function judgeAdvice(advised, truth, expect = {}) {
  if (advised.value === null) {
    const what = advised.reason === 'too-short' ? 'the run was too short to advise (too-short): give it more time (--run-duration)'
      : advised.knob ? `it named ${advised.knob}, not the knob measured` : advised.reason ? `its reason ${advised.reason} gives no value` : 'no value advised';
    return { met: false, why: what, check: null };
  }
  const check = runAgainstTune(advised.value, truth);
  if (!check || check.share === null) return { met: false, why: `${advised.value} was not measured`, check };
  const share = `${Math.round(check.share * 100)}% of the best (${check.bestSize}: ${Math.round(check.bestRps)} req/s)${check.interpolated ? ', between measured sizes' : ''}`;
  if (!check.within) return { met: false, why: `at ${advised.value}: ${share}`, check };
  if (expect.reason && advised.reason !== expect.reason) return { met: false, why: `at ${advised.value}: ${share}, but the reason is ${advised.reason ?? 'none'}, not ${expect.reason}`, check };
  if (expect.limit && advised.limit !== expect.limit) return { met: false, why: `at ${advised.value}: ${share}, but the limit named is ${advised.limit ?? 'none'}, not ${expect.limit}`, check };
  return { met: true, why: `at ${advised.value}: ${share}`, check };
}

/**
 * The sizes whose rounds spread wider than the band MET is judged by, either side of
 * the median ((max − min) / median > 2 × RPS_BAND): on those, the truth itself cannot
 * tell a 5% difference, and a MET or NOT MET says more about the machine than the advice.
 * @param {Array<{ label: string, rps: { median: number|null, min: number|null, max: number|null } }>} truth
 * @returns {string[]} their labels
 */
export function noisySizes(truth) {
  return truth.filter(({ rps }) => rps.median > 0 && (rps.max - rps.min) / rps.median > 2 * RPS_BAND).map((s) => s.label);
}
