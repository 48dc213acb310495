/**
 * CPU-quota throttling, sampled from cpu.stat each interval, for the cgroup whose
 * quota binds the server and for the one that binds spawnbench (the load generator
 * can be throttled too). Often one cgroup: the server is spawnbench's child. Each
 * group is read where its tightest quota is set (src/machine/cpu-budget.js), since that is
 * the level whose periods the kernel throttles.
 */
import { ownCpuBudget, readServerCpu, readCpuStat, throttlingBetween } from '../machine/cpu-budget.js';

/**
 * @typedef {object} Throttling  one quota's figures over an interval (sample) or the measured phase (summary)
 * @property {Array<'server'|'spawnbench'>} roles whose quota it is
 * @property {number} quotaCpus
 * @property {string} cgroup    the cgroup path that sets the quota
 * @property {1|2} version
 * @property {number} periods   quota periods that ran
 * @property {number} throttledPeriods
 * @property {number|null} fraction throttled ÷ periods (null: no period ran)
 * @property {number} throttledMs time the group's threads were held back
 * @property {number|null} usageCpus CPUs the cgroup used on average (null where not readable)
 * @property {number|null} periodMs the quota's period: a throttled group stops for up to this long
 */

/**
 * @param {{ serverPid: number|null }} options the server's main process (null: a --url server we did not start)
 * @returns {{ groups: number, read: () => Throttling[], reset: () => void, summary: () => Throttling[] }}
 */
export function createThrottleSampler({ serverPid }) {
  const groups = new Map();
  const add = (role, budget) => {
    const quota = budget?.limits.quota;
    if (!quota) return;
    const group = groups.get(quota.dir) ?? { quota, roles: [], first: null, last: null };
    if (!group.roles.includes(role)) group.roles.push(role);
    groups.set(quota.dir, group);
  };
  if (serverPid) add('server', readServerCpu(serverPid));
  add('spawnbench', ownCpuBudget());

  const take = () => {
    const t = Date.now();
    return [...groups.values()].map((group) => ({ group, reading: { t, stat: readCpuStat(group.quota.dir) } }));
  };
  const figures = (group, from, to) => {
    const between = from && to ? throttlingBetween(from.stat, to.stat, to.t - from.t) : null;
    if (!between) return null;
    const periodMs = group.quota.periodUs > 0 ? group.quota.periodUs / 1000 : null;
    return { roles: group.roles, quotaCpus: group.quota.cpus, cgroup: group.quota.cgroup, version: group.quota.version, periodMs, ...between };
  };
  const reset = () => {
    for (const { group, reading } of take()) Object.assign(group, { first: reading, last: reading });
  };
  reset();

  return {
    groups: groups.size,
    read() {
      const out = [];
      for (const { group, reading } of take()) {
        const f = figures(group, group.last, reading);
        group.last = reading;
        if (f) out.push(f);
      }
      return out;
    },
    reset,
    summary() {
      return [...groups.values()].map((group) => figures(group, group.first, group.last)).filter(Boolean);
    },
  };
}
