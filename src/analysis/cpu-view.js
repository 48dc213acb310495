/**
 * The CPU a run had and how much of it was busy, against the CPU budget
 * (src/machine/cpu-budget.js), not the host's cores: a run inside a 1-CPU quota on a
 * 2-core host is saturated at 50% of the host. Pure: the machine, the sampled
 * per-CPU busy shares and the quota's throttling in, figures out.
 */
import { isFiniteNumber } from './stats.js';

/**
 * @typedef {object} CpuView
 * @property {number|null} budget     CPUs the run could use (a saved result without `machine.cpu`: its cores)
 * @property {number|null} capacity   the budget in core-equivalents (SMT siblings counted as a share of a core)
 * @property {'quota'|'cpuset'|'affinity'|'host'|null} source
 * @property {number|null} hostCpus   the host's CPUs (hardware threads)
 * @property {number|null} busyPct    % of the budget busy
 * @property {{ fraction: number, throttledMs: number, quotaCpus: number, roles: string[], periods: number }|null} throttle
 *   the most throttled quota that binds the server or spawnbench (null: no quota, or no period ran)
 */

/** @typedef {{ fraction: number|null, throttledMs: number, quotaCpus: number, roles: string[], periods: number, usageCpus: number|null }} QuotaFigures */

/**
 * @param {object} input
 * @param {Pick<import('../base/result-types.js').Machine, 'cpu'|'cores'>|null} input.machine      a result's machine (`cpu` may be missing in an old result)
 * @param {number[]} input.cpus            busy % of each host CPU (host order)
 * @param {QuotaFigures[]} [input.throttling]
 * @param {number|null} [input.ownCpuPct]  CPU of everything spawnbench saw (server, commands, generator), % of one CPU
 * @returns {CpuView}
 */
export function cpuView({ machine, cpus, throttling = [], ownCpuPct = null }) {
  const cpu = machine?.cpu ?? null;
  const budget = cpu?.budget ?? machine?.cores ?? (cpus.length || null);
  const source = cpu?.source ?? (budget ? 'host' : null);
  // Kept: the quotas whose fraction is a number.
  const throttled = /** @type {Array<QuotaFigures & { fraction: number }>} */ ((throttling ?? []).filter((t) => Number.isFinite(t.fraction)));
  const worst = throttled.length ? throttled.reduce((a, b) => (b.fraction > a.fraction ? b : a)) : null;
  return {
    budget,
    capacity: cpu?.capacity ?? budget,
    source,
    hostCpus: cpu?.hostThreads ?? (cpus.length || machine?.cores || null),
    busyPct: busyOf({ cpu, budget, source, cpus, throttling: throttling ?? [], ownCpuPct }),
    throttle: worst ? { fraction: worst.fraction, throttledMs: worst.throttledMs, quotaCpus: worst.quotaCpus, roles: worst.roles, periods: worst.periods } : null,
  };
}

/**
 * @param {object} input
 * @param {import('../machine/cpu-budget.js').CpuBudget|null} input.cpu
 * @param {number|null} input.budget
 * @param {string|null} input.source
 * @param {Array<number|null>} input.cpus
 * @param {QuotaFigures[]} input.throttling
 * @param {number|null} input.ownCpuPct
 * @returns {number|null}
 */
function busyOf({ cpu, budget, source, cpus, throttling, ownCpuPct }) {
  if (!budget || cpus.length === 0) return null;
  // A core with no reading (its /proc read failed) is left out, not counted idle.
  const read = cpus.filter(isFiniteNumber);
  if (source === 'host' || !cpu) return read.length ? read.reduce((a, b) => a + b, 0) / read.length : null;
  if (source === 'quota') {
    // The cgroup's own usage where the kernel counts it; else what spawnbench saw its tree use.
    const usage = throttling.find((t) => Number.isFinite(t.usageCpus))?.usageCpus;
    if (isFiniteNumber(usage)) return (usage * 100) / budget;
    return isFiniteNumber(ownCpuPct) ? ownCpuPct / budget : null;
  }
  const allowed = cpu.cpus.filter((i) => Number.isFinite(cpus[i]));
  // allowed: the CPUs with a reading
  return allowed.length ? allowed.reduce((sum, i) => sum + /** @type {number} */ (cpus[i]), 0) / budget : null;
}
